"""ndcg_teach's public API as it stood before the package was laid out in rooms (issue 34) still works.

The lists below were collected from the code before anything moved: every name of ``ndcg_teach.__all__``, every
``nt.<name>`` and every ``from ndcg_teach.X import name`` that a lesson (both editions), the README, docs/,
CONTRIBUTING.md, hub/, the tools, the benchmarks, the tests or a doctest of the package wrote, and every module of the
package. A module that moved keeps its old path for one release: importing it warns (DeprecationWarning, naming the new
path) and gives the very same module object. The paths every lesson imports warn about nothing.
"""

import json
import subprocess
import sys

import pytest

import ndcg_teach as nt

# Imported by the lessons (and their exercises) in nearly every cell that imports anything: never a warning.
SILENT = ("ndcg_teach", "ndcg_teach.exercises", "ndcg_teach.widgets", "ndcg_teach.plots", "ndcg_teach.i18n")

PROBE = r"""
import importlib, json, sys, warnings

modules, names, nt_names = json.loads(sys.stdin.read())


def attempt(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            action()
            error = None
        except Exception as exception:
            error = f"{type(exception).__name__}: {exception}"
    return error, [f"{w.category.__name__}: {w.message}" for w in caught]


def find(module, name):
    found = importlib.import_module(module)
    if not hasattr(found, name):
        importlib.import_module(f"{module}.{name}")


import ndcg_teach as nt
registered = len(nt.metrics())
report = {"modules": {path: attempt(lambda: importlib.import_module(path)) for path in modules},
          "names": {f"{module}:{name}": attempt(lambda: find(module, name)) for module in names for name in names[module]},
          "nt": {name: attempt(lambda: getattr(nt, name)) for name in nt_names}}
report["same"] = {path: module.__name__ for path, module in sys.modules.items()
                  if path.startswith("ndcg_teach") and module is not None and module.__name__ != path}
report["registered"] = [registered, len(nt.metrics())]
report["modules_in_all"] = [name for name in nt.__all__ if type(getattr(nt, name)).__name__ in ("module", "_Package")]
print(json.dumps(report))
"""


# ndcg_teach.__all__ then
NT_ALL = """
BanditProblem CascadeModel Column Comparison Evaluation Log Metric Param PositionBasedModel PrecisionRecallCurve Query
Row SimulatedJudge Span Trace TrecFormatError TrecGains ab_test_power ab_test_size ab_test_size_means aligned
alpha_ndcg answer_collection average_precision balanced bin_g bpref call cg citation_support cohen_kappa compare
condensed corrected_metric dcg direct_method doubly_robust eleven_point_average err_ia evaluate example_files
expected_reciprocal_rank explain explain_alpha_ndcg explain_average_precision explain_bin_g explain_bpref explain_cg
explain_dcg explain_eleven_point_average explain_err_ia explain_expected_reciprocal_rank explain_f_measure
explain_g_measure explain_idcg explain_infap explain_iprec_at_recall explain_ndcg explain_ndcg_rel
explain_num_nonrel_judged_ret explain_num_rel explain_num_rel_ret explain_num_ret explain_precision_at_k
explain_precision_recall_curve explain_q_measure explain_r_precision explain_rank_biased_precision explain_recall_at_k
explain_reciprocal_rank explain_relative_precision explain_rndcg explain_rprec_mult explain_set_map
explain_subtopic_recall explain_success_at_k explain_trec_ndcg explain_trec_rbp explain_trec_rbp_resid
explain_unjudged_share explain_utility f_measure faithfulness fleiss_kappa g_measure idcg ideal_order infap
interleaving_outcomes iprec_at_recall ips judge_assignments judge_effect kendall_tau language language_set macro_micro
mean mean_average_precision mean_ndcg mean_reciprocal_rank metric metrics ndcg ndcg_rel ndcg_score nugget_evaluation
nugget_judge_effect nugget_scores num_nonrel_judged_ret num_rel num_rel_ret num_ret position_based_exact
position_based_ips precision_at_k precision_recall_curve q_measure r_precision rag_collection rag_collections
rank_biased_precision rbp_residual read_qrels read_run recall_at_k reciprocal_rank register_metric relative_precision
relevances_from rndcg rprec_mult sampled_metric_estimates set_language set_map simulate_interleaving snips
subtopic_recall success_at_k swapped_pairs tau_ap team_draft trec_ndcg trec_rbp trec_rbp_resid unjudged_share
unregister_metric utility
""".split()
# Other nt.<name> then: the modules that `import ndcg_teach` offered, and LAZY_NAMES
NT_OTHER = "LAZY_NAMES answers conventions discounts examples exercises glossary i18n many_systems measures plots registry significance trec widgets".split()
NT_NAMES = NT_ALL + NT_OTHER

