"""Tests of ndcg_teach.exercises: right answers pass, slips get their hint, no hint gives the answer away."""

import copy
import inspect
import itertools
import math
import types
from fractions import Fraction

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach.exercises import EXERCISES, Exercise, Feedback, check, inputs
from ndcg_teach.exercises.framework import _number_judge
from ndcg_teach.statistics import significance
from ndcg_teach.statistics.significance import paired_t_test, wilcoxon_test
from exercise_answers import ANSWERS, SLIPS

NUMBER = [key for key, exercise in EXERCISES.items() if exercise.kind == "number"]


def test_every_exercise_has_a_right_answer_here():
    assert set(ANSWERS) == set(EXERCISES)


@pytest.mark.parametrize("key", list(EXERCISES))
def test_right_answer_is_right(key):
    feedback = check(key, ANSWERS[key])
    assert feedback.correct is True
    assert bool(feedback)
    assert feedback.message.startswith(f"{key}: right.")


@pytest.mark.parametrize("key", NUMBER)
def test_numbers_rounded_to_three_decimals_are_right(key):
    assert check(key, round(ANSWERS[key], 3))


@pytest.mark.parametrize("key", NUMBER)
def test_numbers_wrong_by_a_little_more_than_rounding_are_wrong(key):
    assert not check(key, ANSWERS[key] + 0.002)


@pytest.mark.parametrize("key", list(EXERCISES))
@pytest.mark.parametrize("placeholder", [..., None])
def test_placeholder_means_not_answered(key, placeholder):
    feedback = check(key, placeholder)
    assert feedback.correct is None
    assert not feedback
    assert feedback.message == f"{key}: no answer yet. Replace ... with your answer and run the cell again."


def wrong_answers(key):
    """Wrong answers of every kind the judge knows: its listed slips, plus a few far-off values."""
    exercise = EXERCISES[key]
    if exercise.kind == "number":
        right = ANSWERS[key]
        return [right + 1, right - 0.37, right * 3 + 0.5, -1, 0.123456]
    if exercise.kind == "choice":
        return ["zzz", 3]
    if exercise.kind == "set":
        return [{2, 3}, {0}, "0, 1", [0, "1"]]
    return [["A"], "ABCDEF", ["F", "E", "D", "C", "B", "A"], ["A", "D", "E", "B", "C", "F"]]


def spellings(value):
    """How a number might appear in a message: rounded to 2, 3 and 4 decimals and in full."""
    return {f"{value:.2f}", f"{value:.3f}", f"{value:.4f}", repr(float(value))}


@pytest.mark.parametrize("key", [key for key in NUMBER if abs(ANSWERS[key]) >= 0.01 and ANSWERS[key] % 1])
def test_hints_never_contain_the_answer(key):
    for answer in wrong_answers(key):
        feedback = check(key, answer)
        assert feedback.correct is False
        for spelling in spellings(ANSWERS[key]):
            assert spelling not in feedback.message, (answer, feedback.message)


@pytest.mark.parametrize("key", list(EXERCISES))
def test_wrong_answers_get_a_hint(key):
    for answer in wrong_answers(key):
        feedback = check(key, answer)
        assert feedback.correct is False
        assert feedback.message.startswith(f"{key}: not yet. ")
        assert len(feedback.message) > len(f"{key}: not yet. ") + 10




@pytest.mark.parametrize("key, answer, hint", SLIPS)
def test_common_slips_get_their_own_hint(key, answer, hint):
    feedback = check(key, answer)
    assert feedback.correct is False
    assert hint in feedback.message


@pytest.mark.parametrize("key, answer, hint", [slip for slip in SLIPS if EXERCISES[slip[0]].kind == "number"])
def test_slips_are_far_enough_from_the_answer_to_be_told_apart(key, answer, hint):
    assert abs(answer - ANSWERS[key]) > 1e-3


