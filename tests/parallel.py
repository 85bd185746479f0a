"""How ``make test`` (``pytest -n auto``) shares the suite between pytest-xdist's workers, loaded as a plugin by the
root conftest.py.

A worker runs one work unit at a time: a test on its own, or a group of tests that one worker runs in order. A test
joins a group when it cannot run apart from the tests beside it:

- the cells of one lesson under nbval share one kernel: a group per notebook. A test that reads the lesson's run
  (it asks for tests/lesson_runs.py's fixture, for its ``path``) joins that group and comes after its cells;
- the four class-hub files build one .venv-hub and npm proxy, start hubs and add and remove Unix accounts (which
  queue on /etc/passwd's lock): one group, ``hub``;
- a test that uses a module- or class-scoped fixture (a Jupyter server and a browser, nbgrader's round trip of both
  editions, the trec_eval oracle's collections) would build it again on each worker it lands on: a group per file.

Everything else (the differential chunks, doctests, unit tests) is a unit of its own, handed to whichever worker
is free. The units go out in the order of :data:`SLOW_FIRST`, so the longest start first and the short ones fill
the gaps at the end. Without xdist the order is the same.

Only a worker collects, and only it can see a test's fixtures: each worker writes the groups it found to a file the
controller named, and the controller's scheduler (xdist's own, by scope, with these groups as the scopes) reads them
once every worker has collected. pytest-xdist's ``xdist_group`` mark would do the same, but with pytest 9.2 the
suffix it writes into a test's id no longer reaches the controller, and ``--dist loadgroup`` silently groups nothing
(pytest-dev/pytest-xdist#1386, open; its maintainers want the groups sent apart from the ids, as here).
"""

import json
import shutil
import tempfile
from pathlib import Path

import pytest

HUB = ("tests/test_hub.py", "tests/test_hub_accounts.py", "tests/test_hub_graded.py", "tests/test_hub_live.py")

# Paths relative to the repository, slowest first: seconds of each in one serial `pytest --durations=0` on the 2-core
# machine (2026-12-07). A path not listed comes after them, in collection order.
SLOW_FIRST = (
    *HUB,  # 151 + 71 + 3: one group
    "tests/browser/test_lessons_survive_browser.py",  # 146
    "tests/test_assignments.py",  # 138, nearly all of it nbgrader's round trip, in one group
    "tests/browser/test_explorer_live_browser.py",  # 118
    "tests/browser/test_site.py",  # 103
    "tests/browser/test_wheel_install.py",  # 50
    "tests/browser/test_explorer_trust_browser.py",  # 47
    "tests/browser/test_explorer_subtopics_browser.py",  # 42
    "tests/browser/test_lessons_open_clean.py",  # 40
    "tests/browser/test_explorer_browser.py",  # 39
    "tests/browser/test_explorer_font_browser.py",  # 36
    "tests/browser/test_links_browser.py",  # 34
    "tests/browser/test_lessons_collapsed_browser.py",  # 32
    "tests/browser/test_explorer_zh_browser.py",  # 32
    "tests/test_contract.py",  # 21
    "tests/browser/test_explorers_12_13_browser.py",  # 21
    "tests/browser/test_run_explorer_browser.py",  # 20
    "tests/test_contributing.py",  # 18
    "tests/browser/test_explorer_screenshot_browser.py",  # 12
    "tests/test_trec_eval_differential.py",  # 12
)

SHARED_SCOPES = {"module", "class", "package"}
LESSON_RUN = "lesson_run"  # tests/lesson_runs.py's fixture: a test that asks for it, for its `path`, reads that lesson's run
FOLDER = pytest.StashKey()  # the controller's folder for the workers' files of groups
GROUPS = "ndcg_teach_groups"  # the key of a worker's file in its workerinput


def _relative(item):
    return item.path.relative_to(item.config.rootpath).as_posix()


def group_of(item):
    """The name of ``item``'s group, or None when it can run on any worker by itself."""
    path = _relative(item)
    if type(item).__module__ == "nbval.plugin":
        return path
    if reads_a_lesson_run(item):
        return Path(item.callspec.params["path"]).relative_to(item.config.rootpath).as_posix()
    if path in HUB:
        return "hub"
    fixtures = getattr(item, "_fixtureinfo", None)
    for definitions in (fixtures.name2fixturedefs.values() if fixtures else ()):
        if definitions and definitions[-1].scope in SHARED_SCOPES:
            return path
    return None


def reads_a_lesson_run(item):
    callspec = getattr(item, "callspec", None)
    return callspec is not None and "path" in callspec.params and LESSON_RUN in item.fixturenames


def rank(item):
    if reads_a_lesson_run(item):
        return len(SLOW_FIRST) + 1  # after every lesson's cells: in its lesson's group, after the lesson has run
    path = _relative(item)
    return next((index for index, slow in enumerate(SLOW_FIRST) if path == slow or path.startswith(f"{slow}/")),
                len(SLOW_FIRST))


def pytest_configure(config):
    if not hasattr(config, "workerinput") and getattr(config.option, "numprocesses", None):
        config.stash[FOLDER] = tempfile.mkdtemp(prefix="xdist-groups-")
        config.add_cleanup(lambda: shutil.rmtree(config.stash[FOLDER], ignore_errors=True))


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    if FOLDER in node.config.stash:
        node.workerinput[GROUPS] = str(Path(node.config.stash[FOLDER]) / f"{node.gateway.id}.json")


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    # `-n N` alone (or --dist load) would hand out a lesson's cells one by one; other --dist choices are kept.
    if config.getvalue("dist") == "load" and FOLDER in config.stash:
        from xdist.scheduler import LoadScopeScheduling

        class GroupScheduling(LoadScopeScheduling):
            """xdist's scheduling by scope, where a test's scope is its group, or the test itself."""

            groups = None

            def _split_scope(self, nodeid):
                if self.groups is None:
                    # Every worker collected the same tests (xdist checks) and so found the same groups.
                    written = sorted(Path(config.stash[FOLDER]).glob("*.json"))
                    self.groups = json.loads(written[0].read_text(encoding="utf-8")) if written else {}
                return self.groups.get(nodeid, nodeid)

        config.option.loadscopereorder = False  # keep the order of SLOW_FIRST, not the biggest group first
        return GroupScheduling(config, log)
    return None


def pytest_collection_modifyitems(config, items):
    items.sort(key=rank)
    target = getattr(config, "workerinput", {}).get(GROUPS)
    if target:
        groups = {item.nodeid: group for item in items if (group := group_of(item))}
        Path(target).write_text(json.dumps(groups), encoding="utf-8")