MODULES = """
ndcg_teach .__main__ .ab_testing .agreement .answers .answers.citations .answers.collection .answers.facts
.answers.faithfulness .answers.judges .answers.nuggets .bandit_problem .binary .checks .cli .click_models .comparison
.context .conventions .conventions.convention .conventions.peers .counterfactual .counterfactual_rankings .deprecation
.discounts .evaluation .examples .examples.auditing .examples.code_and_claims .examples.findings .examples.notation
.examples.quotations .examples.sources .examples.worked .exercises .exercises.framework .exercises.lesson_00
.exercises.lesson_01 .exercises.lesson_02 .exercises.lesson_03 .exercises.lesson_04 .exercises.lesson_05
.exercises.lesson_06 .exercises.lesson_07 .exercises.lesson_08 .exercises.lesson_09 .exercises.lesson_10
.exercises.lesson_11 .exercises.lesson_12 .exercises.lesson_13 .exercises.lesson_14 .exercises.lesson_15
.exercises.lesson_16 .exercises.lesson_17 .exercises.lesson_18 .exercises.lesson_19 .exercises.lesson_20
.exercises.lesson_21 .exercises.questions .explained .exploring .fonts .formulas .gains .glossary .glossary_terms
.grouped_plot .i18n .ids .interleaving .item_checks .items .judging .judging_subtopics .many_systems .mean .measures
.metrics .metrics.alpha_ndcg .metrics.average_precision .metrics.counts .metrics.dcg .metrics.err_ia .metrics.inferred
.metrics.interpolated .metrics.judgements .metrics.ndcg .metrics.pr_curve .metrics.precision .metrics.q_measure
.metrics.reciprocal_rank .metrics.retrieved_set .metrics.set_measures .metrics.subtopic_recall .metrics.trec_graded
.metrics.trec_ndcg .metrics.trec_rbp .metrics.user_models .plots .po .rag_data .registry .registry.calling
.registry.registered .registry.spec .sampled_metrics .server_extension .setup .shown .significance
.significance_results .simulated_judges .stability .steps .subtopics .table .ties .trace .trec .trec_files .trec_gains
.trec_output .trec_reading .trec_tables .validation .widgets .widgets.changes .widgets.compare .widgets.differences
.widgets.explorer .widgets.messages .widgets.paired .widgets.panel .widgets.payload .widgets.picture .widgets.previews
.widgets.run_explorer .widgets.run_query .widgets.unjudged .widgets.webfont
""".split()