def test_close_answers_are_told_to_keep_three_decimals():
    assert "three decimals" in check("03-ndcg", round(ANSWERS["03-ndcg"], 2)).message


def test_numbers_of_every_numeric_type_are_accepted():
    value = ANSWERS["05-ap"]
    assert check("05-ap", np.float64(value))
    assert check("01-cg", np.int64(6))
    assert check("01-cg", 6)


@pytest.mark.parametrize("answer", ["0.72", True, float("nan"), [0.72], 10 ** 400, -(10 ** 400), float("inf")])
def test_a_number_exercise_explains_what_kind_of_answer_it_wants(answer):
    feedback = check("05-ap", answer)
    assert feedback.correct is False
    assert "This exercise wants a number, such as 0.5. Got " in feedback.message
    assert "instead." in feedback.message


def test_a_number_beyond_float64_is_judged_with_feedback_that_quotes_it_briefly():
    feedback = check("05-ap", 10 ** 400)
    assert feedback.correct is False
    assert feedback.message.startswith("05-ap: not yet. This exercise wants a number, such as 0.5. Got 1000")
    assert feedback.message.endswith(" ...] (int) instead.") and len(feedback.message) < 200
    assert "This exercise wants a number" in check("05-ap", Fraction(10 ** 400, 3)).message
    members = check("02-gains-agree", {0, 1, 10 ** 400})
    assert members.correct is False and "Every member must be a number." in members.message


def test_an_exercise_that_wants_a_whole_number_shows_a_whole_number():
    feedback = check("03-worst-k", "2")
    assert "This exercise wants a number, such as 2. Got '2' (str) instead." in feedback.message


def test_no_two_number_exercises_of_a_lesson_share_an_answer():
    # Lesson 03's exercises 2 and 3 both came to 0.525, and learners took the repeat for a slip of their own.
    from ndcg_teach.exercises import EXERCISES

    by_lesson = {}
    for key, value in ANSWERS.items():
        if isinstance(value, float):
            by_lesson.setdefault(EXERCISES[key].lesson, []).append((key, round(value, 3)))
    for lesson, answers in by_lesson.items():
        rounded = [value for _, value in answers]
        assert len(set(rounded)) == len(rounded), (lesson, answers)


def test_choices_ignore_case_and_spaces():
    assert check("01-cg-order", "  Same ")


def test_a_choice_outside_the_options_lists_them():
    message = check("01-cg-order", "bigger").message
    assert "Answer with one of 'up' / 'down' / 'same'. Got 'bigger' (str) instead." in message


def test_sets_say_whether_grades_are_missing_or_extra():
    assert "Some grades are missing." in check("02-gains-agree", {0}).message
    assert "does not belong" in check("02-gains-agree", {0, 1, 2}).message
    assert check("02-gains-agree", [1, 0])


def test_orders_report_the_learners_own_numbers_and_what_the_challenge_wants():
    message = check("06-high-ndcg-low-precision", ["A", "D", "E", "B", "C", "F"]).message
    ndcg3 = nt.ndcg([4, 0, 0, 1, 1, 0], k=3, gain="exponential")
    assert f"NDCG@3 = {ndcg3:.4f}" in message
    assert "the challenge wants NDCG@3 above 0.95." in message


def test_orders_must_use_every_item_once():
    message = check("06-full-precision-low-ndcg", ["A", "A", "B", "C", "D", "E"]).message
    assert "Use each of ['A', 'B', 'C', 'D', 'E', 'F'] exactly once." in message


def test_an_order_can_come_from_anything_with_an_order_attribute():
    class Explorer:
        order = ["B", "C", "A", "D", "E", "F"]

    assert check("06-full-precision-low-ndcg", Explorer())


def test_unknown_exercise_is_an_error_that_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"exercise must be one of '00-warm-up', .* Got '99-nope' instead\."):
        check("99-nope", 1)


