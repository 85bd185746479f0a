"""What the lesson 13-19 modules share: results that explain themselves, docstrings that name their lesson,
and names that `import ndcg_teach` offers without loading them."""

import importlib
import json
import re
import subprocess
import sys

import numpy as np
import pytest

import ndcg_teach as nt
from ndcg_teach import language_set

MODULES = ("statistics.ab_testing", "statistics.agreement", "online.bandit_problem", "online.click_models",
           "online.counterfactual", "online.counterfactual_rankings", "online.interleaving", "statistics.many_systems",
           "course.rag_data", "course.sampled_metrics", "course.simulated_judges", "statistics.stability")


def results():
    """One result of every kind, built from small inputs."""
    from ndcg_teach.statistics.many_systems import discriminative_power, randomised_tukey_hsd, tukey_hsd

    scores = {"A": [0.2, 0.4, 0.3, 0.5], "B": [0.3, 0.4, 0.4, 0.5], "C": [0.5, 0.6, 0.6, 0.8]}
    world = nt.BanditProblem(("u", "v"), ("a", "b"), [0.5, 0.5], [[0.8, 0.2], [0.5, 0.5]], [[0.1, 0.6], [0.3, 0.2]])
    log = world.simulate(5, seed=1)
    qrels = {"q1": {"a": 1, "b": 0, "c": 1}, "q2": {"a": 0, "b": 1, "c": 1}, "q3": {"a": 1, "b": 1, "c": 0}}
    runs = {"good": {q: {d: float(g) for d, g in docs.items()} for q, docs in qrels.items()},
            "poor": {q: {d: 1.0 - g for d, g in docs.items()} for q, docs in qrels.items()}}
    return [
        nt.cohen_kappa([0, 1, 1, 2], [0, 1, 2, 2]), nt.cohen_kappa([0, 1, 1, 2], [0, 1, 2, 2], weights="linear"),
        nt.fleiss_kappa([[1, 1, 0], [0, 0, 0], [1, 1, 1]]), nt.kendall_tau([3, 2, 1], [2, 3, 1]),
        nt.tau_ap([3, 2, 1], [2, 3, 1]), nt.swapped_pairs([3, 2, 1], [2, 3, 1]), nt.SimulatedJudge.symmetric((0, 1)),
        nt.judge_effect(qrels, runs, nt.SimulatedJudge.symmetric((0, 1), 0.8), measure="P.2", trials=2),
        tukey_hsd(scores), randomised_tukey_hsd(scores, n=200), discriminative_power(scores, method="paired_t"),
        nt.CascadeModel().click_probabilities([1, 3, 0]), nt.PositionBasedModel().simulate([1, 3, 0], 100),
        nt.team_draft(["a", "b"], ["b", "a"]), nt.balanced(["a", "b"], ["b", "a"]),
        nt.interleaving_outcomes(["a", "b"], ["b", "a"], {"a": 1}, nt.CascadeModel()),
        nt.simulate_interleaving(["a", "b"], ["b", "a"], {"a": 1}, nt.CascadeModel(), impressions=50),
        nt.ab_test_size(0.1, 0.12), nt.ab_test_size_means(0.1, 1.0), world, world.exact({"u": "b", "v": "a"}, 2),
        nt.ips(log, {"u": "b", "v": "a"}), nt.snips(log, {"u": "b", "v": "a"}),
        nt.position_based_ips(["a", "b"], [[0, 1]], ["b", "a"], nt.PositionBasedModel()),
        nt.position_based_exact(["a", "b"], {"a": 1}, ["b", "a"], nt.PositionBasedModel()),
        nt.corrected_metric(50, 5, "ndcg", k=10), nt.sampled_metric_estimates([1, 2], 50, 5, "ap"),
        nt.rag_collection("finance"), nt.macro_micro({"a": [1.0, 0.0], "b": [0.5]}),
    ]


def test_every_result_has_a_text_and_an_html_twin_with_the_same_numbers():
    number = re.compile(r"-?\d+\.\d{4}")
    for result in results():
        text, page = str(result), result._repr_html_()
        assert text == repr(result) and text.strip()
        assert page.startswith('<div class="ndcg-table ndcg-explained">') and "<style>" in page
        assert sorted(number.findall(text)) == sorted(number.findall(re.sub(r"<[^>]+>", " ", page))), type(result)
        assert result.title == text.splitlines()[0]


def test_a_result_built_in_chinese_keeps_its_language_and_its_numbers():
    english = nt.cohen_kappa([0, 1, 1, 2], [0, 1, 2, 2])
    with language_set("zh-CN"):
        chinese = nt.cohen_kappa([0, 1, 1, 2], [0, 1, 2, 2])
    assert chinese.language == "zh-CN" and english.language == "en" and chinese.value == english.value


@pytest.mark.parametrize("module", MODULES)
def test_every_public_name_names_the_lesson_that_teaches_it(module):
    loaded = importlib.import_module(f"ndcg_teach.{module}")
    assert re.search(r"Lessons? 1[3-9]", loaded.__doc__), module
    for name in loaded.__all__:
        doc = getattr(loaded, name).__doc__ or ""
        assert doc.strip(), name
        assert re.search(r"Lessons? 1[3-9]", doc), f"{module}.{name} does not name the lesson that teaches it"


def test_import_ndcg_teach_loads_none_of_them_and_offers_their_names():
    code = ("import json, sys; import ndcg_teach as nt; before = sorted(m for m in sys.modules if m.split('.', 1)[-1] in "
            f"{list(MODULES)!r}); nt.kendall_tau; nt.tau_ap; "
            "print(json.dumps([before, 'ndcg_teach.statistics.stability' in sys.modules, 'scipy' in sys.modules]))")
    before, loaded, scipy = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                                      check=True).stdout)
    assert before == [] and loaded and not scipy
    assert set(nt.LAZY_NAMES) <= set(nt.__all__) and set(nt.LAZY_NAMES) <= set(dir(nt))
    for name, module in nt.LAZY_NAMES.items():
        assert getattr(nt, name) is getattr(importlib.import_module(f"ndcg_teach.{module}"), name)


def test_many_systems_loads_scipy_only_when_asked_for():
    code = ("import sys, ndcg_teach; before = 'scipy' in sys.modules; "
            "result = ndcg_teach.statistics.many_systems.tukey_hsd([[0.1, 0.5, 0.3], [0.4, 0.6, 0.9]]); "
            "print(before, 'scipy' in sys.modules, len(result.pairs))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "1"]


def test_numbers_print_as_the_formulas_show_them():
    from ndcg_teach.core.explained import number

    assert (number(np.float64(1 / 3)), number(2)) == ("0.3333", "2.0000")
