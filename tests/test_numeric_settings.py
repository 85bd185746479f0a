"""The second numeric setting the lessons also run in (tools/numeric_settings.py, started by conftest.py).

It must compute differently from this machine's own setting, or the second run of the lessons proves nothing; and a
lesson whose checked output follows the last bits of a computation must fail ``make test``.
"""

import os
import platform
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from numeric_settings import CHILD, probe, second_setting

ROOT = Path(__file__).resolve().parent.parent
HERE = probe()
OPENBLAS_X86 = platform.machine().lower() in ("x86_64", "amd64") and any("openblas" in blas for blas in HERE["blas"])
needs_openblas_x86 = pytest.mark.skipif(not OPENBLAS_X86, reason="the second setting switches OpenBLAS's kernel only "
                                        f"on x86-64 (here {platform.machine()}, BLAS {HERE['blas'] or 'unknown'})")

COMPUTE = """
import hashlib, math
import numpy as np
rng = np.random.default_rng(0)
a, x = rng.random((64, 64)), rng.random(20_000) * 20 + 0.1
v = float((a @ a).sum())
for name, values in (("BLAS", a @ a), ("NumPy log2", np.log2(x)), ("NumPy exp", np.exp(x)),
                     ("libm exp", np.array([math.exp(t) for t in x]))):
    print(name, hashlib.sha256(values.tobytes()).hexdigest()[:16])
"""


def computed(environment=None):
    result = subprocess.run([sys.executable, "-c", COMPUTE], env=environment, capture_output=True, text=True, check=True)
    return dict(line.rsplit(" ", 1) for line in result.stdout.splitlines())


@needs_openblas_x86
def test_the_second_setting_changes_the_blas_kernel_numpys_loops_and_libm():
    there = probe({**os.environ, **second_setting(HERE)})
    assert there["blas"] != HERE["blas"] and HERE["simd"] and not there["simd"]
    mine, other = computed(), computed({**os.environ, **second_setting(HERE)})
    assert [name for name in mine if mine[name] == other[name]] == []  # every one of them computes other bits


@needs_openblas_x86
@pytest.mark.skipif(bool(os.environ.get(CHILD)), reason="already in the second setting")
def test_a_lesson_printing_the_last_bits_of_a_sum_fails_in_the_second_setting(tmp_path):
    # A checked cell prints a BLAS sum to the last bit, as stored on this machine: it passes here, not there.
    value = float((np.random.default_rng(0).random((64, 64)) @ np.random.default_rng(0).random((64, 64))).sum())
    notebook = new_notebook(cells=[
        new_code_cell("import numpy as np\nrng = np.random.default_rng(0)\na = rng.random((64, 64))\n"
                      "b = np.random.default_rng(0).random((64, 64))", execution_count=1),
        new_code_cell("# NBVAL_CHECK_OUTPUT\nprint(float((a @ b).sum()).hex())", execution_count=2,
                      outputs=[new_output("stream", name="stdout", text=value.hex() + "\n")]),
    ], metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}})
    nbformat.write(notebook, tmp_path / "lesson.ipynb")
    shutil.copy(ROOT / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "tools").mkdir()
    shutil.copy(ROOT / "tools" / "numeric_settings.py", tmp_path / "tools" / "numeric_settings.py")
    # The root conftest.py loads the hub fixture from tests/ as a plugin: the copy finds it there.
    (tmp_path / "pyproject.toml").write_text(f'[tool.pytest.ini_options]\npythonpath = ["tools", "{ROOT / "tests"}"]\n'
                                             'addopts = "--nbval-lax -p no:cacheprovider"\n')
    result = subprocess.run([sys.executable, "-m", "pytest", "lesson.ipynb"], cwd=tmp_path, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 1, result.stdout[-3000:]
    assert "1 failed, 2 passed" in result.stdout.splitlines()[-1], result.stdout[-4000:]  # the lesson's two cells here; the second run there
    assert "Cell outputs differ" in result.stdout and "second numeric setting" in result.stdout
