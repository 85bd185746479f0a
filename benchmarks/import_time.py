"""How long `import ndcg_teach` takes, against `import numpy` measured the same way.

Each import runs in a fresh interpreter, alternating the two, so both see the
same machine load. Prints medians in ms and what ndcg_teach adds on top of
NumPy (the only thing it needs), and lists any heavy module it pulled in.

Usage: python benchmarks/import_time.py [--runs 21]
"""

import argparse
import json
import statistics
import subprocess
import sys

PROBE = (
    "import json, sys, time; t = time.perf_counter(); import {module}; "
    "print(json.dumps([time.perf_counter() - t, sorted(m for m in sys.modules "
    "if m.split('.')[0] in ('matplotlib', 'ipywidgets', 'anywidget', 'traitlets', 'IPython'))]))"
)


def measure(module):
    output = subprocess.run([sys.executable, "-c", PROBE.format(module=module)], capture_output=True, text=True, check=True)
    seconds, heavy = json.loads(output.stdout)
    return seconds * 1000, heavy


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=21)
    runs = parser.parse_args().runs
    numpy_ms, ours_ms, heavy = [], [], set()
    for _ in range(runs):
        numpy_ms.append(measure("numpy")[0])
        elapsed, loaded = measure("ndcg_teach")
        ours_ms.append(elapsed)
        heavy.update(loaded)
    numpy_median, ours_median = statistics.median(numpy_ms), statistics.median(ours_ms)
    print(f"runs: {runs} fresh interpreters each")
    print(f"import numpy       median {numpy_median:7.1f} ms")
    print(f"import ndcg_teach  median {ours_median:7.1f} ms  (includes numpy)")
    print(f"ndcg_teach adds    {ours_median - numpy_median:7.1f} ms  ratio {ours_median / numpy_median:.2f}x numpy alone")
    print(f"heavy modules imported: {sorted(heavy) or 'none'}")


if __name__ == "__main__":
    main()
