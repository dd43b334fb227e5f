"""Per-model HalCECE tables in the paper's three groupings: objects, object edits, roles.

Every number is :func:`cece.metrics.aggregate_metrics` over the per-caption metrics the explainer
computed (object metrics over all captions; role metrics over the captions whose roles were judged,
i.e. whose image side has relations); the only other figure is ``hal_total``, the sum of the
per-caption ``hal`` counts.

>>> from cece.metrics import ObjectMetrics
>>> m = ModelMetrics.of("m", [ObjectMetrics(n_objects=2, hal=1, hal_rate=0.5).to_dict()], [])
>>> to_markdown(objects_table([m])).splitlines()[2]
'| m | 1 | 2.00 | 0.00 | 0.500 (1) | 1.000 | 0.000 (0.00) | - | - |'
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from cece.explanation import Explanation
from cece.metrics import aggregate_metrics, chair_i, chair_s
from parsers import SceneGraph
from parsers.coco_objects import chair_counts, coco_categories


@dataclass
class ModelMetrics:
    """One model's means: ``objects`` and ``roles`` are ``aggregate_metrics`` dicts."""

    model: str
    n_captions: int
    objects: dict[str, Any]
    roles: dict[str, Any]  # over judged captions only; its n_captions says how many
    hal_total: int
    chair: dict[str, float] = field(default_factory=dict)  # CHAIRs, CHAIRi over the model's captions

    @classmethod
    def of(cls, model: str, objects: list[dict[str, Any]], roles: list[dict[str, Any]]) -> ModelMetrics:
        """From per-caption ``ObjectMetrics`` / ``RoleMetrics`` dicts (roles: judged ones only)."""
        return cls(
            model,
            len(objects),
            aggregate_metrics(objects),
            aggregate_metrics(roles),
            sum(int(o["hal"]) for o in objects),
        )


@dataclass
class CaptionRow:
    """What the tables, figures and linguistic scores need of one explanation -- not its edits or
    graphs, so a report over many captions keeps only these (``chair``: CHAIR's (hallucinated,
    mentioned) COCO objects, worked out from the image graph while it was there)."""

    id: Any
    model: str
    caption: str
    objects: Any  # ObjectMetrics
    roles: Any  # RoleMetrics
    chair: tuple[int, int]
    hallucinated: bool = False  # the caption's verdict

    @classmethod
    def of(cls, e: Explanation) -> CaptionRow:
        return cls(
            e.id,
            str(e.model),
            e.caption,
            e.objects,
            e.roles,
            chair_counts(e.caption, image_categories(e.image_graph)),
            bool(e.hallucinated),
        )


#: What the tables, figures, linguistic scores and page read of a caption: its whole Explanation,
#: or the CaptionRow a report over many captions keeps instead.
Captioned = Explanation | CaptionRow


def model_metrics(explanations: Iterable[Captioned]) -> list[ModelMetrics]:
    """Per-model metrics, models in order of first appearance."""
    objects: dict[str, list[dict[str, Any]]] = {}
    roles: dict[str, list[dict[str, Any]]] = {}
    chair: dict[str, list[tuple[int, int]]] = {}
    for e in explanations:
        model = str(e.model)
        objects.setdefault(model, []).append(e.objects.to_dict())
        chair.setdefault(model, []).append(
            e.chair if isinstance(e, CaptionRow) else chair_counts(e.caption, image_categories(e.image_graph))
        )
        bucket = roles.setdefault(model, [])
        # Labels-only images cannot judge roles: counting them as "no role hallucination" would flatter.
        if e.roles.judged:
            bucket.append(e.roles.to_dict())
    out = [ModelMetrics.of(m, objects[m], roles[m]) for m in objects]
    for m in out:
        hal, total = zip(*chair[m.model], strict=True)
        m.chair = {"CHAIRs": chair_s(h > 0 for h in hal), "CHAIRi": chair_i(hal, total)}
    return out


def image_categories(image: SceneGraph) -> set[str]:
    """The COCO categories of an image side: named in its references, or by its objects."""
    if image.kind == "references":
        return coco_categories(image.text.splitlines())
    return coco_categories(name for c in image.concepts for name in (c.text, *c.names()))


@dataclass
class Table:
    """A table twice over: display cells (markdown / HTML) and raw values (CSV / JSON)."""

    name: str
    title: str
    headers: list[str]
    rows: list[list[str]]
    fields: list[str]
    records: list[dict[str, Any]]
    note: str = ""


@dataclass(frozen=True)
class Column:
    header: str
    cell: Callable[[ModelMetrics], str]
    fields: dict[str, Callable[[ModelMetrics], Any]]


def _num(x: Any, digits: int = 3) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _rate_with_count(group: str, rate: str, count: str) -> Column:
    """A rate cell with the mean count per caption in brackets, e.g. ``0.120 (0.35)``."""
    return Column(
        count.upper() if len(count) == 1 else count,
        lambda m: f"{_num(getattr(m, group).get(rate))} ({_num(getattr(m, group).get(count), 2)})",
        {f"{rate}": lambda m: getattr(m, group).get(rate), f"{count}_mean": lambda m: getattr(m, group).get(count)},
    )


