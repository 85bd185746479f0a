"""Every number a question to think about of lessons 00 to 14 states, recomputed without ndcg_teach.

A question's stem and explanations quote numbers (a discount, a lesson's printed result, a share); a wording
edit could change one and nothing else would notice, since the i18n tests only check that the Chinese keeps the
English numbers.  Here each is computed by plain Python, NumPy, scikit-learn or pytrec_eval and must appear,
formatted as the question prints it, in the question's English text.  Numbers that come from a lesson's seeded
simulation are read from the lesson's executed output instead, which tests/test_notebooks.py keeps current.
"""

import math
import re
from pathlib import Path

import nbformat
import pytest
import pytrec_eval
from sklearn.metrics import ndcg_score

from ndcg_teach.exercises import EXERCISES

ROOT = Path(__file__).resolve().parent.parent


def text(key):
    """The English stem, options and explanations of question ``key``, as one line."""
    asked = EXERCISES[key].question
    parts = [asked.stem, *(part for option in asked.options for part in (option.text, option.why))]
    return " ".join(" ".join(part.split("\n")) for part in parts)


def dcg(relevances, k=None, gain="linear"):
    worth = (lambda grade: 2**grade - 1) if gain == "exponential" else (lambda grade: grade)
    return sum(worth(grade) / math.log2(i + 2) for i, grade in enumerate(relevances[:k]))


def ndcg(relevances, k=None, pool=None, gain="linear"):
    k = k or len(relevances)
    best = dcg(sorted(relevances if pool is None else pool, reverse=True), k, gain)
    return dcg(relevances, k, gain) / best


def share_of_top_3(weights):
    return sum(weights[:3]) / sum(weights)


def average_precision(binary, n_relevant):
    hits, total = 0, 0.0
    for position, relevant in enumerate(binary, start=1):
        hits += relevant
        total += hits / position if relevant else 0.0
    return total / n_relevant


def lesson_output(stem, marker):
    """The text output of the English lesson's code cell whose source contains ``marker``."""
    notebook = nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4)
    cell = next(cell for cell in notebook.cells if cell.cell_type == "code" and marker in cell.source)
    return "".join(output.get("text", "") for output in cell.outputs)


PR_LIST = [0, 3, 0, 2, 1, 1]  # lesson 04's list of sections 1 to 4
P5 = {threshold: sum(grade >= threshold for grade in PR_LIST[:5]) / 5 for threshold in (1, 3)}
HOPELESS, RICH = ndcg([1, 0, 0], 3, pool=[1, 0, 0, 0]), ndcg([3, 3, 0], 3, pool=[3, 3, 3, 2, 0])  # lesson 03, section 5
TIES = ({"d1": 1, "d2": 3, "d3": 0, "d4": 2}, {"d1": 0.8, "d2": 0.8, "d3": 0.3, "d4": 0.3})  # lesson 08, section 4
SKLEARN_TIES = ndcg_score([list(TIES[0].values())], [list(TIES[1].values())])
TREC_TIES = pytrec_eval.RelevanceEvaluator({"q": TIES[0]}, {"ndcg"}).evaluate({"q": TIES[1]})["q"]["ndcg"]
REACH_RANK_4 = (1 - 3 / 8) * (1 - 7 / 8)  # ERR on [2, 3, 0, 1], top grade 3: neither rank 1 nor rank 2 satisfied
GEOMETRIC = [0.8 ** (i - 1) for i in range(1, 21)]