NAMES = {
    "ndcg_teach": """
        Evaluation Metric Param PrecisionRecallCurve SimulatedJudge Trace __all__ ab_test_size
        average_precision call citation_support condensed dcg evaluate explain_dcg explain_ndcg fonts i18n
        judging language language_set measures ndcg ndcg_score plots precision_at_k precision_recall_curve
        rag_data rank_biased_precision rbp_residual read_qrels read_run recall_at_k register_metric
        server_extension set_language setup significance subtopic_recall trec_files trec_ndcg
    """.split(),
    "ndcg_teach.ab_testing": "ab_test_power ab_test_size ab_test_size_means".split(),
    "ndcg_teach.agreement": "cohen_kappa fleiss_kappa strength".split(),
    "ndcg_teach.answers": "SCORES SUPPORT_GRADES".split(),
    "ndcg_teach.answers.nuggets": "SCORES".split(),
    "ndcg_teach.bandit_problem": "BanditProblem".split(),
    "ndcg_teach.cli": "evaluate main".split(),
    "ndcg_teach.click_models": "CascadeModel PositionBasedModel hoeffding_bound".split(),
    "ndcg_teach.context": "FACTS Query".split(),
    "ndcg_teach.conventions": "CONVENTIONS CONVENTIONS_BY_NAME Table binary_gain compare facts peers".split(),
    "ndcg_teach.conventions.convention": "reads_subtopics".split(),
    "ndcg_teach.counterfactual": "Log direct_method doubly_robust ips snips".split(),
    "ndcg_teach.counterfactual_rankings": "position_based_exact position_based_ips".split(),
    "ndcg_teach.discounts": "DISCOUNT_CHOICES discount_symbol discount_values".split(),
    "ndcg_teach.evaluation": "compare values_of".split(),
    "ndcg_teach.examples": """
        AuditRecord AuditReport CAUSES EXAMPLES KINDS NOTATION Printed QUOTATIONS SOURCES WorkedExample audit
        example examples notation quotations source
    """.split(),
    "ndcg_teach.examples.auditing": "tooltip".split(),
    "ndcg_teach.examples.findings": "AuditRecord".split(),
    "ndcg_teach.examples.worked": "WorkedExample".split(),
    "ndcg_teach.exercises": """
        EXERCISES Exercise Feedback PLAYGROUND_RELEVANCE _LESSONS check discussion inputs recorded
    """.split(),
    "ndcg_teach.exercises.framework": "_number_judge".split(),
    "ndcg_teach.exercises.lesson_18": "standard_sizes".split(),
    "ndcg_teach.exercises.questions": "question right wrong".split(),
    "ndcg_teach.explained": "number".split(),
    "ndcg_teach.exploring": "RunQuery RunScores run_query".split(),
    "ndcg_teach.fonts": "labels_language".split(),
    "ndcg_teach.gains": "GAIN_CHOICES TrecGains exponential_gain gain_symbol gain_values linear_gain".split(),
    "ndcg_teach.glossary": "SOURCES TERMS elsewhere glossary term".split(),
    "ndcg_teach.grouped_plot": "GROUPS group_size grouped".split(),
    "ndcg_teach.i18n": "gettext".split(),
    "ndcg_teach.ids": "Ids Labels".split(),
    "ndcg_teach.interleaving": "balanced interleaving_outcomes simulate_interleaving team_draft".split(),
    "ndcg_teach.item_checks": "check_grade".split(),
    "ndcg_teach.judging": "Judged judge".split(),
    "ndcg_teach.many_systems": """
        _anova_error critical_range discriminative_power randomised_tukey_hsd tukey_hsd
    """.split(),
    "ndcg_teach.mean": "running_sum".split(),
    "ndcg_teach.measures": "MeasureError TREC_EVAL_CUTOFFS TrecMeasure parse_measures".split(),
    "ndcg_teach.metrics.ndcg": "NDCG_COLUMNS".split(),
    "ndcg_teach.metrics.pr_curve": "CURVE_CONVENTIONS level_counts".split(),
    "ndcg_teach.metrics.q_measure": "q_measure_batch".split(),
    "ndcg_teach.metrics.subtopic_recall": "new_subtopics".split(),
    "ndcg_teach.metrics.trec_ndcg": "trec_gains_of".split(),
    "ndcg_teach.plots": """
        BAR_LIMIT CumulativePlot DiscountPlot HEADROOM OKABE_ITO PNG_SIGNATURE literal precision_recall_plot
    """.split(),
    "ndcg_teach.po": "po_entry po_header po_text quote read_po unquote".split(),
    "ndcg_teach.rag_data": "COLLECTIONS RECIPES macro_micro rag_collection rag_collections".split(),
    "ndcg_teach.registry": "call explain metrics route".split(),
    "ndcg_teach.sampled_metrics": """
        corrected_metric metric_of_rank rank_distribution sampled_metric_estimates sampled_metric_expectation
    """.split(),
    "ndcg_teach.server_extension": """
        KernelPythons STASH WIDGET_STATE WIDGET_VIEW restore_live_views stash_explorer_views
        with_kernel_python
    """.split(),
    "ndcg_teach.setup": "SERVER_EXTENSION SETTINGS main write_server_config".split(),
    "ndcg_teach.significance": """
        BootstrapInterval SignificanceResult bootstrap_interval paired_t_test randomisation_test wilcoxon_test
    """.split(),
    "ndcg_teach.significance_results": "p_text".split(),
    "ndcg_teach.simulated_judges": "SimulatedJudge judge_effect".split(),
    "ndcg_teach.stability": "kendall_tau swapped_pairs tau_ap".split(),
    "ndcg_teach.table": """
        Cell HEAD_ROWS LAYOUT NOTE_WIDTH ROW_LIMIT Span TAIL_ROWS Table aligned shortened shown_rows styled
        stylesheet text width wrap
    """.split(),
    "ndcg_teach.ties": "tie_averaged_dcg".split(),
    "ndcg_teach.trace": "Column GAIN GRADE POSITION RELEVANT Row Trace rows_of".split(),
    "ndcg_teach.trec": "TrecFormatError read_qrels read_run".split(),
    "ndcg_teach.trec_gains": "TrecGains".split(),
    "ndcg_teach.trec_output": "read_zscores summary with_placeholders".split(),
    "ndcg_teach.trec_reading": "Reading trec_reading".split(),
    "ndcg_teach.widgets": """
        CompareExplorer DifferenceExplorer QueryExplorer RankingExplorer RunExplorer changes explorer messages
        panel payload previews webfont
    """.split(),
    "ndcg_teach.widgets.differences": "DifferenceExplorer".split(),
    "ndcg_teach.widgets.explorer": "RankingExplorer".split(),
    "ndcg_teach.widgets.messages": "front_end".split(),
    "ndcg_teach.widgets.panel": "DEFAULT_CARDS".split(),
    "ndcg_teach.widgets.picture": "RUN static_html".split(),
    "ndcg_teach.widgets.previews": "PREVIEW_ALL_UP_TO PREVIEW_WINDOW".split(),
    "ndcg_teach.widgets.unjudged": "check_unjudged".split(),
}


