"""``make test`` on every core (tests/parallel.py): tests that must share a worker do, and nothing runs twice.

Each test runs a small suite of its own in a temporary folder, with two pytest-xdist workers and only the plugin
under test, as ``make test`` runs the real one.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_notebook

import parallel

TESTS = Path(__file__).resolve().parent

SHARED = '''
import json, os, pytest

@pytest.fixture(scope="module")
def server():
    with open("built.txt", "a") as built:  # one line each time the expensive thing is built
        built.write(os.environ.get("PYTEST_XDIST_WORKER", "main") + "\\n")
    return "server"

@pytest.mark.parametrize("n", range(8))
def test_uses_the_server(server, n):
    assert server == "server"
'''

ALONE = '''
import os, pytest

@pytest.mark.parametrize("n", range(8))
def test_alone(n):
    with open(f"alone-{n}.txt", "w") as ran:
        ran.write(os.environ["PYTEST_XDIST_WORKER"])
'''


def suite(folder):
    (folder / "conftest.py").write_text('pytest_plugins = ["parallel"]\n', encoding="utf-8")
    (folder / "test_shared.py").write_text(SHARED, encoding="utf-8")
    (folder / "test_alone.py").write_text(ALONE, encoding="utf-8")
    # Each cell needs the one before it: the cells pass only when one kernel runs them all, in order.
    lesson = new_notebook(cells=[new_code_cell("total = 0")] + [new_code_cell(f"total += {n}\nassert total == {n * (n + 1) // 2}")
                                                             for n in range(1, 12)],
                          metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(lesson, folder / "lesson.ipynb")


def run(folder, *options):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTEST_XDIST_WORKER", None)
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--nbval-lax", "-n", "2",
                           *options, "lesson.ipynb", "test_shared.py", "test_alone.py"],
                          cwd=folder, env=env, capture_output=True, text=True, timeout=600)


def test_two_workers_keep_a_lessons_cells_and_a_files_shared_fixture_together(tmp_path):
    suite(tmp_path)
    result = run(tmp_path)
    assert result.returncode == 0, result.stdout[-3000:]
    assert "28 passed" in result.stdout.splitlines()[-1]  # 12 cells, 8 tests of each file
    assert (tmp_path / "built.txt").read_text().splitlines() in (["gw0"], ["gw1"])  # built once, by one worker
    ran_on = {(tmp_path / f"alone-{n}.txt").read_text() for n in range(8)}
    assert ran_on <= {"gw0", "gw1"}


READS = '''
import os, pathlib, pytest

LESSON = pathlib.Path(__file__).parent / "lesson.ipynb"

@pytest.fixture
def lesson_run():  # as tests/lesson_runs.py's: the run of the lesson at `path`
    return lambda path: (path.parent / "ran.txt").read_text()

@pytest.mark.parametrize("n", range(4))
@pytest.mark.parametrize("path", [LESSON])
def test_reads_the_lessons_run(path, lesson_run, n):
    assert lesson_run(path) == os.environ["PYTEST_XDIST_WORKER"]
'''


def test_a_test_that_reads_a_lessons_run_runs_after_its_cells_on_the_same_worker(tmp_path):
    # tests/lesson_runs.py keeps nbval's run of a lesson in the worker that ran it; the tests that read it must run
    # there, after the lesson's last cell (which writes down the worker it ran on).
    suite(tmp_path)
    lesson = nbformat.read(tmp_path / "lesson.ipynb", as_version=4)
    lesson.cells.append(new_code_cell('import os\nopen("ran.txt", "w").write(os.environ["PYTEST_XDIST_WORKER"])'))
    nbformat.write(lesson, tmp_path / "lesson.ipynb")
    (tmp_path / "test_reads.py").write_text(READS, encoding="utf-8")
    result = run(tmp_path, "test_reads.py")
    assert result.returncode == 0, result.stdout[-3000:]
    assert "33 passed" in result.stdout.splitlines()[-1]  # 13 cells, 8 + 8 tests, 4 readers


def test_without_the_plugins_groups_the_same_suite_fails(tmp_path):
    # The check above can fail: xdist's own --dist load hands out the first tests one by one, to each worker in turn,
    # so the lesson's cells are split between two kernels and the second cell finds no `total`.
    suite(tmp_path)
    (tmp_path / "conftest.py").write_text("", encoding="utf-8")
    result = run(tmp_path)
    assert result.returncode == 1
    assert "FAILED lesson.ipynb::Cell 1" in result.stdout, result.stdout[-3000:]


def test_the_slowest_units_go_first_and_the_hub_files_share_one_group():
    assert parallel.SLOW_FIRST, "the order of the slow units is measured and listed"
    assert len(set(parallel.SLOW_FIRST)) == len(parallel.SLOW_FIRST)
    root = TESTS.parent
    assert [path for path in parallel.SLOW_FIRST if not (root / path).exists()] == []
    assert [path for path in parallel.HUB if not (root / path).exists()] == []
    json.dumps(parallel.SLOW_FIRST)
