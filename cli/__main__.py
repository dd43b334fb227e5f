"""``python -m cli ...``: the ``cece`` command."""

from cli.main import main

main(prog_name="cece")
