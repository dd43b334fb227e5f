"""SIGTERM (sent by timeout, systemd, Kubernetes, Slurm) stops a run the way Ctrl-C does: no more
work is taken, what is done is written, the summary printed; the exit status is 143, not 130."""

from __future__ import annotations

import signal

#: The exit status of a run stopped by SIGTERM (128 + 15, as the shell reports it).
EXIT_TERMINATED = 143
#: The exit status of a run stopped by Ctrl-C (128 + 2).
EXIT_INTERRUPTED = 130


class Terminated(KeyboardInterrupt):
    """Raised by SIGTERM: a KeyboardInterrupt, so every command stops on it as on Ctrl-C."""


def _terminate(signum: int, frame: object) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # once: the run is already stopping
    raise Terminated()


def stop_on_sigterm() -> None:
    """Have SIGTERM raise :class:`Terminated` (a handler an embedding program set is kept)."""
    if signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, None):
        signal.signal(signal.SIGTERM, _terminate)


def interrupted_status(exc: BaseException | bool) -> int:
    """The exit status of a run stopped by ``exc``: 143 for SIGTERM, 130 for Ctrl-C.

    >>> interrupted_status(Terminated()), interrupted_status(KeyboardInterrupt())
    (143, 130)
    """
    return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