STATED = [
    ("02-which-gain", "(0, 1, 3, 7, 15)", "(" + ", ".join(str(2**grade - 1) for grade in range(5)) + ")"),
    ("02-which-gain", "worth 15 against 3", f"worth {2**4 - 1} against {2**2 - 1}"),
    ("02-which-discount", "keeps 0.228", f"keeps {1 / math.log2(21):.3f}"),
    ("02-which-discount", "only 30%", f"only {share_of_top_3([1 / math.log2(i + 1) for i in range(1, 21)]):.0%}"),
    ("02-which-discount", "51% for 1/i", f"{share_of_top_3([1 / i for i in range(1, 21)]):.0%} for 1/i"),
    ("02-which-discount", "49% for p = 0.8", f"{share_of_top_3(GEOMETRIC):.0%} for p = 0.8"),
    ("03-ideal-from-the-list", "is 0.4465", f"is {ndcg([2, 1, 0], 3, pool=[3, 3, 2, 1, 0, 0]):.4f}"),
    ("03-a-hopeless-query", "and 0.7654", f"and {RICH:.4f}"),
    ("03-a-hopeless-query", "0.8827", f"{(HOPELESS + RICH) / 2:.4f}"),
    ("04-two-papers", "0.6 and 0.2", f"{P5[1]} and {P5[3]}"),
    ("04-two-papers", "1, 0.5, 0.33 or 0.25", ", ".join(f"{1 / n:.2g}" for n in (1, 2, 3)) + f" or {1 / 4}"),
    ("05-what-ap-rewards", "X 0.1", f"X {average_precision([1, 0, 0, 0, 0], 10)}"),
    ("06-swap-cost", "costs 0.0438", f"costs {(2 - 1) * (1 / math.log2(5) - 1 / math.log2(6)):.4f}"),
    ("06-one-bad-result-on-top", "loses 0.41", f"loses {1 - ndcg([0, 4, 1], 3, pool=[4, 1, 1, 0, 0, 0]):.2f}"),
    ("06-one-bad-result-on-top", "slot it takes, 0.33", f"slot it takes, {1 - 2 / 3:.2f}"),
    ("07-errors-that-cancel", "about 0.96", f"about {ndcg([5, 3, 2, 1, 4], 5):.2f}"),
    ("07-errors-that-cancel", "prints 0.857", f"prints {8.738 / 10.199:.3f}"),
    ("07-errors-that-cancel", "from 3.01 to 2.21", f"from {(2**3 - 1) / math.log2(5):.2f} to {(2**3 - 1) / 3.17:.2f}"),
    ("07-what-a-number-needs", "returns 0.8645", f"returns {ndcg([4, 5, 2, 3, 1], 5, gain='exponential'):.4f}"),
    ("07-what-a-number-needs", "prints 0.8608", f"prints {38.23 / 44.41:.4f}"),
    ("08-which-choices", "(0.8804 against 0.9725)", f"({SKLEARN_TIES:.4f} against {TREC_TIES:.4f})"),
    ("11-the-cascade", "probability 1/8", f"probability 1/{round(1 / ((2**1 - 1) / 2**3))}"),
    ("11-the-cascade", "0.125/4 = 0.031", f"{(2**1 - 1) / 2**3}/4 = {(2**1 - 1) / 2**3 / 4:.3f}"),
    ("11-the-cascade", "chance, 0.078,", f"chance, {REACH_RANK_4:.3f},"),
    ("11-which-user", "reads 20 results", f"reads {round(1 / (1 - 0.95))} results"),
]


@pytest.mark.parametrize(("key", "quoted", "recomputed"), STATED, ids=[f"{key}: {quoted}" for key, quoted, _ in STATED])
def test_a_question_states_the_number_an_independent_computation_gives(key, quoted, recomputed):
    assert quoted in text(key), "the question no longer says this: update STATED"
    assert recomputed == quoted


def test_the_gains_reverse_the_two_lists_lesson_02s_question_names():
    assert "[4, 0, 0] beats [2, 2, 2] with exponential gain and loses to it with linear gain" in text("02-which-gain")
    assert dcg([4, 0, 0], gain="exponential") > dcg([2, 2, 2], gain="exponential")
    assert dcg([4, 0, 0]) < dcg([2, 2, 2])


def test_no_list_length_below_5_turns_one_hit_into_lesson_04s_0_6():
    assert "never 0.6" in text("04-two-papers")
    assert all(not math.isclose(hits / length, 0.6) for length in range(1, 5) for hits in range(length + 1))


def test_a_held_out_item_near_full_rank_60_lands_in_the_sampled_top_10_as_lesson_14s_question_says():
    assert "turns B's items near rank 60 into hits" in text("14-sampled-winner")
    assert 1 + 100 * (60 - 1) / (5_000 - 1) <= 10  # lesson 14, section 4: expected rank among 100 sampled of 5,000


def test_the_three_numbers_that_stay_after_lesson_06s_swap_and_the_two_that_move():
    asked = EXERCISES["06-blind-to-a-swap"].question
    assert [option.text for option in asked.options if option.right] == ["Its P@3.", "Its RR.", "Its AP@3."]
    before, after = [3, 2, 1], [3, 1, 2]
    assert sum(g >= 1 for g in before) == sum(g >= 1 for g in after)  # P@3
    assert dcg(before) != dcg(after) and ndcg(before) != ndcg(after)
    assert average_precision([1, 1, 1], 3) == average_precision([g >= 1 for g in after], 3)


def test_the_simulated_numbers_lessons_09_12_and_13_questions_quote_are_the_lessons_outputs():
    twelve = lesson_output("09-evaluating-a-model", "wins = int(np.sum(differences > 0))")
    mean_difference = re.search(r"mean difference B - A = \+(\d\.\d+)", twelve).group(1)
    assert f"is {float(mean_difference):.3f} above" in text("09-a-large-p-value")
    table = lesson_output("12-incomplete-judgements", "means = {name:")
    columns = list(
        zip(
            *[
                [float(value) for value in re.findall(r"(\d\.\d{4}) \(\d\)", line)]
                for line in table.splitlines()
                if line.startswith("pooled")
            ]
        )
    )
    stated = re.findall(r"(\d\.\d\d) to (\d\.\d\d)", EXERCISES["12-scores-above-the-truth"].question.stem)
    shown = {
        name: f"{min(column):.2f} to {max(column):.2f}"
        for name, column in zip(("full", "unjudged", "AP'", "bpref"), columns)
    }
    assert [f"{low} to {high}" for low, high in stated] == [
        shown["AP'"],
        shown["bpref"],
        shown["unjudged"],
        shown["full"],
    ]
    twenty = lesson_output("13-significance", "experiments with at least one")
    assert re.search(r"at least one 'significant' variant: (\d+)%", twenty).group(1) + "% of the experiments" in text(
        "13-twenty-variants"
    )
