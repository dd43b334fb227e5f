"""Offline provisioning of WordNet 3.0: find it, assemble it once, open it with NLTK.

Nothing here downloads anything. WordNet comes from the standard NLTK data locations when a
``corpora/wordnet`` folder or ``corpora/wordnet.zip`` is present, else from a system WordNet
database (Debian/Ubuntu ``wordnet-base`` + ``wordnet-sense-index`` install it under
``/usr/share/wordnet``). The system database lacks the ``lexnames`` file NLTK needs, so it is
assembled once into ``cache_dir()/wordnet/`` (copies of the system files plus ``lexnames``).

>>> src = find_wordnet()
>>> src.source in ("nltk_data", "system", "missing")
True
"""

from __future__ import annotations

import functools
import os
import shutil
import sys
import tempfile
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # NLTK is imported lazily: hot paths use the cached Hierarchy, not NLTK.
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

__all__ = [
    "FIX_COMMAND",
    "WordNetMissingError",
    "WordNetSource",
    "cache_dir",
    "find_wordnet",
    "load_wordnet",
]

#: The one command that provisions WordNet on Debian/Ubuntu (the project's supported route).
FIX_COMMAND = "apt-get install wordnet-base wordnet-sense-index"

SYSTEM_WORDNET_DIR = Path("/usr/share/wordnet")

# Files NLTK's WordNetCorpusReader opens eagerly (index + exception lists of every POS) and the
# data files it reads synsets from; a directory lacking any of them is not a usable WordNet.
_REQUIRED_FILES = tuple(
    f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")
) + tuple(f"{pos}.exc" for pos in ("noun", "verb", "adj", "adv"))
# Opened lazily by NLTK (sense keys, counts); linked when the system has them.
_OPTIONAL_FILES = ("index.sense", "cntlist.rev")

# The standard WordNet 3.0 `lexnames` file (see lexnames(5WN)): number, name, syntactic category.
_LEXNAMES = [
    "adj.all",
    "adj.pert",
    "adv.all",
    "noun.Tops",
    "noun.act",
    "noun.animal",
    "noun.artifact",
    "noun.attribute",
    "noun.body",
    "noun.cognition",
    "noun.communication",
    "noun.event",
    "noun.feeling",
    "noun.food",
    "noun.group",
    "noun.location",
    "noun.motive",
    "noun.object",
    "noun.person",
    "noun.phenomenon",
    "noun.plant",
    "noun.possession",
    "noun.process",
    "noun.quantity",
    "noun.relation",
    "noun.shape",
    "noun.state",
    "noun.substance",
    "noun.time",
    "verb.body",
    "verb.change",
    "verb.cognition",
    "verb.communication",
    "verb.competition",
    "verb.consumption",
    "verb.contact",
    "verb.creation",
    "verb.emotion",
    "verb.motion",
    "verb.perception",
    "verb.possession",
    "verb.social",
    "verb.stative",
    "verb.weather",
    "adj.ppl",
]
_LEXNAME_CATEGORY = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}


def lexnames_text() -> str:
    """The 45-line WordNet 3.0 ``lexnames`` file.

    >>> lexnames_text().splitlines()[0]
    '00\\tadj.all\\t3'
    """
    return "".join(f"{i:02d}\t{name}\t{_LEXNAME_CATEGORY[name.split('.')[0]]}\n" for i, name in enumerate(_LEXNAMES))


class WordNetMissingError(RuntimeError):
    """No usable WordNet 3.0 (not found, or not assemblable); the message says how to fix it."""


@dataclass(frozen=True)
class WordNetSource:
    """Where WordNet was found.

    ``source`` is ``"nltk_data"``, ``"system"`` or ``"missing"``; ``path`` is the folder (or zip)
    found; ``fix`` is the command that installs it (empty when ``ok``).

    >>> WordNetSource(False, "missing", None, FIX_COMMAND).ok
    False
    """

    ok: bool
    source: str
    path: Path | None
    fix: str


