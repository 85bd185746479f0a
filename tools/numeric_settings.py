"""The second numeric setting the lessons also run in (conftest.py): another BLAS kernel, NumPy's SIMD loops off.

A number computed through BLAS, NumPy's dispatched loops (``exp``, ``log``, ``log2``, ...) or libm changes in its
last bits from one CPU to another; one that sits on a rounding tie then prints differently. The setting here
changes all three on this machine, so that a lesson printing such a number fails ``make test`` here too.
"""

import json
import platform
import subprocess
import sys

CHILD = "NDCG_TEACH_SECOND_SETTING"  # set in the second run, so that it starts no third
KERNEL = "Nehalem"  # SSE4.2 without AVX or FMA: not the kernel OpenBLAS picks on any x86-64 CPU of the last decade
PROBE = """
import json
import numpy as np
from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
np.ones(2) @ np.ones(2)  # OpenBLAS picks its kernel when it is first used
try:
    from threadpoolctl import threadpool_info
    blas = sorted({f"{info['internal_api']} {info.get('architecture')}" for info in threadpool_info() if info['user_api'] == 'blas'})
except ImportError:
    blas = []
print(json.dumps({"simd": [f for f in __cpu_dispatch__ if __cpu_features__.get(f)], "blas": blas}))
"""


def probe(environment=None):
    """The NumPy SIMD features in use and the BLAS kernel, as a Python started with ``environment`` sees them."""
    result = subprocess.run([sys.executable, "-c", PROBE], env=environment, capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def second_setting(here):
    """The variables of the second setting, given what this machine uses (``here``, from :func:`probe`)."""
    variables = {CHILD: "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    if here["simd"]:
        variables["NPY_DISABLE_CPU_FEATURES"] = " ".join(here["simd"])
    if platform.machine().lower() in ("x86_64", "amd64"):
        variables["OPENBLAS_CORETYPE"] = KERNEL
        variables["GLIBC_TUNABLES"] = "glibc.cpu.hwcaps=-AVX2,-FMA,-AVX512F"
    return variables
