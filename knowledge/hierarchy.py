"""A compact index of the WordNet noun + verb hypernym hierarchy, cached as JSON.

Hot loops (cost matrices over thousands of caption/image concept pairs) must never touch NLTK
objects, so everything they need is flattened here into plain lists, dicts and numpy arrays:
synset names and ids, parents (hypernyms *and* instance hypernyms, as NLTK's path functions
use), min/max depth, the lemma -> synsets index in WordNet sense order and the noun/verb
morphological exception lists. It is built once from :func:`knowledge.provision.load_wordnet`
and cached in ``cache_dir()/wordnet-index-v2.json``.

The cache folder is user-writable, so the cache is plain data, never code: a JSON header line
(``key``: what it was built from, ``sha256``: of the body) and a JSON body. Reading it can only
give a :class:`Hierarchy` that passes its shape checks or ``None``; a stale, truncated, corrupt
or tampered file (a pickle put in its place included) is rebuilt, never executed (nor the v1 pickle).

>>> h = get_hierarchy()
>>> h.names[h.ids["dog.n.01"]]
'dog.n.01'
>>> sorted(h.names[p] for p in h.parents(h.ids["dog.n.01"]))
['canine.n.02', 'domestic_animal.n.01']
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import tempfile
import threading
import warnings
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from knowledge.having_index import build_having
from knowledge.operator_index import build_operators
from knowledge.provision import (
    WordNetMissingError,
    WordNetSource,
    cache_dir,
    find_wordnet,
    load_wordnet,
    missing_message,
)
from knowledge.sex_index import build_sexes
from knowledge.young_index import build_young

__all__ = ["Hierarchy", "build_hierarchy", "get_hierarchy", "index_path"]

FORMAT_VERSION = 2
INDEX_FILENAME = f"wordnet-index-v{FORMAT_VERSION}.json"
_MAX_HEADER = 1 << 16  # the header line holds a key and a hash: a longer one is not ours
# Bumped whenever the Hierarchy fields change; part of the cache key, so old files rebuild.
_SCHEMA = 13
# Files whose size and mtime enter the cache key: a changed database rebuilds the index.
_KEY_FILES = ("data.noun", "data.verb", "index.noun", "index.verb", "noun.exc", "verb.exc")


@dataclass
class Hierarchy:
    """The noun + verb WordNet hierarchy as flat arrays (ids index ``names``).

    ``parents_of[i]`` holds the ids of synset ``i``'s hypernyms and instance hypernyms, of a young
    animal filed by age alone its gloss's animal (:mod:`knowledge.young_index`), of a machine's
    operator the person (:mod:`knowledge.operator_index`): sorted tuples, faster than numpy slices.
    ``min_depth``, ``max_depth``: NLTK's ``Synset.min_depth()``/``max_depth()`` over those parents.
    Lemma keys are lowercase with underscores, as WordNet stores them; ids in WordNet sense order.

    >>> h = get_hierarchy()
    >>> int(h.min_depth[h.ids["entity.n.01"]]), bool(h.is_verb[h.ids["sit.v.01"]])
    (0, True)
    """

    names: list[str]
    ids: dict[str, int]
    parents_of: tuple[tuple[int, ...], ...]
    min_depth: np.ndarray
    max_depth: np.ndarray
    is_verb: np.ndarray
    noun_lemmas: dict[str, list[int]]
    verb_lemmas: dict[str, list[int]]
    noun_exceptions: dict[str, list[str]]
    verb_exceptions: dict[str, list[str]]
    source: str = ""
    version: str = ""
    # Per noun lemma, how often each of its senses (in ``noun_lemmas`` order) is tagged in SemCor
    # (WordNet's index.sense); lemmas never tagged left out; empty without index.sense.
    noun_sense_counts: dict[str, list[int]] = field(default_factory=dict)
    # Per verb lemma, how often its senses together are tagged in SemCor (lemmas never tagged
    # left out; empty without index.sense): whether "clings" is more often a verb than a noun.
    verb_counts: dict[str, int] = field(default_factory=dict)
    # WordNet's lexicographer file of each synset ("noun.artifact", "noun.body"...): an index into ``lexnames``.
    lexname_of: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int8))
    lexnames: list[str] = field(default_factory=list)
    # Lemmas WordNet also lists as adjectives ("round", "young"): a modifier may be one, not a noun of its own.
    adjective_lemmas: frozenset[str] = frozenset()
    # Per synset, whether it is a verb every sentence frame of which has a person doing it
    # ("Somebody ----s something": wear, smile), none a thing ("Something ----s": sit, hang).
    somebody_only: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    # Per noun synset that WordNet files as a part of others, their names ("trunk.n.01": the tree).
    part_of: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Per adjective, the nouns whose thing it says is there ("grassy": grass; knowledge.having).
    having: dict[str, tuple[str, ...]] = field(default_factory=dict)
    sexes: dict[str, str] = field(default_factory=dict)  # a person's sex by its gloss (knowledge.sex_index)
    # Noun synsets WordNet files as instances, not kinds: a particular place, person or ship.
    instances: frozenset[str] = frozenset()

    def __len__(self) -> int:
        return len(self.names)

    def parents(self, i: int) -> tuple[int, ...]:
        """Ids of the hypernyms and instance hypernyms of synset ``i``."""
        return self.parents_of[i]

    def lemmas(self, pos: str) -> dict[str, list[int]]:
        """The lemma -> synset ids index for ``pos`` ("n" or "v")."""
        return self.verb_lemmas if pos == "v" else self.noun_lemmas

    def exceptions(self, pos: str) -> dict[str, list[str]]:
        """The morphological exception list for ``pos`` ("n" or "v")."""
        return self.verb_exceptions if pos == "v" else self.noun_exceptions

    def to_state(self) -> dict[str, Any]:
        """The fields as JSON-ready data (``ids`` left out: it is ``names`` inverted)."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, np.ndarray):
                value = value.tolist()
            elif isinstance(value, (tuple, frozenset)):
                value = sorted(value) if isinstance(value, frozenset) else [list(v) for v in value]
            if f.name != "ids":
                out[f.name] = value
        return out

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Hierarchy:
        """The inverse of :meth:`to_state`; a ValueError (or TypeError) when ``state`` does not
        have the shape of an index: wrong types, lengths, or synset ids out of range."""
        names = state["names"]
        n = len(names)
        if not (isinstance(names, list) and all(isinstance(x, str) for x in names)):
            raise ValueError("names: expected a list of strings")
        parents = state["parents_of"]
        lemma_maps = [state[k] for k in ("noun_lemmas", "verb_lemmas", "noun_sense_counts")]
        if len(parents) != n or not all(isinstance(m, dict) for m in lemma_maps):
            raise ValueError("parents_of / lemma indexes: wrong shape")
        flat = [i for ps in parents for i in ps] + [i for m in lemma_maps[:2] for ids in m.values() for i in ids]
        if flat and not (all(type(i) is int for i in flat) and min(flat) >= 0 and max(flat) < n):
            raise ValueError("synset ids out of range")
        arrays = {
            k: np.asarray(state[k], dtype=t)
            for k, t in (
                ("min_depth", np.int32),
                ("max_depth", np.int32),
                ("is_verb", bool),
                ("lexname_of", np.int8),
                ("somebody_only", bool),
            )
        }
        if any(a.shape != (n,) for a in arrays.values()):
            raise ValueError("per-synset arrays: wrong length")
        lexnames = list(state["lexnames"])
        if n and not 0 <= int(arrays["lexname_of"].min()) <= int(arrays["lexname_of"].max()) < len(lexnames):
            raise ValueError("lexname_of out of range")
        return cls(
            names=names,
            ids={x: i for i, x in enumerate(names)},
            parents_of=tuple(tuple(ps) for ps in parents),
            **arrays,
            noun_lemmas=lemma_maps[0],
            verb_lemmas=lemma_maps[1],
            noun_exceptions=dict(state["noun_exceptions"]),
            verb_exceptions=dict(state["verb_exceptions"]),
            source=str(state["source"]),
            version=str(state["version"]),
            noun_sense_counts=lemma_maps[2],
            verb_counts={str(k): int(v) for k, v in dict(state["verb_counts"]).items()},
            lexnames=lexnames,
            adjective_lemmas=frozenset(state["adjective_lemmas"]),
            part_of={str(k): tuple(str(x) for x in v) for k, v in dict(state["part_of"]).items()},
            having={str(k): tuple(str(x) for x in v) for k, v in dict(state["having"]).items()},
            sexes={str(k): str(v) for k, v in dict(state["sexes"]).items()},
            instances=frozenset(str(x) for x in state["instances"]),
        )


