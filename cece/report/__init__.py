"""Per-model edit reports: HalCECE tables, distributions, frequent edits, linguistic metrics, and a
self-contained HTML page.

>>> from cece.report import run_report                                     # doctest: +SKIP
>>> r = run_report("cece/examples/models.jsonl", "out/report")             # doctest: +SKIP
>>> r.index, [m.model for m in r.models]                                   # doctest: +SKIP
(PosixPath('out/report/index.html'), ['careful', 'eager', 'confuser', 'terse'])

Modules: ``inputs`` (records, ``--annotations`` files), ``run`` (resumable explaining),
``tables``, ``frequent``, ``figures``, ``linguistic``, ``captions`` + ``html`` + ``assets`` (the
page), ``build`` (putting it together).
"""

from cece.report.build import Report, build_report, run_report
from cece.report.inputs import AnnotationsFileError, load_items

__all__ = ["AnnotationsFileError", "Report", "build_report", "load_items", "run_report"]
