"""No number a lesson checks may depend on the machine: nbval runs the lessons a second time, in another numeric setting.

Whenever a pytest run collects lessons for nbval (``make test``, or ``pytest --nbval-lax notebooks/NN-….ipynb``),
the same notebooks also run, at the same time in a second process, in the setting of tools/numeric_settings.py:
OpenBLAS on another kernel with one thread, NumPy's SIMD loops (AVX2, AVX-512, ...) off, and glibc's libm without
its FMA and AVX2 variants. A number that sits on a rounding tie and is computed through any of these (0.15975,
printed 0.1598 on one CPU and 0.1597 on another) is likely to print differently there, and the item ``second
numeric setting`` at the end of the run then fails with nbval's report of the cells that differ. A machine with
neither an OpenBLAS kernel to switch nor SIMD loops to turn off runs no second time, and says so.

A Chinese lesson runs there as its English twin: tests/test_zh_cn.py holds the twins to the same code token for
token (only the strings a learner reads are translated) and to the same numbers in every checked output, so the
Chinese edition's numbers change in the second setting exactly when the English ones do. That halves the second
run's cost.
"""

import os
import signal
import subprocess
import sys
import tempfile

import pytest
from numeric_settings import CHILD, probe, second_setting  # tools/, on pytest's pythonpath

# Where the environment sets PYTHONDONTWRITEBYTECODE (this project's machines do), every one of the suite's ~400 Python
# processes (kernels, Jupyter servers, nbgrader, the nested pytest runs) would compile the package and the tests from
# source again. The suite writes bytecode (into __pycache__, which git ignores) whatever it says, for this process and
# every process it starts.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# Plugins, since tests/browser/conftest.py already owns the module name `conftest` on the tests' path: the live
# class-hub tests (test_hub_live.py, test_hub_graded.py) share the fixture of tests/hub_fixture.py, tests/fast_suite.py
# gives `make test-fast` its --fast, tests/parallel.py shares the tests between pytest-xdist's workers, and
# tests/lesson_runs.py lets nbval's run of a lesson serve the checks that read a lesson run.
pytest_plugins = ["hub_fixture", "fast_suite", "parallel", "lesson_runs"]

SUMMARY = pytest.StashKey()  # the line the run ends with about the second numeric setting
RUNNING = []  # the second run's item, while its process may still run (this process's only one)


def pytest_configure(config):
    # In every run, nbval's kernels talk over Unix sockets (tests/kernels.py says why).
    import nbval.kernel
    from kernels import UnixSocketKernelManager

    nbval.kernel.KernelManager = UnixSocketKernelManager


class SecondSetting(pytest.Item):
    """Runs the lessons in the second setting; fails with nbval's report when a checked cell differs.

    A plain run starts the lessons there as soon as it has collected them, beside its own tests, and this item (the
    last) waits for them. Under pytest-xdist every worker collects this item and the one that is given it starts the
    run in ``setup``, so the lessons run there once, not once per worker.
    """

    def __init__(self, *, command, env, description, count, **kwargs):
        super().__init__(**kwargs)
        self.command, self.env, self.description, self.count = command, env, description, count
        self.process = self.log = None

    def start(self):
        with tempfile.NamedTemporaryFile("w", prefix="second-setting-", suffix=".log", delete=False) as log:
            self.process = subprocess.Popen(self.command, cwd=self.config.rootpath, env=self.env, stdout=log,
                                            stderr=subprocess.STDOUT, start_new_session=True)
        self.log = log.name
        RUNNING.append(self)

    def setup(self):
        if self.process is None:
            self.start()

    def runtest(self):
        if self.process.wait() != 0:
            raise AssertionError(self.description)

    def lines(self):
        with open(self.log, encoding="utf-8", errors="replace") as log:
            return log.read().splitlines()

    def repr_failure(self, excinfo):
        return "\n".join([f"the lessons in {self.description} (nbval's report, last lines):", *self.lines()[-200:]])

    def reportinfo(self):
        return self.path, None, "second numeric setting"

    def summary(self):
        last = ([line for line in self.lines() if line.strip()] or [""])[-1] if self.process.poll() is not None else ""
        return (f"the lessons also ran in {self.description}, {self.count} notebook{'s' * (self.count != 1)} (a "
                f"Chinese lesson as its English twin): {last or 'stopped early'}")

    def stop(self):
        """End the run if it still runs (-x, Ctrl-C: the second one stops too) and remove its log."""
        if self.process.poll() is None:
            if hasattr(os, "killpg"):
                os.killpg(self.process.pid, signal.SIGTERM)  # its own session: pytest and the kernels it started
            else:
                self.process.terminate()
            self.process.wait()
        os.unlink(self.log)


def english_twin(path):
    """A Chinese lesson's English twin (notebooks/zh-CN/NN-slug.zh-CN.ipynb -> notebooks/NN-slug.ipynb); else ``path``."""
    if path.parent.name == "zh-CN" and path.name.endswith(".zh-CN.ipynb"):
        twin = path.parent.parent / path.name.replace(".zh-CN.ipynb", ".ipynb")
        if twin.exists():
            return twin
    return path


def is_worker(config):
    """Whether this process is a pytest-xdist worker (its subprocesses inherit PYTEST_XDIST_WORKER, so not that)."""
    return hasattr(config, "workerinput")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(session, config, items):
    notebooks = list(dict.fromkeys(str(english_twin(item.path)) for item in items
                                   if type(item).__module__ == "nbval.plugin"))
    if not notebooks or os.environ.get(CHILD) or config.option.collectonly:
        return
    here = probe()
    variables = second_setting(here)
    there = probe({**os.environ, **variables})
    changed = [f"BLAS {' '.join(there['blas'])} (here {' '.join(here['blas'])})"] if there["blas"] != here["blas"] else []
    if there["simd"] != here["simd"]:
        changed.append(f"NumPy without {' '.join(sorted(set(here['simd']) - set(there['simd'])))}")
    if not changed:
        config.stash[SUMMARY] = ("no second numeric setting on this machine: no OpenBLAS kernel to switch, no NumPy "
                                 "SIMD loops to turn off")
        return
    mode = "--nbval" if config.option.nbval and not config.option.nbval_lax else "--nbval-lax"
    item = SecondSetting.from_parent(
        session, name="second numeric setting", command=[sys.executable, "-m", "pytest", "-q", mode, *notebooks],
        env={**os.environ, **variables}, count=len(notebooks),
        description=f"a second numeric setting ({'; '.join(changed)}; one BLAS thread)")
    if is_worker(config):
        items.insert(0, item)  # the longest unit of work: it starts first (tests/parallel.py)
    else:
        item.start()
        items.append(item)


def pytest_sessionfinish(session):
    config = session.config
    for item in RUNNING:
        config.stash[SUMMARY] = item.summary()
    if is_worker(config) and SUMMARY in config.stash:
        config.workeroutput["second setting"] = config.stash[SUMMARY]


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's controller collects nothing: it prints the line of the worker that ran the item (each worker
    says alike when the machine has no second setting)."""
    line = getattr(node, "workeroutput", {}).get("second setting")
    if line:
        node.config.stash[SUMMARY] = line


def pytest_terminal_summary(terminalreporter, config):
    if SUMMARY in config.stash:
        terminalreporter.write_line(config.stash[SUMMARY])


def pytest_unconfigure(config):
    while RUNNING:
        RUNNING.pop().stop()