def cache_dir() -> Path:
    """The project cache folder: ``$HALCECE_CACHE``, else ``$XDG_CACHE_HOME/halcece``,
    else ``~/.cache/halcece``. Not created here.

    >>> isinstance(cache_dir(), Path)
    True
    """
    explicit = os.environ.get("HALCECE_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg).expanduser() / "halcece"
    return Path.home() / ".cache" / "halcece"


def _is_wordnet_dir(path: Path) -> bool:
    return path.is_dir() and all((path / name).is_file() for name in _REQUIRED_FILES)


def _nltk_data_dirs() -> list[Path]:
    """NLTK's data search path (``nltk.data.path``), without importing NLTK when possible.

    Importing NLTK costs ~0.8 s, far more than loading the cached index, so when NLTK is not
    imported yet its default path is reproduced (same rule as ``nltk/data.py`` on POSIX).
    """
    if "nltk.data" in sys.modules or os.name == "nt":
        try:
            import nltk.data
        except ImportError:  # without NLTK nothing can read WordNet anyway
            return []
        return [Path(p) for p in nltk.data.path if isinstance(p, str)]
    dirs = [os.path.expanduser(d) for d in os.environ.get("NLTK_DATA", "").split(os.pathsep) if d]
    if "APPENGINE_RUNTIME" not in os.environ and os.path.expanduser("~/") != "~/":
        dirs.append(os.path.expanduser("~/nltk_data"))
    dirs += [
        os.path.join(sys.prefix, "nltk_data"),
        os.path.join(sys.prefix, "share", "nltk_data"),
        os.path.join(sys.prefix, "lib", "nltk_data"),
        "/usr/share/nltk_data",
        "/usr/local/share/nltk_data",
        "/usr/lib/nltk_data",
        "/usr/local/lib/nltk_data",
    ]
    return [Path(d) for d in dirs]


def _system_candidates() -> list[Path]:
    # Explicit user settings (the WordNet C tools' own variables) come before the Debian default.
    candidates: list[Path] = []
    if os.environ.get("WNSEARCHDIR"):
        candidates.append(Path(os.environ["WNSEARCHDIR"]).expanduser())
    if os.environ.get("WNHOME"):
        candidates.append(Path(os.environ["WNHOME"]).expanduser() / "dict")
    candidates.append(SYSTEM_WORDNET_DIR)
    return candidates


def find_wordnet() -> WordNetSource:
    """Locate WordNet 3.0: NLTK data locations first, then the system database.

    >>> find_wordnet().fix in ("", FIX_COMMAND)
    True
    """
    for base in _nltk_data_dirs():
        folder = base / "corpora" / "wordnet"
        if _is_wordnet_dir(folder) and (folder / "lexnames").is_file():
            return WordNetSource(True, "nltk_data", folder, "")
        archive = base / "corpora" / "wordnet.zip"
        if archive.is_file():
            return WordNetSource(True, "nltk_data", archive, "")
    for folder in _system_candidates():
        if _is_wordnet_dir(folder):
            return WordNetSource(True, "system", folder, "")
    return WordNetSource(False, "missing", None, FIX_COMMAND)


def missing_message(src: WordNetSource | None = None) -> str:
    """Human-readable explanation of a missing WordNet, with the fix."""
    src = src or find_wordnet()
    places = ", ".join(str(p / "corpora" / "wordnet") for p in _nltk_data_dirs()[:3])
    system = ", ".join(str(p) for p in _system_candidates())
    return (
        "WordNet 3.0 not found (looked in NLTK data: "
        f"{places or 'n/a'}, ...; system: {system}). Fix: {src.fix or FIX_COMMAND} "
        "(or place NLTK's 'wordnet' corpus in one of nltk.data.path). "
        "halcece never downloads it at run time."
    )


def _atomic_write_text(path: Path, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; the cache holds nothing secret
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _copy_if_changed(src: Path, dest: Path) -> None:
    """Copy ``src`` to ``dest`` atomically unless an identical copy (size, mtime) is there.

    A copy, not a symlink: NLTK (>= 3.9) opens corpus files with ``O_NOFOLLOW`` and only
    inside authorised data roots, so a link pointing back to /usr/share/wordnet is refused.
    """
    st = src.stat()
    try:
        dt = dest.stat(follow_symlinks=False)
        if dt.st_size == st.st_size and int(dt.st_mtime) == int(st.st_mtime):
            return
    except FileNotFoundError:
        pass
    tmp = dest.with_name(f"{dest.name}.{os.getpid()}.tmp")
    try:
        shutil.copy2(src, tmp)  # copy2 keeps the mtime the freshness check above compares
        os.replace(tmp, dest)  # atomic, so concurrent assemblers never see a half-made file
    finally:
        tmp.unlink(missing_ok=True)


def assemble_system_wordnet(system_dir: Path, target: Path | None = None) -> Path:
    """Assemble an NLTK-readable WordNet folder from a system database (idempotent).

    Returns the folder. The system folder is used as is when it already has ``lexnames``.
    """
    if (system_dir / "lexnames").is_file():
        return system_dir
    target = target or cache_dir() / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for name in _REQUIRED_FILES + _OPTIONAL_FILES:
        src = system_dir / name
        if src.is_file():
            _copy_if_changed(src, target / name)
    lexnames = target / "lexnames"
    if not lexnames.is_file() or lexnames.read_text(encoding="utf-8") != lexnames_text():
        _atomic_write_text(lexnames, lexnames_text())
    return target


_lock = threading.Lock()


def _authorise_for_nltk(folder: Path) -> None:
    """Let NLTK read ``folder``: NLTK >= 3.9 only opens files under ``nltk.data.path`` roots."""
    import nltk.data

    if str(folder) not in nltk.data.path:
        # Appended (not prepended) so the standard NLTK data locations keep their priority,
        # and only this one folder is authorised, never the whole cache.
        nltk.data.path.append(str(folder))


def _reader_class() -> type[WordNetCorpusReader]:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    class OfflineWordNetReader(WordNetCorpusReader):  # type: ignore[misc]  # nltk ships no types
        """NLTK's reader without the one look-up that needs ``nltk_data/corpora/wordnet``.

        On construction NLTK maps the loaded database to "the" NLTK WordNet 3.0 corpus (for
        multilingual OMW data) by opening that corpus through ``nltk.data``; with the system
        database and no NLTK data that look-up fails. The loaded database *is* WordNet 3.0, so
        the mapping is the identity, which NLTK itself represents as ``None``.
        """

        def map_wn(self, version: str = "wordnet") -> None:
            return None

    return OfflineWordNetReader


@functools.lru_cache(maxsize=1)
def _reader_for(source: str, path: Path) -> WordNetCorpusReader:
    from nltk.data import ZipFilePathPointer

    if source == "nltk_data" and path.suffix == ".zip":
        root = ZipFilePathPointer(str(path), "wordnet/")
    elif source == "nltk_data":
        root = str(path)
    else:
        try:
            root = str(assemble_system_wordnet(path))
        except OSError as exc:  # e.g. a read-only home: say what to do, not just errno
            raise WordNetMissingError(
                f"WordNet found in {path} but it could not be assembled into "
                f"{cache_dir() / 'wordnet'} ({exc}); set HALCECE_CACHE to a writable folder."
            ) from exc
        _authorise_for_nltk(Path(root))
    with warnings.catch_warnings():
        # Without the OMW corpus NLTK warns that multilingual functions are unavailable;
        # the project uses English WordNet only.
        warnings.simplefilter("ignore", UserWarning)
        return _reader_class()(root, None)


def load_wordnet() -> WordNetCorpusReader:
    """Open WordNet with NLTK (cached per process). Raises :class:`WordNetMissingError`.

    >>> load_wordnet().synset("dog.n.01").name()
    'dog.n.01'
    """
    src = find_wordnet()
    if not src.ok or src.path is None:
        raise WordNetMissingError(missing_message(src))
    with _lock:
        return _reader_for(src.source, src.path)