def _plain(header: str, group: str, key: str, digits: int = 3, field: str | None = None) -> Column:
    return Column(
        header, lambda m: _num(getattr(m, group).get(key), digits), {field or key: lambda m: getattr(m, group).get(key)}
    )


_MODEL = Column("Model", lambda m: m.model, {"model": lambda m: m.model})

OBJECT_COLUMNS = [
    _MODEL,
    Column("Captions", lambda m: str(m.n_captions), {"n_captions": lambda m: m.n_captions}),
    _plain("#objects", "objects", "n_objects", 2),
    _plain("#ancestors", "objects", "n_ancestors", 2),
    Column(
        "HalRate (#hal)",
        lambda m: f"{_num(m.objects.get('hal_rate'))} ({m.hal_total})",
        {
            "hal_rate": lambda m: m.objects.get("hal_rate"),
            "hal_mean": lambda m: m.objects.get("hal"),
            "hal_total": lambda m: m.hal_total,
        },
    ),
    _plain("Granularity", "objects", "granularity"),
    _rate_with_count("objects", "u_rate", "u"),
    Column("CHAIRs", lambda m: _num(m.chair.get("CHAIRs")), {"chair_s": lambda m: m.chair.get("CHAIRs")}),
    Column("CHAIRi", lambda m: _num(m.chair.get("CHAIRi")), {"chair_i": lambda m: m.chair.get("CHAIRi")}),
]

OBJECT_EDIT_COLUMNS = [
    _MODEL,
    _rate_with_count("objects", "d_rate", "d"),
    _rate_with_count("objects", "o_rate", "o"),
    _rate_with_count("objects", "r_rate", "r"),
    _plain("Similarity of R", "objects", "r_similarity", field="r_similarity"),
]

ROLE_COLUMNS = [
    _MODEL,
    Column(
        "Judged captions",
        lambda m: str(m.roles.get("n_captions", 0)),
        {"n_judged": lambda m: m.roles.get("n_captions", 0)},
    ),
    _plain("#roles", "roles", "n_roles", 2),
    _plain("D", "roles", "d", 2, "d_mean"),
    _plain("R", "roles", "r", 2, "r_mean"),
    _plain("HalRate", "roles", "hal_rate"),
    _plain("Granularity", "roles", "granularity"),
]


def build_table(name: str, title: str, *, columns: list[Column], models: list[ModelMetrics], note: str = "") -> Table:
    fields = [f for c in columns for f in c.fields]
    return Table(
        name,
        title,
        [c.header for c in columns],
        [[c.cell(m) for c in columns] for m in models],
        fields,
        [{f: get(m) for c in columns for f, get in c.fields.items()} for m in models],
        note,
    )


def objects_table(models: list[ModelMetrics]) -> Table:
    return build_table(
        "objects",
        "Objects",
        columns=OBJECT_COLUMNS,
        models=models,
        note="Means per caption. HalRate = (D+R+O) / #objects, (#hal) = hallucinated objects in all; "
        "Granularity = 1 - missing / image objects; U = under-specialisation rate (mean count); "
        "CHAIRs = share of captions naming a COCO object the image lacks, CHAIRi = share of "
        "COCO object mentions that are (Rohrbach et al., 2018).",
    )


def object_edits_table(models: list[ModelMetrics]) -> Table:
    return build_table(
        "object_edits",
        "Object edits",
        columns=OBJECT_EDIT_COLUMNS,
        models=models,
        note="Rates per caption object (mean count per caption): D delete, O over-specialise, "
        "R replace; Similarity of R = mean over captions with a replacement of their mean "
        "Wu-Palmer similarity.",
    )


def roles_table(models: list[ModelMetrics]) -> Table:
    return build_table(
        "roles",
        "Roles",
        columns=ROLE_COLUMNS,
        models=models,
        note="Triples, over the captions whose image side has relations. D, R = mean count per "
        "caption; HalRate = (D+R) / #roles.",
    )


def all_tables(models: list[ModelMetrics]) -> list[Table]:
    return [objects_table(models), object_edits_table(models), roles_table(models)]


def to_markdown(table: Table) -> str:
    lines = ["| " + " | ".join(table.headers) + " |", "|" + "|".join(" --- " for _ in table.headers) + "|"]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in table.rows]
    return "\n".join(lines)


def to_csv(table: Table) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=table.fields, lineterminator="\n")
    writer.writeheader()
    writer.writerows(table.records)
    return buf.getvalue()


def to_json(models: list[ModelMetrics], tables: list[Table]) -> dict[str, Any]:
    """Everything the tables show, plus the full per-model aggregates."""
    return {"models": [asdict(m) for m in models], "tables": {t.name: t.records for t in tables}}
