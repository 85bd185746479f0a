"""Model solutions of the assignments of lesson 21 (the rules are in ``assignment_solutions``' docstring)."""

from solution_registry import solves


@solves("21-vital-strict",
        {"importance": ["vital", "vital", "okay", "vital"],
         "support": ["support", "support", "partial_support", "partial_support"]},
        {"importance": ["okay", "vital", "vital", "vital", "vital", "okay"],
         "support": ["support", "partial_support", "support", "support", "not_support", "support"]})
def solve_vital_strict(importance, support):
    # Only the vital nuggets count, and only full support earns a point.
    vital = [label for kind, label in zip(importance, support) if kind == "vital"]
    return sum(label == "support" for label in vital) / len(vital)


@solves("21-weighted",
        {"importance": ["vital", "okay"], "support": ["partial_support", "support"]},
        {"importance": ["vital", "okay", "okay", "okay"],
         "support": ["not_support", "support", "support", "partial_support"]})
def solve_weighted(importance, support):
    credit = {"support": 1.0, "partial_support": 0.5, "not_support": 0.0}
    weight = {"vital": 1.0, "okay": 0.5}
    # Each nugget's credit times its weight, over the sum of the weights.
    earned = sum(weight[kind] * credit[label] for kind, label in zip(importance, support))
    return earned / sum(weight[kind] for kind in importance)


@solves("21-citation-precision",
        {"claims": [["a"], ["b"], ["c"]], "citations": [["p1"], ["p1", "p2"], ["p3"]],
         "passages": {"p1": ["a"], "p2": ["b"], "p3": ["a"]}},
        {"claims": [["a", "b"], ["c"]], "citations": [["p1", "p2", "p3"], []],
         "passages": {"p1": ["a"], "p2": ["b"], "p3": ["a", "b"]}})
def solve_citation_precision(claims, citations, passages):
    def supports(cited, facts):
        return set(facts) <= {fact for passage in cited for fact in passages[passage]}

    precise = 0
    for facts, cited in zip(claims, citations):
        if cited and supports(cited, facts):
            # Irrelevant: it does not support the sentence alone, and the other citations do without it.
            precise += sum(supports([p], facts) or not supports([q for q in cited if q != p], facts) for p in cited)
    total = sum(len(cited) for cited in citations)
    return precise / total if total else 0.0


@solves("21-faithful-ceiling",
        {"nuggets": {"a": "vital", "b": "vital", "c": "okay"}, "context": {"p1": ["a"], "p2": ["c"]}},
        {"nuggets": {"a": "okay", "b": "vital", "c": "vital", "d": "vital", "e": "vital"},
         "context": {"p1": ["b"], "p2": ["a"]}})
def solve_faithful_ceiling(nuggets, context):
    # A faithful answer can support only the nuggets some passage of its context states.
    stated = {fact for facts in context.values() for fact in facts}
    vital = [nugget for nugget, kind in nuggets.items() if kind == "vital"]
    return sum(nugget in stated for nugget in vital) / len(vital)
