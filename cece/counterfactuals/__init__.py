"""The counterfactual caption: the minimal grammatical rewrite that makes a caption faithful.

- :mod:`cece.counterfactuals.rewrite`: which edits to apply and how (``rewrite``, ``Counterfactual``)
- :mod:`cece.counterfactuals.nouns`: a noun said as another, or with another count
- :mod:`cece.counterfactuals.tree`: cutting a noun phrase out of the dependency tree
- :mod:`cece.counterfactuals.verbs`: the verb agreeing with a subject whose number changed
- :mod:`cece.counterfactuals.words`: articles, number and agreement of the words put in
- :mod:`cece.counterfactuals.text`: applying character-level changes to the caption
- :mod:`cece.counterfactuals.grammar`: the grammar checks a rewrite must pass
- :mod:`cece.counterfactuals.fixed_point`: explaining each rewrite again against the same image
- :mod:`cece.counterfactuals.diff`: the word diff between a caption and its rewrite

(The package is plural so that it does not shadow :func:`cece.counterfactual`, the public function.)
"""