def _depths(parents: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Min and max hypernym-path length to a root, as NLTK's recursive definitions."""
    n = len(parents)
    lo = np.full(n, -1, dtype=np.int32)
    hi = np.full(n, -1, dtype=np.int32)
    on_path = np.zeros(n, dtype=bool)
    for start in range(n):
        if lo[start] >= 0:
            continue
        # Iterative post-order DFS: a node's depths are known once all its parents' are.
        stack = [start]
        while stack:
            node = stack[-1]
            pending = [p for p in parents[node] if lo[p] < 0]
            if pending and not on_path[node]:
                on_path[node] = True
                for p in pending:
                    if on_path[p]:  # NLTK refuses cyclic hierarchies too
                        raise ValueError(f"hypernym cycle through synset id {p}")
                    stack.append(p)
                continue
            stack.pop()
            on_path[node] = False
            if lo[node] >= 0:
                continue
            ps = parents[node]
            lo[node] = 1 + min(lo[p] for p in ps) if ps else 0
            hi[node] = 1 + max(hi[p] for p in ps) if ps else 0
    return lo, hi


def build_hierarchy(reader: Any = None, source: str = "") -> Hierarchy:
    """Build the index from an NLTK WordNet reader (default :func:`load_wordnet`). Slow (~10 s)."""
    reader = reader if reader is not None else load_wordnet()
    synsets = list(reader.all_synsets("n")) + list(reader.all_synsets("v"))
    names = [s.name() for s in synsets]
    ids = {name: i for i, name in enumerate(names)}
    by_offset = {(s.pos(), s.offset()): i for i, s in enumerate(synsets)}
    # Sorted: NLTK keeps pointers in sets, whose order changes with the hash seed (no distance
    # depends on it). Second parents: the young's animal, the operator's person.
    more = {ids[k]: ids[v] for k, v in {**build_young(reader), **build_operators(reader)}.items()}
    hypernyms = [{ids[h.name()] for h in s.hypernyms() + s.instance_hypernyms()} for s in synsets]
    parents = [sorted(hs | ({more[i]} if i in more else set())) for i, hs in enumerate(hypernyms)]
    lo, hi = _depths(parents)

    # NLTK keeps lemma -> pos -> [offsets] (sense order) privately; it is the index files' data.
    lemma_map = reader._lemma_pos_offset_map
    lemmas: dict[str, dict[str, list[int]]] = {"n": {}, "v": {}}
    for lemma in sorted(lemma_map):
        for pos, offsets in lemma_map[lemma].items():
            if pos in lemmas:
                lemmas[pos][lemma] = [by_offset[(pos, off)] for off in offsets]
    exc = reader._exception_map
    lexnames = sorted({s.lexname() for s in synsets})
    lex_index = {name: k for k, name in enumerate(lexnames)}
    counts, verb_counts = _sense_counts(reader)
    noun_counts = {}
    for lemma, ids_ in lemmas["n"].items():
        row = [counts.get((lemma, synsets[i].offset()), 0) for i in ids_]
        if any(row):
            noun_counts[lemma] = row
    return Hierarchy(
        names=names,
        ids=ids,
        parents_of=tuple(tuple(ps) for ps in parents),
        min_depth=lo,
        max_depth=hi,
        is_verb=np.array([s.pos() == "v" for s in synsets], dtype=bool),
        noun_lemmas=lemmas["n"],
        verb_lemmas=lemmas["v"],
        noun_exceptions={k: list(v) for k, v in sorted(exc["n"].items())},
        verb_exceptions={k: list(v) for k, v in sorted(exc["v"].items())},
        source=source,
        version=str(reader.get_version()),
        noun_sense_counts=noun_counts,
        verb_counts=verb_counts,
        lexname_of=np.array([lex_index[s.lexname()] for s in synsets], dtype=np.int8),
        lexnames=lexnames,
        adjective_lemmas=frozenset(k for k, v in lemma_map.items() if "a" in v or "s" in v),
        somebody_only=np.array([_somebody_only(s) for s in synsets], dtype=bool),
        part_of={s.name(): tuple(sorted(h.name() for h in s.part_holonyms())) for s in synsets if s.part_holonyms()},
        having=build_having(reader),
        sexes=build_sexes(reader),
        instances=frozenset(s.name() for s in synsets if s.instance_hypernyms() and not s.hypernyms()),
    )


#: WordNet's verb frames whose subject is "Something" or "It" (NLTK's VERB_FRAME_STRINGS); the rest "Somebody".
_THING_FRAMES = frozenset((1, 3, 4, 5, 6, 10, 11, 12, 34, 35))


def _somebody_only(synset: Any) -> bool:
    """Whether ``synset`` is a verb with frames, all of them with "Somebody" as the subject."""
    if synset.pos() != "v":
        return False
    frames = set(synset.frame_ids())
    return bool(frames) and not frames & _THING_FRAMES


def _sense_counts(reader: Any) -> tuple[dict[tuple[str, int], int], dict[str, int]]:
    """``(lemma, synset offset) -> tag count`` of noun senses, and ``lemma -> tag count`` of verbs
    (summed over their senses), from index.sense (lines ``lemma%pos:lexfile:lexid:: offset
    sense_number tag_count``, pos 1 a noun, 2 a verb); both empty when the file is absent."""
    nouns: dict[tuple[str, int], int] = {}
    verbs: dict[str, int] = {}
    try:
        fh = reader.open("index.sense")
    except Exception:  # optional file (wordnet-sense-index): no counts, no filtering by them
        return nouns, verbs
    with fh:
        for line in fh:
            parts = line.split()
            if len(parts) < 4 or not int(parts[3]):
                continue
            lemma, _, key = parts[0].partition("%")
            lemma = lemma.lower()
            if key.startswith("1:"):
                nouns[(lemma, int(parts[1]))] = int(parts[3])
            elif key.startswith("2:"):
                verbs[lemma] = verbs.get(lemma, 0) + int(parts[3])
    return nouns, verbs


def index_path() -> Path:
    """Where the cached index lives: ``cache_dir()/wordnet-index-v2.json``."""
    return cache_dir() / INDEX_FILENAME


def source_key(src: WordNetSource) -> str:
    """Cache key of a WordNet source: kind, path, and size/mtime of its main files."""
    assert src.path is not None
    files = [src.path] if src.path.is_file() else [src.path / f for f in _KEY_FILES]
    stamps = []
    for f in files:
        st = f.stat()
        stamps.append(f"{f.name}:{st.st_size}:{st.st_mtime_ns}")
    return f"v{FORMAT_VERSION}.{_SCHEMA}|{src.source}|{src.path.resolve()}|" + ",".join(stamps)


def _read_index(path: Path, key: str) -> Hierarchy | None:
    """The index cached at ``path`` for ``key``, or None when the file is missing, stale (another
    key), corrupt (its body's SHA-256 is not the header's) or not an index at all."""
    # ~300k small containers trigger full GC passes that triple the load time; nothing is cyclic.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        with open(path, "rb") as fh:
            # The header comes first, so a stale index is rejected without reading it all.
            header = json.loads(fh.readline(_MAX_HEADER))
            if not isinstance(header, dict) or header.get("key") != key:
                return None
            body = fh.read()
        if hashlib.sha256(body).hexdigest() != header.get("sha256"):
            return None
        return Hierarchy.from_state(json.loads(body))
    except FileNotFoundError:
        return None
    except Exception:  # truncated, old-format or foreign file: rebuild rather than fail
        return None
    finally:
        if was_enabled:
            gc.enable()


def _write_index(path: Path, key: str, h: Hierarchy) -> None:
    body = json.dumps(h.to_state(), ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    header = json.dumps({"key": key, "sha256": hashlib.sha256(body).hexdigest(), "format": FORMAT_VERSION})
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(header.encode("utf-8") + b"\n" + body)
            os.chmod(tmp, 0o644)
            os.replace(tmp, path)  # atomic: readers see the old index or the new, never half
        finally:
            Path(tmp).unlink(missing_ok=True)
    except OSError as exc:  # read-only cache: keep working from memory, rebuild next time
        warnings.warn(f"halcece: could not write WordNet index {path}: {exc}", stacklevel=3)


_lock = threading.Lock()
_singleton: Hierarchy | None = None


def get_hierarchy() -> Hierarchy:
    """The process-wide index: loaded from the cache, or built and cached once.

    Fixed for the life of the process (the distance caches hold its ids).

    >>> get_hierarchy() is get_hierarchy()
    True
    """
    global _singleton
    if _singleton is not None:
        return _singleton
    with _lock:
        if _singleton is not None:
            return _singleton
        src = find_wordnet()
        if not src.ok:
            raise WordNetMissingError(missing_message(src))
        key, path = source_key(src), index_path()
        h = _read_index(path, key)
        if h is None:
            h = build_hierarchy(load_wordnet(), source=key)
            _write_index(path, key, h)
        _singleton = h
        return h
