"""``python -m halcece ...``: the ``cece`` command."""

from halcece.main import main

main(prog_name="cece")
