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
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid

import pytest
from numeric_settings import CHILD, probe, second_setting  # tools/, on pytest's pythonpath

# The live class-hub tests (test_hub_live.py, test_hub_graded.py) share the fixture of tests/hub_fixture.py, and
# tests/fast_suite.py gives `make test-fast` its --fast: plugins, since tests/browser/conftest.py already owns the
# module name `conftest` on the tests' path.
pytest_plugins = ["hub_fixture", "fast_suite"]

SECOND = pytest.StashKey()  # the second run: (process, log file, description, notebook count)


def pytest_configure(config):
    if os.environ.get(CHILD):
        _kernels_over_unix_sockets(config)


def _kernels_over_unix_sockets(config):
    """In the second run, nbval's kernels talk over Unix sockets instead of TCP ports.

    Two runs starting kernels at the same time draw the same free port now and then: the kernel that binds it second
    dies ("Address already in use") and nbval reports a kernel that did not start within 60 s.
    """
    import nbval.kernel
    from jupyter_client.manager import KernelManager

    folder = tempfile.mkdtemp(prefix="nbval-kernels-")
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))

    class UnixSocketKernelManager(KernelManager):
        def __init__(self, **kwargs):
            super().__init__(transport="ipc", ip=os.path.join(folder, uuid.uuid4().hex), **kwargs)

    nbval.kernel.KernelManager = UnixSocketKernelManager


class SecondSetting(pytest.Item):
    """Waits for the lessons' run in the second setting; fails with nbval's report when a checked cell differs."""

    def __init__(self, *, process, log, description, **kwargs):
        super().__init__(**kwargs)
        self.process, self.log, self.description = process, log, description

    def runtest(self):
        if self.process.wait() != 0:
            raise AssertionError(self.description)

    def repr_failure(self, excinfo):
        with open(self.log, encoding="utf-8", errors="replace") as log:
            lines = log.read().splitlines()
        return "\n".join([f"the lessons in {self.description} (nbval's report, last lines):", *lines[-200:]])

    def reportinfo(self):
        return self.path, None, "second numeric setting"


def english_twin(path):
    """A Chinese lesson's English twin (notebooks/zh-CN/NN-slug.zh-CN.ipynb -> notebooks/NN-slug.ipynb); else ``path``."""
    if path.parent.name == "zh-CN" and path.name.endswith(".zh-CN.ipynb"):
        twin = path.parent.parent / path.name.replace(".zh-CN.ipynb", ".ipynb")
        if twin.exists():
            return twin
    return path


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
        config.stash[SECOND] = None
        return
    description = f"a second numeric setting ({'; '.join(changed)}; one BLAS thread)"
    log = tempfile.NamedTemporaryFile("w", prefix="second-setting-", suffix=".log", delete=False)
    mode = "--nbval" if config.option.nbval and not config.option.nbval_lax else "--nbval-lax"
    process = subprocess.Popen([sys.executable, "-m", "pytest", "-q", mode, *notebooks], cwd=config.rootpath,
                               env={**os.environ, **variables}, stdout=log, stderr=subprocess.STDOUT,
                               start_new_session=True)
    log.close()
    config.stash[SECOND] = process, log.name, description, len(notebooks)
    items.append(SecondSetting.from_parent(session, name="second numeric setting", process=process, log=log.name,
                                           description=description))


def pytest_terminal_summary(terminalreporter, config):
    if config.stash.get(SECOND, False) is None:
        terminalreporter.write_line("no second numeric setting on this machine: no OpenBLAS kernel to switch, no "
                                    "NumPy SIMD loops to turn off")
    elif SECOND in config.stash:
        process, log, description, count = config.stash[SECOND]
        last = ""
        if process.poll() is not None:
            with open(log, encoding="utf-8", errors="replace") as text:
                last = ([line for line in text.read().splitlines() if line.strip()] or [""])[-1]
        terminalreporter.write_line(f"the lessons also ran in {description}, {count} notebook{'s' * (count != 1)} (a Chinese lesson as "
                                    f"its English twin): {last or 'stopped early'}")


def pytest_unconfigure(config):
    if config.stash.get(SECOND, None):
        process, log, _description, _count = config.stash[SECOND]
        if process.poll() is None:  # the run stopped early (-x, Ctrl-C): so does the second one
            if hasattr(os, "killpg"):
                os.killpg(process.pid, signal.SIGTERM)  # its own session: pytest and the kernels it started
            else:
                process.terminate()
            process.wait()
        os.unlink(log)