def test_feedback_is_immutable_and_shows_its_message():
    feedback = check("01-cg", 6)
    assert isinstance(feedback, Feedback)
    assert repr(feedback) == str(feedback) == feedback.message
    with pytest.raises(AttributeError):
        feedback.correct = False


def test_each_lesson_module_holds_its_own_exercises_once():
    from ndcg_teach.exercises import _LESSONS

    defined = [exercise.key for lesson in _LESSONS for exercise in lesson.LESSON_EXERCISES]
    assert defined == list(EXERCISES), "a key defined twice would silently hide an exercise"
    for lesson in _LESSONS:
        number = lesson.__name__.rsplit("_", 1)[-1]
        assert lesson.LESSON.startswith(number)
        assert all(exercise.lesson == lesson.LESSON for exercise in lesson.LESSON_EXERCISES)


def test_each_exercise_names_an_existing_lesson_stem():
    for key, exercise in EXERCISES.items():
        assert key[:2] == exercise.lesson[:2]
        assert exercise.kind in {"number", "choice", "set", "order"}


# Inputs: what each exercise is about, named as the library's parameters, and the one source of its answer.


def _changed(new, old):
    return "same" if math.isclose(new, old) else ("up" if new > old else "down")


def _changed_by(relevances, bases):
    changed = [
        name
        for name, metric in (("dcg", nt.dcg), ("ndcg", nt.ndcg))
        if not math.isclose(metric(relevances, log_base=bases[0]), metric(relevances, log_base=bases[1]))
    ]
    return changed[0] if len(changed) == 1 else {0: "neither", 2: "both"}[len(changed)]


def _playground_order(i, holds):
    """The first order of the playground's items for which ``holds(ndcg, precision)``."""
    for order in itertools.permutations(sorted(i["relevance"])):
        relevances = nt.relevances_from(list(order), i["relevance"])
        if holds(nt.ndcg(relevances, k=i["k"], gain=i["gain"]), nt.precision_at_k(relevances, k=i["k"])):
            return list(order)
    raise AssertionError("no order meets the challenge")


def _mean_if_fixed(i):
    """Lesson 20: the run's mean nDCG@k with query qid's retrieved documents sorted by grade, best first."""
    grades = i["qrels"][i["qid"]]
    order = sorted(i["run"][i["qid"]], key=lambda doc: -grades.get(doc, 0))
    fixed = {**i["run"], i["qid"]: {doc: -position for position, doc in enumerate(order)}}
    return nt.evaluate(i["qrels"], fixed, [f"ndcg_cut.{i['k']}"]).means[f"ndcg_cut_{i['k']}"]


def _best_precision_from_recall(curve, level):
    """Interpolated precision at ``level`` read off the curve's rows, as lesson 10's solution does."""
    return max(p for p, r in zip(curve.precision, curve.recall) if r >= level)


def _which_prefers_many(i):
    """Which of ERR and RBP score the many fair results above the one great result."""
    err = nt.expected_reciprocal_rank(i["many_fair"], max_grade=i["max_grade"]) > nt.expected_reciprocal_rank(
        i["one_great"], max_grade=i["max_grade"]
    )
    rbp = nt.rank_biased_precision(i["many_fair"], p=i["p"]) > nt.rank_biased_precision(i["one_great"], p=i["p"])
    return {(True, True): "both", (True, False): "err", (False, True): "rbp", (False, False): "neither"}[(err, rbp)]


