"""What `cece detect` and `cece bench run` let a model judge see of a sample's image, through
the real CLI and a scripted OpenAI-compatible server: paths confined to the image root (default:
the samples file's folder; `..`, absolute paths and symlinks out are that sample's error and are
never sent), http(s) URLs refused unless `--allow-image-urls` (then only image files, no
credentials)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from fixtures import llm_server as llm  # noqa: E402  (tests/ is on sys.path under pytest)

from halcece import main


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """data/ (the samples' folder) with an image and a symlink out; an image outside; img/ apart."""
    data, outside, other = tmp_path / "data", tmp_path / "outside", tmp_path / "img"
    for d in (data, outside, other):
        d.mkdir()
    (data / "ok.png").write_bytes(llm.PNG)
    (outside / "secret.png").write_bytes(llm.PNG)
    (other / "there.png").write_bytes(llm.PNG)
    os.symlink(outside / "secret.png", data / "link.png")
    return tmp_path


def detect(samples: list[dict], folder: Path, server, *extra: str):
    src = folder / "data" / "samples.jsonl"
    src.write_text("".join(json.dumps({"caption": "A dog.", **s}) + "\n" for s in samples))
    out = folder / "out.jsonl"
    backend = json.dumps({"base_url": server.url, "model": "m", "max_workers": 1, "cache": None})
    r = CliRunner().invoke(
        main,
        [
            "detect",
            str(src),
            "-d",
            "vlm",
            "-o",
            str(out),
            "-q",
            "--option",
            f"vlm.backend={backend}",
            "--option",
            "vlm.use_references=false",
            *extra,
        ],
    )
    assert "Traceback" not in r.output, r.output
    return r, {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}


def sent(server) -> list[str]:
    return [url for body in server.bodies for url in llm.images_of(body)]


def test_image_paths_are_confined_to_the_samples_folder_by_default(tree: Path):
    escapes = {
        "dotdot": "../outside/secret.png",
        "absolute": str(tree / "outside" / "secret.png"),
        "symlink": "link.png",
        "passwd": "../../../../../../etc/passwd",
    }
    with llm.ScriptedServer(lambda body, n: '{"score": 100}') as server:
        r, rows = detect(
            [{"id": "ok", "image": "ok.png"}] + [{"id": k, "image": v} for k, v in escapes.items()], tree, server
        )
    assert r.exit_code == 2, r.output  # some lines have an error
    assert rows["ok"]["error"] is None and rows["ok"]["score"] == 0.0  # read from data/, not the cwd
    for key in escapes:
        assert "outside the image root" in rows[key]["error"] and rows[key]["score"] is None
    assert server.count == 1 and len(sent(server)) == 1  # nothing of the refused ones was sent
    assert sent(server)[0] == "data:image/png;base64," + __import__("base64").b64encode(llm.PNG).decode()


def test_an_explicit_image_root_replaces_the_default(tree: Path):
    with llm.ScriptedServer(lambda body, n: '{"score": 100}') as server:
        r, rows = detect(
            [
                {"id": "there", "image": "there.png"},
                {"id": "ok", "image": "ok.png"},
                {"id": "up", "image": "../data/ok.png"},
            ],
            tree,
            server,
            "--image-root",
            str(tree / "img"),
        )
    assert rows["there"]["error"] is None
    assert "outside the image root" in rows["up"]["error"]
    assert "cannot read image 'ok.png'" in rows["ok"]["error"]  # not looked for in data/ any more
    assert server.count == 1


URLS = {
    "page": "https://example.org/index.html",
    "image": "https://example.org/pics/dog.jpg?w=2",
    "creds": "http://ann:pw@example.org/dog.png",
    "local": "http://127.0.0.1:1/admin",
}


def test_image_urls_are_refused_unless_allowed(tree: Path):
    with llm.ScriptedServer(lambda body, n: '{"score": 100}') as server:
        r, rows = detect([{"id": k, "image": v} for k, v in URLS.items()], tree, server)
    assert r.exit_code == 2 and server.count == 0  # nothing went to the server
    for key in URLS:
        assert "is a web address" in rows[key]["error"] and "--allow-image-urls" in rows[key]["error"]
    assert "pw" not in rows["creds"]["error"]


def test_allowed_image_urls_go_to_the_server_only_when_they_name_images(tree: Path):
    with llm.ScriptedServer(lambda body, n: '{"score": 100}') as server:
        r, rows = detect([{"id": k, "image": v} for k, v in URLS.items()], tree, server, "--allow-image-urls")
    assert rows["image"]["error"] is None and sent(server) == [URLS["image"]]
    assert "does not name a PNG, JPEG, GIF, WebP or BMP file" in rows["page"]["error"]
    assert "does not name a PNG" in rows["local"]["error"]
    assert "carries credentials" in rows["creds"]["error"] and "pw" not in rows["creds"]["error"]
    assert server.count == 1


def test_the_url_policy_is_also_an_option(tree: Path):
    with llm.ScriptedServer(lambda body, n: '{"score": 100}') as server:
        r, rows = detect([{"id": "image", "image": URLS["image"]}], tree, server, "--option", "vlm.allow_urls=true")
    assert r.exit_code == 0, r.output
    assert sent(server) == [URLS["image"]]


def test_bench_run_confines_ensemble_members_to_images(tree: Path):
    """`cece bench run --images DIR` is the root of every judge, an ensemble's members included."""
    from detectors.configure import confine_images, create_detectors

    dets = create_detectors(["ensemble", "vlm"], ['ensemble.members=[{"name": "vlm"}, {"name": "lexical"}]'])
    confine_images(dets, tree / "img", override=True)
    assert dets["ensemble"].members[0].config.image_root == str(tree / "img")
    assert dets["vlm"].config.image_root == str(tree / "img")
    dets = create_detectors(["vlm"], [f"vlm.image_root={tree}"])
    confine_images(dets, tree / "data")  # the default does not replace an explicit option
    assert dets["vlm"].config.image_root == str(tree)
