"""``pytest --fast`` (``make test-fast``): the edit-test loop's suite, loaded as a plugin by the root conftest.py.

It runs the library's tests and doctests and every other test that neither drives a browser nor starts a hub, and
leaves out what takes minutes: the tests below, each with why. ``make test`` (and CI) runs them all. What is left out
is printed before the run and again after it, so a green ``--fast`` run never reads as the whole suite.
"""

from pathlib import Path

# Left out by --fast, relative to the repository: why, as the run prints it. tests/test_repository.py checks that
# each path still exists and that docs/testing.md lists each.
LEFT_OUT = {
    "notebooks": "nbval of every lesson of both editions: run the ones you changed with "
                 "`python -m pytest notebooks/NN-….ipynb notebooks/zh-CN/NN-….zh-CN.ipynb`",
    "tools/lesson_template.ipynb": "nbval of the lesson template",
    "tests/browser": "JupyterLab and Notebook 7 in Chromium (the browser tests)",
    "tests/test_hub_live.py": "a live class hub",
    "tests/test_hub_graded.py": "a live class hub in graded mode",
    "tests/test_assignments.py": "nbgrader's round trip for every lesson",
    "tests/test_lesson_explorers.py": "executes every lesson",
    "tests/test_widgets_picture.py": "executes a lesson",
    "tests/test_zh_cn_figures.py": "executes the Chinese lessons for their figures",
    "tests/test_numeric_settings.py": "runs lessons with nbval in the second numeric setting",
    "tests/test_trec_eval_differential.py": "the command against trec_eval on generated collections",
    "tests/test_trec_fuzz.py": "generated hostile TREC files against trec_eval",
    "tests/test_contributing.py": "follows CONTRIBUTING.md in a copy of the package and runs suites there",
    "tests/test_contract.py": "removes Q-measure from a copy of the package and runs suites there",
}


def pytest_addoption(parser):
    parser.addoption("--fast", action="store_true",
                     help="the edit-test loop's suite: leave out the lessons, browsers, hubs and the slow "
                          "differential, fuzz and copy-of-the-package tests (tests/fast_suite.py lists them)")


def _left_out(config):
    return [config.rootpath / relative for relative in LEFT_OUT] if config.getoption("fast") else []


def _is_left_out(path, config):
    path = Path(path)
    return any(path == left or left in path.parents for left in _left_out(config))


def pytest_ignore_collect(collection_path, config):
    return True if _is_left_out(collection_path, config) else None


def pytest_collection_modifyitems(config, items):
    # A file named in testpaths (the lesson template) is collected whatever pytest_ignore_collect says. This runs
    # before the root conftest.py's hook (trylast), so no lesson left out here starts the second numeric setting.
    left = [item for item in items if _is_left_out(item.path, config)]
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = [item for item in items if not _is_left_out(item.path, config)]


def _lines(config):
    return [f"--fast leaves out {len(LEFT_OUT)} parts of the suite (make test runs them):",
            *(f"  {relative}: {why}" for relative, why in LEFT_OUT.items())] if config.getoption("fast") else []


def pytest_report_header(config):
    return _lines(config)


def pytest_terminal_summary(terminalreporter, config):
    for line in _lines(config):
        terminalreporter.write_line(line)
