"""Speed of `cece report`: ``python -m benchmarks.report_speed [N_CAPTIONS] [N_MODELS]`` prints JSON.

A synthetic set -- N_CAPTIONS / N_MODELS images as a Visual Genome scene-graph file, each captioned
by every model, references per image in a second file -- is reported on by the real command in a
fresh process (wall time, start-up included): once cold, once resumed (nothing left to explain),
and once with ``--with-linguistic``. Models differ by how often they swap, add or drop objects.

Target: 10,000 captions over 5 models in under 2 minutes.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.synthetic import ADJS, NOUNS

PREDICATES = ["on", "next to", "holding", "behind", "near", "in front of", "under"]
# model -> (P(swap an object for one not in the image), P(add an object), P(mention a third object))
MODELS = {
    "faithful": (0.0, 0.0, 0.6),
    "swapper": (0.5, 0.0, 0.5),
    "adder": (0.1, 0.7, 0.6),
    "terse": (0.1, 0.0, 0.0),
    "mixed": (0.3, 0.3, 0.4),
    "m6": (0.2, 0.2, 0.2),
    "m7": (0.4, 0.1, 0.3),
}


def make_image(rng: random.Random, image_id: int) -> dict:
    """A VG record of 4-8 objects and 2-4 relations."""
    names = rng.sample(NOUNS, rng.randint(4, 8))
    objs = [{"object_id": image_id * 100 + k, "names": [n]} for k, n in enumerate(names)]
    rels = []
    for k in range(rng.randint(2, 4)):
        s, o = rng.sample(range(len(names)), 2)
        rels.append(
            {
                "relationship_id": k,
                "predicate": rng.choice(PREDICATES),
                "subject_id": objs[s]["object_id"],
                "object_id": objs[o]["object_id"],
            }
        )
    return {"image_id": image_id, "objects": objs, "relationships": rels}


def make_caption(rng: random.Random, image: dict, model: str) -> str:
    swap, add, third = MODELS[model]
    names = {o["object_id"]: o["names"][0] for o in image["objects"]}
    others = [n for n in NOUNS if n not in names.values()]
    rel = rng.choice(image["relationships"])
    subj, obj = names[rel["subject_id"]], names[rel["object_id"]]
    if rng.random() < swap:
        subj = rng.choice(others)
    text = f"A {rng.choice(ADJS)}{subj} {rel['predicate']} a {obj}"
    if rng.random() < third:
        text += f" with a {rng.choice(list(names.values()))}"
    if rng.random() < add:
        text += f" and a {rng.choice(others)}"
    return text.replace("A two", "Two") + "."


def make_set(folder: Path, n: int, *, n_models: int, seed: int = 0) -> Path:
    """Write captions.jsonl, vg.json and refs.json; return the captions path."""
    rng = random.Random(seed)
    models = list(MODELS)[:n_models]
    images = [make_image(rng, i) for i in range(n // n_models)]
    (folder / "vg.json").write_text(json.dumps(images))
    refs = {str(im["image_id"]): [make_caption(rng, im, "faithful") for _ in range(3)] for im in images}
    (folder / "refs.json").write_text(json.dumps(refs))
    with (folder / "captions.jsonl").open("w") as f:
        for im in images:
            for m in models:
                f.write(
                    json.dumps(
                        {
                            "id": f"{im['image_id']}-{m}",
                            "model": m,
                            "image_id": im["image_id"],
                            "caption": make_caption(rng, im, m),
                        }
                    )
                    + "\n"
                )
    return folder / "captions.jsonl"


def _timed(cmd: list[str]) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return round(time.perf_counter() - t, 1)


def run(n: int = 10_000, n_models: int = 5) -> dict:
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d)
        captions = make_set(folder, n, n_models=n_models)
        base = [
            sys.executable,
            "-m",
            "halcece",
            "report",
            str(captions),
            "--annotations",
            str(folder / "vg.json"),
            "--annotations",
            str(folder / "refs.json"),
        ]
        cold = _timed(base + ["-o", str(folder / "r1")])
        resumed = _timed(base + ["-o", str(folder / "r1")])
        linguistic = _timed(base + ["-o", str(folder / "r1"), "--with-linguistic"])
        html_mb = round((folder / "r1" / "index.html").stat().st_size / 1e6, 1)
        lines = len((folder / "r1" / "explanations.jsonl").read_text().splitlines())
    return {
        "captions": n,
        "models": n_models,
        "explained": lines,
        "cold_report_s": cold,
        "captions_per_s": round(n / cold, 1),
        "resumed_report_s": resumed,
        "resumed_with_linguistic_s": linguistic,
        "index_html_mb": html_mb,
        "target_s": 120,
    }


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(run(*args), indent=2))