@pytest.fixture(scope="module")
def report():
    modules = [path if path == "ndcg_teach" else "ndcg_teach" + path for path in MODULES]
    run = subprocess.run([sys.executable, "-c", PROBE], input=json.dumps([modules, NAMES, NT_NAMES]),
                         capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def silent(path):
    return path in SILENT or path.startswith(tuple(f"{stable}." for stable in SILENT[1:]))


def moved_well(path, outcome, quiet=True):
    """'' when ``path`` imported, silently or with DeprecationWarnings (not for a path every lesson imports); else
    what went wrong."""
    error, caught = outcome
    if error:
        return error
    if caught and quiet and silent(path):
        return f"warned, though every lesson imports it: {caught}"
    if any(not warning.startswith("DeprecationWarning: ") for warning in caught):
        return f"warned with something else than a DeprecationWarning: {caught}"
    return ""


def test_every_module_path_of_the_package_still_imports(report):
    problems = {path: moved_well(path, outcome) for path, outcome in report["modules"].items()}
    assert {path: problem for path, problem in problems.items() if problem} == {}
    assert len(report["modules"]) == len(MODULES)


def test_a_moved_module_is_the_module_itself_and_names_its_new_path(report):
    for path, (_, caught) in report["modules"].items():
        if caught:
            new = report["same"][path]
            assert any(new in warning for warning in caught), (path, caught)
    assert report["registered"][0] == report["registered"][1]  # no metric module ran twice under two names
    assert report["modules_in_all"] == []  # `import ndcg_teach.mean` leaves nt.mean the function it was


def test_every_name_imported_from_a_module_is_still_there(report):
    problems = {name: moved_well(name.split(":")[0], outcome, quiet=name.split(":")[1] not in NT_OTHER)
                for name, outcome in report["names"].items()}
    assert {name: problem for name, problem in problems.items() if problem} == {}
    assert len(report["names"]) == sum(len(names) for names in NAMES.values())


def test_every_nt_name_still_works_and_the_exported_ones_silently(report):
    for name, (error, caught) in report["nt"].items():
        assert error is None, (name, error)
        assert all(warning.startswith("DeprecationWarning: ") for warning in caught), (name, caught)
    assert {name for name in NT_ALL if report["nt"][name][1]} == set()
    assert set(NT_ALL) <= set(nt.__all__)


@pytest.mark.parametrize("command", [["ndcg_teach", "--help"], ["ndcg_teach.setup", "--help"]])
def test_the_commands_still_run(command):
    run = subprocess.run([sys.executable, "-m", *command], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("usage: python -m ndcg_teach")
