"""What a statement says and what a passage says, as sets of facts: the stand-in for an entailment model. Lesson 21.

Citation support and faithfulness ask whether some passages *support* a
statement. Their authors ask an NLI model (ALCE used TRUE, a T5 model
trained for entailment) or an LLM. The course replaces that model by a rule
a learner can check by eye: a statement is a set of facts (the nuggets it
states, or facts of its own), a passage is the set of facts it states, and
passages support a statement when together they state every one of its
facts. Two passages can then support a statement that neither supports alone,
as an entailment model can find.
"""

from ...i18n import gettext
from ...core.validation import shown


def check_claims(name, claims):
    """``claims`` as a tuple of tuples of fact ids (str), one per statement, each with at least one fact."""
    example = "[['n1'], ['n2', 'n3']]"
    if isinstance(claims, (str, bytes)) or not hasattr(claims, "__iter__") or hasattr(claims, "keys"):
        raise TypeError(gettext("{name} must be a list with one list of facts per statement, e.g. {example}. Got {got} "
                                "instead.").format(name=name, example=example, got=shown(claims)))
    found = tuple(_facts(name, claim, example) for claim in claims)
    if not found or not all(found):
        raise ValueError(gettext("{name} must hold at least one statement, each stating at least one fact, e.g. "
                                 "{example}. Got {got} instead.").format(name=name, example=example, got=shown(claims)))
    return found


def check_passages(name, passages):
    """``passages`` (``{passage id: facts}``) as a dict of str to frozenset of fact ids."""
    if not hasattr(passages, "items"):
        raise TypeError(gettext("{name} must map each passage id to the facts it states, e.g. {{'p1': ['n1', 'n2']}}. "
                                "Got {got} instead.").format(name=name, got=shown(passages)))
    return {str(passage): frozenset(_facts(name, facts, "{'p1': ['n1', 'n2']}")) for passage, facts in passages.items()}


def _facts(name, facts, example):
    if isinstance(facts, (str, bytes)) or not hasattr(facts, "__iter__") or hasattr(facts, "keys"):
        raise TypeError(gettext("{name} must give facts as lists of fact ids, e.g. {example}. Got {got} instead.")
                        .format(name=name, example=example, got=shown(facts)))
    facts = tuple(facts)
    if not all(isinstance(fact, str) and fact for fact in facts):
        raise TypeError(gettext("{name} must give facts as non-empty strings, e.g. {example}. Got {got} instead.")
                        .format(name=name, example=example, got=shown(facts)))
    return facts


def supported(claim, passages):
    """True when the passages (fact sets) together state every fact of ``claim``.

    Examples
    --------
    >>> supported(("n1", "n2"), [frozenset({"n1"}), frozenset({"n2", "n5"})])  # jointly
    True
    >>> supported(("n1", "n2"), [frozenset({"n1"})])
    False
    """
    stated = frozenset().union(*passages)
    return set(claim) <= stated
