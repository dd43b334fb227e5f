"""How good the counterfactuals are: rewritten share, fixed points, kept nouns and grammar.

Run over a benchmark's captions (references mode for HAT and nocaps-FOIL)::

    python -m benchmarks.counterfactual_quality hat data/hat-dev.json
    python -m benchmarks.counterfactual_quality foil data/nocaps-foil-dev.json --examples 10

Figures (each a share of the records named):

- ``rewritten``: records whose counterfactual differs from the caption (hallucinated ones only;
  ``clean_rewritten`` counts clean captions that were touched and must be 0);
- ``fixed_point``: rewritten records whose counterfactual, explained again against the same
  image, has no hallucinated edit;
- ``kept_nouns``: rewritten records where every caption noun that no hallucinated edit points
  at is still in the counterfactual (:func:`lost_nouns`);
- ``grammar_failures``: rewritten records whose counterfactual has a problem
  (:func:`grammar_problems`) the caption itself did not have.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from cece.explanation import Explanation

#: Tags of a finite verb.
FINITE = ("VBZ", "VBP", "VBD", "MD")
#: Prepositions that may stand without an object ("looking up", "a dog nearby").
PARTICLES = frozenset({"up", "down", "out", "off", "away", "together", "nearby", "outside", "inside", "around",
                       "behind", "along", "over", "back", "by", "on", "in", "above", "below", "underneath", "about"})


def grammar_problems(doc: Any) -> list[str]:
    """What a reader would call broken English in spaCy ``doc``: a sentence opening on a
    conjunction; one whose root is neither a finite verb (or a participle with its subject) nor
    a noun phrase; an auxiliary without its verb or with a bare one ("is hold"); a subject and
    verb that disagree; a finite adverbial verb without a subject ("while runs"); a preposition
    without its object; an article with no noun; a sentence ending on a determiner,
    preposition, conjunction or auxiliary.

    >>> from parsers import load_spacy
    >>> grammar_problems(load_spacy()("A woman is."))
    ["ends on 'is'"]
    >>> grammar_problems(load_spacy()("A woman holding a knife."))
    []
    """
    out = []
    for s in doc.sents:
        words = [t for t in s if not t.is_punct and not t.is_space]
        if not words:
            continue
        root = s.root
        if words[0].pos_ == "CCONJ":
            out.append(f"opens on {words[0].text!r}")
        if root.pos_ in ("VERB", "AUX"):
            finite = root.tag_ in FINITE or any(c.dep_ in ("aux", "auxpass") and c.tag_ in FINITE
                                                for c in root.children)
            subject = any(c.dep_.startswith("nsubj") or c.dep_ == "expl" for c in root.children)
            if not finite and not (subject and root.tag_ in ("VBG", "VBN")) and root.tag_ != "VB":
                out.append(f"no finite verb ({root.text!r})")
        elif root.pos_ not in ("NOUN", "PROPN", "PRON", "NUM", "ADJ"):
            out.append(f"root {root.text!r} is no verb or noun")
        for t in s:
            out += _token_problems(t)
        if re.search(r"\b(a|an|the)\W*$", s.text.lower()):  # spaCy reads "on a." as a noun "a."
            out.append("article without its noun")
        elif len(words) > 1 and words[-1].pos_ in ("DET", "ADP", "CCONJ", "AUX") and words[-1].lower_ not in PARTICLES:
            out.append(f"ends on {words[-1].text!r}")
    return out


def _token_problems(t: Any) -> list[str]:
    out = []
    if t.dep_ in ("aux", "auxpass") and (t.head.i == t.i or t.head.pos_ not in ("VERB", "AUX", "ADJ", "NOUN")):
        out.append(f"auxiliary {t.text!r} without its verb")
    if t.dep_ in ("aux", "auxpass") and t.lemma_ == "be" and t.head.tag_ == "VB":
        out.append(f"{t.text!r} with a bare verb {t.head.text!r}")
    if t.dep_ == "prep" and not any(c.dep_ in ("pobj", "pcomp") for c in t.children) and t.lower_ not in PARTICLES:
        out.append(f"preposition {t.text!r} without its object")
    if t.dep_.startswith("nsubj") and not any(c.dep_ == "conj" for c in t.children):
        v = next((c for c in t.head.children if c.dep_ in ("aux", "auxpass") and c.tag_ in ("VBZ", "VBP")), t.head)
        if (t.tag_, v.tag_) in (("NNS", "VBZ"), ("NN", "VBP")):
            out.append(f"agreement {t.text!r} {v.text!r}")
    if t.dep_ == "advcl" and t.tag_ in ("VBZ", "VBP", "VBD") and not any(
            c.dep_.startswith("nsubj") or c.dep_ == "expl" for c in t.children):
        out.append(f"finite verb {t.text!r} without a subject")
    if t.lower_ in ("a", "an") and (t.i + 1 >= len(t.doc) or t.doc[t.i + 1].is_punct):
        out.append(f"article {t.text!r} without its noun")
    return out


def new_grammar_problems(nlp: Any, caption: str, rewrite: str) -> list[str]:
    """The problems of ``rewrite`` that ``caption`` did not already have (a caption that was
    never a sentence is not the rewrite's fault)."""
    before = set(grammar_problems(nlp(caption)))
    return [p for p in grammar_problems(nlp(rewrite)) if p not in before]


def lost_nouns(e: Explanation, nlp: Any) -> list[str]:
    """Caption nouns that no hallucinated edit points at (by concept or by span) and that the
    counterfactual no longer says, as word or lemma."""
    if not e.counterfactual:
        return []
    touched = {x.source_index for x in e.edits if x.hallucinated and x.level == "object"}
    hit = [(a, b) for x in e.edits if x.hallucinated for a, b in x.spans]
    words = {w for t in nlp(e.counterfactual) for w in (t.lower_, t.lemma_.lower())}
    lost = []
    for k, c in enumerate(e.caption_graph.concepts):
        if k in touched or not c.spans or any(a < cb and ca < b for ca, cb in c.spans for a, b in hit):
            continue
        head = e.caption[slice(*c.spans[0])].split()[-1].lower() if e.caption[slice(*c.spans[0])].split() else ""
        if head and head not in words and c.lemma.split()[-1].lower() not in words:
            lost.append(head)
    return lost


@dataclass
class Quality:
    """Counts over one run (module docstring); ``examples`` are before/after pairs."""

    records: int = 0
    hallucinated: int = 0
    rewritten: int = 0
    clean_rewritten: int = 0
    null: int = 0
    fixed_point: int = 0
    kept_nouns: int = 0
    grammar_failures: int = 0
    errors: int = 0
    examples: list[dict[str, Any]] = field(default_factory=list)
    failures: list[dict[str, Any]] = field(default_factory=list)

    def shares(self) -> dict[str, float]:
        n = max(self.rewritten, 1)
        return {"rewritten": self.rewritten / max(self.hallucinated, 1), "fixed_point": self.fixed_point / n,
                "kept_nouns": self.kept_nouns / n, "grammar_ok": 1 - self.grammar_failures / n}


def counterfactual_quality(results: Iterable[Any], nlp: Any, examples: int = 10) -> Quality:
    """Tally :class:`Quality` over explanations (error rows are counted, not scored)."""
    q = Quality()
    for e in results:
        q.records += 1
        if not isinstance(e, Explanation):
            q.errors += 1
            continue
        q.hallucinated += e.hallucinated
        if e.counterfactual is None:
            q.null += 1
            continue
        if e.counterfactual == e.caption:
            continue
        if not e.hallucinated:
            q.clean_rewritten += 1
        q.rewritten += 1
        q.fixed_point += bool(e.fixed_point)
        lost = lost_nouns(e, nlp)
        q.kept_nouns += not lost
        broken = new_grammar_problems(nlp, e.caption, e.counterfactual)
        q.grammar_failures += bool(broken)
        row = {"id": e.id, "caption": e.caption, "counterfactual": e.counterfactual, "fixed_point": e.fixed_point}
        if lost or broken or not e.fixed_point:
            q.failures.append({**row, "lost": lost, "grammar": broken})
        elif len(q.examples) < examples:
            q.examples.append(row)
    return q


def main(argv: list[str] | None = None) -> int:
    from benchmarks.loaders import BENCHMARKS
    from cece.api import Explainer

    ap = argparse.ArgumentParser(prog="python -m benchmarks.counterfactual_quality", description=__doc__.split("\n")[0])
    ap.add_argument("benchmark", choices=sorted(BENCHMARKS))
    ap.add_argument("data", help="the benchmark's data file")
    ap.add_argument("--examples", type=int, default=10, help="good before/after pairs to print")
    ap.add_argument("--failures", action="store_true", help="print every failing rewrite")
    ap.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = ap.parse_args(argv)
    samples, _ = BENCHMARKS[args.benchmark].load(args.data)
    ex = Explainer()
    q = counterfactual_quality(ex.explain_many(samples), ex.parser.nlp, args.examples)
    if args.json:
        print(json.dumps({**asdict(q), "shares": q.shares()}, indent=1))
        return 0
    s = q.shares()
    print(f"{args.benchmark}: {q.records} records, {q.hallucinated} hallucinated, {q.rewritten} rewritten "
          f"({s['rewritten']:.1%}), {q.null} null, clean rewritten {q.clean_rewritten}; "
          f"fixed points {s['fixed_point']:.1%}, kept nouns {s['kept_nouns']:.1%}, "
          f"grammar failures {q.grammar_failures}, errors {q.errors}")
    for row in q.examples:
        print(f"  {row['caption']!r}\n   -> {row['counterfactual']!r}")
    if args.failures:
        for row in q.failures:
            print(f"  FAIL {row['id']}: {row['caption']!r}\n   -> {row['counterfactual']!r} "
                  f"fixed={row['fixed_point']} lost={row['lost']} grammar={row['grammar']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
