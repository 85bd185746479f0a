"""The class hub in graded mode, live on 127.0.0.1: two students and the instructor (benchmarks/class_hub_isolation.py).

Needs root (graded mode makes a Unix account per student; CI runs as root) and the hub's environment; skipped with
the reason elsewhere. Every account the run makes carries a prefix of its own and is removed afterwards, also when
the run fails. No test asserts a duration: the benchmark prints them.
"""

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

if sys.platform != "linux" or os.geteuid() != 0:
    pytest.skip("graded mode makes a Unix account for each student and starts their servers as those accounts, which "
                "needs root on Linux (CI runs as root); run `sudo make test` to include it", allow_module_level=True)

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

import class_hub_isolation as isolation  # noqa: E402

pytestmark = pytest.mark.hub
ATTEMPTS = {
    "contents API": {"read B's file", "list B's home", "write in B's home", "read the instructor's source", "write in the instructor's course"},
    "exchange": {"list the inbound folder", "read B's submission", "write in B's submission", "replace B's notebook",
                 "rename B's submission", "remove B's submission"},
}
ATTEMPTS["terminal"] = ATTEMPTS["kernel"] = ATTEMPTS["contents API"]


@pytest.fixture(scope="module")
def run(hub_environment):
    """One run of the scenario in a folder every account can reach (pytest's own is root's only)."""
    folder = Path(tempfile.mkdtemp(prefix="ndcg-graded-test-"))
    try:
        figures = isolation.one_run(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    assert figures["errors"] == []
    return figures


def test_only_the_class_list_and_the_instructors_password_log_in_and_the_login_page_says_how(run):
    assert run["logins"] == 3
    assert run["logins_refused"] == {"eve (not on the class list)": 403, "instructor with another password": 403}
    assert run["login_page_says_first_use"]


def test_each_server_runs_as_its_own_account_with_a_private_home_and_none_as_root(run):
    prefix = next(iter(run["accounts"].values())).split("-")[0] + "-"
    assert run["accounts"] == {name: f"{prefix}{name}" for name in ("instructor", "ana", "ben")}
    assert set(run["homes"].values()) == {"0o700"}
    assert run["processes_checked"] >= 6  # three servers and their kernels
    assert run["root_processes"] == {} and run["root_processes_after"] == {}


@pytest.mark.parametrize("channel", isolation.CHANNELS)
def test_student_a_is_refused_every_attempt_on_bs_files_and_the_instructors_course(run, channel):
    attempts = run["attempts"][channel]
    assert set(attempts) == ATTEMPTS[channel]
    assert {name: isolation.denied(outcome, channel) for name, outcome in attempts.items()} == dict.fromkeys(attempts, True), attempts
    assert run["planted"] == []


def test_a_submission_forged_in_bs_name_is_not_collected_and_bs_own_is(run):
    assert run["forged"] != "denied"  # nbgrader's inbound lets anyone put a submission in: the owner check must catch it
    assert run["b_submission_intact"]
    status, log = run["collect"]
    assert status == 0 and "Not collected" in log and "names the student ben" in log
    assert run["collected"] == {"ana": 1, "ben": 1}  # each collected notebook holds its own student's answer


def test_the_instructor_autogrades_both(run):
    status, log = run["autograde"]
    assert status == 0, log
    assert run["scores"] == {"ana": 1.0, "ben": 0.0}


def test_the_hub_stops_and_leaves_no_account_home_or_process(run):
    assert run["stop_s"] > 0
    assert run["left_running"] == [] and run["accounts_left"] == [] and run["homes_left"] == []