SOLUTIONS = {
    "00-warm-up": lambda i: "a" if nt.dcg(i["system_a"]) > nt.dcg(i["system_b"]) else "b",
    "01-cg": lambda i: nt.cg(**i),
    "01-cg-at-k": lambda i: nt.cg(**i),
    "01-cg-order": lambda i: _changed(nt.cg(i["relevances"][::-1], k=i["k"]), nt.cg(**i)),
    "02-dcg-linear": lambda i: nt.dcg(**i),
    "02-dcg-exponential": lambda i: nt.dcg(**i),
    "02-jarvelin": lambda i: nt.dcg(**i),
    "02-gains-agree": lambda i: {
        linear.grade
        for linear, exponential in zip(nt.explain_dcg(**i).rows, nt.explain_dcg(**i, gain="exponential").rows)
        if linear.gain == exponential.gain
    },
    "02-log-base": lambda i: _changed_by(i["relevances"], i["log_bases"]),
    "03-idcg": lambda i: nt.idcg(**i),
    "03-ndcg": lambda i: nt.ndcg(**i),
    "03-pool": lambda i: nt.ndcg(**i),
    "03-worst-k": lambda i: min(range(1, len(i["relevances"]) + 1), key=lambda k: nt.ndcg(i["relevances"], k=k)),
    "04-precision": lambda i: nt.precision_at_k(**i),
    "04-recall": lambda i: nt.recall_at_k(**i),
    "04-threshold": lambda i: nt.precision_at_k(**i),
    "04-short-list": lambda i: nt.precision_at_k(**i),
    "05-ap": lambda i: nt.average_precision(**i),
    "05-ap-all-relevant": lambda i: nt.average_precision(**i),
    "05-rr": lambda i: nt.reciprocal_rank(**i),
    "05-map": lambda i: nt.mean_average_precision(**i),
    "06-high-ndcg-low-precision": lambda i: _playground_order(i, lambda ndcg, p: ndcg > 0.95 and p < 0.7),
    "06-full-precision-low-ndcg": lambda i: _playground_order(i, lambda ndcg, p: p == 1 and ndcg < 0.6),
    "07-idcg-term": lambda i: nt.explain_idcg(**i).rows[3].contribution,
    "07-ndcg-at-3": lambda i: nt.ndcg(**i),
    # 0.8 is the P@5 the document prints for the products.
    "07-threshold": lambda i: next(t for t in range(1, 6) if nt.precision_at_k(**i, threshold=t) == 0.8),
    "08-ties": lambda i: nt.ndcg_score(**i),
    "08-ap-trec": lambda i: nt.average_precision(**i),
    "08-short-list": lambda i: nt.precision_at_k(**i),
    "09-mean-ndcg": lambda i: nt.mean_ndcg(**i),
    "09-wins": lambda i: sum(nt.ndcg(b, k=i["k"]) > nt.ndcg(a, k=i["k"]) for a, b in zip(i["ranker_a"], i["ranker_b"])),
    "09-smallest-p": lambda i: min(
        significance.randomisation_test(a, b).p_value
        for a, b in itertools.product(itertools.product((0.0, 1.0), repeat=i["n_queries"]), repeat=2)
        if a != b
    ),
    "10-r-precision": lambda i: nt.r_precision(**i),
    "10-interpolated": lambda i: _best_precision_from_recall(nt.precision_recall_curve(**i), 0.5),
    "10-f1": lambda i: nt.f_measure(**i),
    "10-f-beta": lambda i: nt.f_measure(**i),
    "11-rbp": lambda i: nt.rank_biased_precision(**i),
    "11-rbp-residual": lambda i: nt.rbp_residual(**i),
    "11-err": lambda i: nt.expected_reciprocal_rank(**i),
    "11-which-prefers-many": _which_prefers_many,
    "12-pool": lambda i: len({doc for run in i["runs"] for doc in run[: i["depth"]]}),
    "12-bpref": lambda i: nt.bpref(**i),
    "12-condensed-ap": lambda i: nt.average_precision(nt.condensed(i["relevances"]), n_relevant=i["n_relevant"]),
    "13-t-statistic": lambda i: paired_t_test(i["b"], i["a"]).statistic,
    "13-effect-size": lambda i: paired_t_test(i["b"], i["a"]).effect_size,
    "13-wilcoxon": lambda i: wilcoxon_test(i["b"], i["a"]).statistic,
    "13-bonferroni": lambda i: i["alpha"] / i["comparisons"],
    "14-hit-rate": lambda i: nt.mean("success", **i),
    "14-ndcg-held-out": lambda i: nt.ndcg(**i),
    "14-success": lambda i: nt.success_at_k(i["relevances"], i["k"]),
    "14-sampled-rank": lambda i: 1 + i["n_sampled"] * (i["rank"] - 1) / (i["n_items"] - 1),
    "15-cohen-kappa": lambda i: nt.cohen_kappa(**i).value,
    "15-fleiss-kappa": lambda i: nt.fleiss_kappa(**i).value,
    "15-kendall-tau": lambda i: nt.kendall_tau(**i).value,
    "15-family-wise": lambda i: 1 - (1 - i["alpha"]) ** (i["systems"] * (i["systems"] - 1) // 2),
    "16-s-recall": lambda i: nt.subtopic_recall(**i),
    "16-alpha-ndcg": lambda i: nt.alpha_ndcg(**i),
    "16-err-ia": lambda i: nt.err_ia(**i),
    "17-macro-mean": lambda i: nt.macro_micro(**i).macro,
    "17-recall-at-k": lambda i: nt.recall_at_k(**i),
    "17-rerank-ceiling": lambda i: nt.ndcg(sorted(i["relevances"], reverse=True), k=i["k"], pool=i["pool"]),
    "18-cascade-click": lambda i: nt.CascadeModel().click_probabilities(i["relevances"]).clicks[i["position"] - 1],
    "18-team-draft-win": lambda i: nt.interleaving_outcomes(**i, model=nt.CascadeModel()).a_wins,
    "18-ab-size": lambda i: nt.ab_test_size(**i).n_treatment,
    "19-ips": lambda i: sum(n / p * r for n, p, r in zip(i["new_policy"], i["propensities"], i["rewards"])) / len(i["rewards"]),
    "19-snips": lambda i: sum(n / p * r for n, p, r in zip(i["new_policy"], i["propensities"], i["rewards"]))
    / sum(n / p for n, p in zip(i["new_policy"], i["propensities"])),
    "19-clipped-ips": lambda i: sum(
        min(n / p, i["clip"]) * r for n, p, r in zip(i["new_policy"], i["propensities"], i["rewards"])
    ) / len(i["rewards"]),
    "19-position-ips": lambda i: nt.position_based_ips(
        i["logged"], i["clicks"], i["target"], nt.PositionBasedModel(examination=i["examination"])
    ).value,
    "20-trec-position": lambda i: nt.evaluate({"q": {i["item"]: 1}}, {"q": i["scores"]}, ["recip_rank"]).ranking("q")
    .index(i["item"]) + 1,
    "20-mean-if-fixed": lambda i: _mean_if_fixed(i),
    "20-mean-if-judged": lambda i: nt.evaluate({**i["qrels"], i["qid"]: {**i["qrels"][i["qid"]], i["item"]: 1}},
                                               i["run"], ["map"])["map"],
    "20-significant": lambda i: "yes" if significance.paired_t_test(i["b"], i["a"]).p_value < i["alpha"] else "no",
    "21-vital-strict": lambda i: nt.nugget_scores(**i).vital_strict,
    "21-weighted": lambda i: nt.nugget_scores(**i).weighted,
    "21-citation-precision": lambda i: nt.citation_support(**i).precision,
    "21-faithful-ceiling": lambda i: nt.nugget_scores(
        list(i["nuggets"].values()),
        ["support" if any(n in facts for facts in i["context"].values()) else "not_support" for n in i["nuggets"]],
    ).vital_strict,
}
"""A solution from each exercise's inputs, as a lesson's Solutions cell can now write it."""

NOT_LIBRARY_PARAMETERS = {
    "system_a", "system_b", "log_bases", "ranker_a", "ranker_b", "n_queries",
    "one_great", "many_fair", "runs", "depth", "alpha", "comparisons", "n_held_out", "n_items", "rank", "n_sampled",
    "systems", "position", "rewards", "new_policy", "examination", "clip", "qid",
}
"""Input names for what an exercise is about when it is not one library call."""


@pytest.mark.parametrize("key", ["13-t-statistic", "13-effect-size", "13-wilcoxon"])
def test_lesson_13s_exercises_give_a_and_b_the_roles_the_lesson_gave_them(key):
    # Lesson 13 calls the baseline A and the new system B and tests b - a; its exercises ask about
    # "a new system b" against "the baseline a", and the new system gains on most queries.
    scores = inputs(key)
    differences = np.array(scores["b"]) - np.array(scores["a"])
    assert np.sum(differences > 0) > np.sum(differences < 0)
    assert check(key, SOLUTIONS[key](scores)).correct is True


COMPUTED = [key for key, exercise in EXERCISES.items() if exercise.question is None]
"""Every exercise but the questions to think about, which have no inputs: their answer is a letter (test_questions.py)."""


def test_every_exercise_has_inputs_and_a_solution_from_them_here():
    assert set(SOLUTIONS) == set(COMPUTED)
    for key in EXERCISES:
        assert isinstance(inputs(key), dict), key
        assert bool(inputs(key)) == (key in COMPUTED), key


@pytest.mark.parametrize("key", COMPUTED)
def test_a_solution_computed_from_the_inputs_is_right(key):
    answer = SOLUTIONS[key](inputs(key))
    assert check(key, answer).correct is True
    if EXERCISES[key].kind == "number":
        assert answer == pytest.approx(ANSWERS[key], abs=1e-12)
    elif EXERCISES[key].kind != "order":
        assert answer == ANSWERS[key]


def scribble(value):
    """Change every list and dict inside ``value`` in place, as a curious learner might."""
    if isinstance(value, dict):
        for member in value.values():
            scribble(member)
        value["scribbled"] = True
    elif isinstance(value, list):
        for member in value:
            scribble(member)
        value.append(99)


def members(value):
    """``value`` and everything nested in it."""
    yield value
    if isinstance(value, (dict, types.MappingProxyType)):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        for member in value:
            yield from members(member)


@pytest.mark.parametrize("key", list(EXERCISES))
def test_inputs_are_a_fresh_copy_every_time(key):
    before = copy.deepcopy(inputs(key))
    mine = inputs(key)
    assert not [member for member in members(mine) if isinstance(member, (tuple, types.MappingProxyType))]
    scribble(mine)
    assert mine != before
    assert inputs(key) == before
    assert check(key, ANSWERS[key]).correct is True


@pytest.mark.parametrize("key", list(EXERCISES))
def test_an_exercises_own_inputs_are_read_only(key):
    frozen = EXERCISES[key].inputs
    with pytest.raises(TypeError):
        frozen["k"] = 1
    for value in frozen.values():
        assert not isinstance(value, (list, dict, set))


def test_an_exercise_keeps_its_inputs_when_the_caller_changes_the_original():
    relevances = [3, 0, 2, 1]
    exercise = Exercise(
        "01-test", "01-relevance-and-cg", "CG", "number", _number_judge(lambda i: nt.cg(**i), "hint"),
        inputs={"relevances": relevances},
    )
    relevances.append(5)
    assert exercise.inputs["relevances"] == (3, 0, 2, 1)
    assert exercise.check(6)


def test_input_names_are_the_librarys_parameters():
    modules = (nt, significance)
    parameters = {
        name
        for module in modules
        for public in module.__all__
        if inspect.isfunction(getattr(module, public))
        for name in inspect.signature(getattr(module, public)).parameters
    }
    for key in EXERCISES:
        unknown = set(inputs(key)) - parameters - NOT_LIBRARY_PARAMETERS
        assert unknown == set(), key


def test_inputs_of_an_unknown_exercise_is_an_error_that_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"exercise must be one of '00-warm-up', .* Got '99-nope' instead\."):
        inputs("99-nope")
