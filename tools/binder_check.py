"""Prove the course runs from binder/requirements.txt alone, as it will on Binder.

Builds ``.venv-binder`` (when missing, or always with ``--fresh``) and installs
binder/requirements.txt into it from the repository root, exactly as Binder
does: no dev requirements, and the package installed from ``.`` rather than
imported from the work tree.  Then executes every notebook in notebooks/ in a
kernel of that environment and prints one PASS or FAIL line per notebook.

Usage (from the repository root)::

    python tools/binder_check.py            # reuse .venv-binder when it exists
    python tools/binder_check.py --fresh    # rebuild it first

Exit status: 0 when every notebook ran, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = ROOT / ".venv-binder"
REQUIREMENTS = ROOT / "binder" / "requirements.txt"
NOTEBOOKS = ROOT / "notebooks"


def bin_dir(env: Path) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin")


def build_environment(env: Path, fresh: bool) -> None:
    if fresh and env.exists():
        shutil.rmtree(env)
    python = bin_dir(env) / "python"
    stamp = env / ".binder-requirements"
    if stamp.exists() and stamp.read_text() == REQUIREMENTS.read_text():
        # The requirements are in place; the package itself may have changed since.
        pip = [str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--force-reinstall", "."]
        subprocess.run(pip, cwd=ROOT, check=True)
        return
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_venv.py"), str(env)], check=True)
    # Binder runs `pip install -r binder/requirements.txt` from the repository root, where `.` is the package.
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-r", str(REQUIREMENTS)], cwd=ROOT, check=True)
    stamp.write_text(REQUIREMENTS.read_text())


def kernel_environment(env: Path, scratch: Path) -> dict[str, str]:
    """Variables that make ``python3`` mean the binder environment's kernel and nothing from this machine."""
    variables = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    variables["PATH"] = f"{bin_dir(env)}{os.pathsep}{variables.get('PATH', '')}"
    variables["JUPYTER_PATH"] = str(env / "share" / "jupyter")
    variables["JUPYTER_DATA_DIR"] = str(scratch / "data")
    variables["JUPYTER_CONFIG_DIR"] = str(scratch / "config")
    variables["JUPYTER_RUNTIME_DIR"] = str(scratch / "runtime")
    variables["IPYTHONDIR"] = str(scratch / "ipython")
    variables["MPLBACKEND"] = "Agg"
    return variables


def run_notebook(env: Path, notebook: Path, scratch: Path) -> tuple[bool, str]:
    result = subprocess.run(
        [
            str(bin_dir(env) / "jupyter"),
            "nbconvert",
            "--to",
            "notebook",
            "--execute",
            "--ExecutePreprocessor.kernel_name=python3",
            "--ExecutePreprocessor.timeout=600",
            "--output-dir",
            str(scratch / "executed"),
            str(notebook),
        ],
        cwd=notebook.parent,
        env=kernel_environment(env, scratch),
        capture_output=True,
        text=True,
    )
    if result.returncode == 0:
        return True, ""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    return False, "\n    ".join(lines[-6:])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fresh", action="store_true", help="rebuild .venv-binder before running")
    parser.add_argument("--env", type=Path, default=ENV, help="where to build the environment (default: .venv-binder)")
    args = parser.parse_args(argv)
    build_environment(args.env.resolve(), args.fresh)
    version = subprocess.run(
        [str(bin_dir(args.env) / "python"), "--version"], capture_output=True, text=True, check=True
    ).stdout.strip()
    print(f"binder environment: {args.env} ({version}, binder/requirements.txt only)", flush=True)
    failed = 0
    notebooks = sorted(NOTEBOOKS.glob("*.ipynb"))
    with tempfile.TemporaryDirectory(prefix="binder-check-") as tmp:
        for notebook in notebooks:
            start = time.perf_counter()
            passed, detail = run_notebook(args.env.resolve(), notebook, Path(tmp))
            seconds = time.perf_counter() - start
            print(f"{'PASS' if passed else 'FAIL'} notebooks/{notebook.name} ({seconds:.1f} s)", flush=True)
            if not passed:
                failed += 1
                print(f"    {detail}", flush=True)
    print(f"{len(notebooks) - failed} passed, {failed} failed")
    return 1 if failed or not notebooks else 0


if __name__ == "__main__":
    sys.exit(main())
