"""Prove the course runs from binder/requirements.txt alone, as it will on Binder.

Builds ``.venv-binder`` (when missing, or always with ``--fresh``) and installs
binder/requirements.txt into it, as Binder does: no dev requirements.  Then,
in a fresh copy of the repository's tracked files (Binder builds from a
clone), runs binder/postBuild with that environment first on the PATH: it
installs the package with ``--no-deps`` (whose data file enables the course's
server extension) and runs ``python -m ndcg_teach.jupyter.setup`` (the JupyterLab settings). ``pip check`` must
then find every pin compatible (jupyterlab and notebook pins move together),
postBuild must leave no ``build/`` or ``*.egg-info`` behind, the
environment's Jupyter server must load ndcg_teach's server extension (saved
widget outputs keep their picture), its matplotlib must draw Chinese with the
course's font (Noto Sans SC, from the pins), and every notebook of the copy must
run in a kernel of that environment without a "Glyph missing" warning (a
figure with boxes for Chinese).  One PASS or FAIL line per check and per notebook.

Usage (from the repository root)::

    python tools/binder_check.py            # reuse .venv-binder when it exists
    python tools/binder_check.py --fresh    # rebuild it first

Exit status: 0 when every notebook ran, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = ROOT / ".venv-binder"
REQUIREMENTS = ROOT / "binder" / "requirements.txt"


def bin_dir(env: Path) -> Path:
    return env / ("Scripts" if os.name == "nt" else "bin")


def build_environment(env: Path, fresh: bool) -> None:
    """The pinned layer: binder/requirements.txt alone, reused while the file is unchanged (as Binder caches it)."""
    if fresh and env.exists():
        shutil.rmtree(env)
    python = bin_dir(env) / "python"
    stamp = env / ".binder-requirements"
    if stamp.exists() and stamp.read_text() == REQUIREMENTS.read_text():
        return
    subprocess.run([sys.executable, str(ROOT / "tools" / "make_venv.py"), str(env)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-r", str(REQUIREMENTS)], cwd=ROOT, check=True)
    stamp.write_text(REQUIREMENTS.read_text())


def tracked_copy(destination: Path) -> Path:
    """The repository's tracked files copied to ``destination`` (all files but virtual environments without git)."""
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode == 0:
        for name in listed.stdout.splitlines():
            source, target = ROOT / name, destination / name
            if source.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target)
    else:
        shutil.copytree(ROOT, destination, ignore=shutil.ignore_patterns(".venv*", ".git", "build", "*.egg-info"))
    return destination


def post_build(env: Path, repository: Path) -> tuple[bool, str]:
    """Run binder/postBuild in ``repository`` as Binder does: from its root, the environment first on the PATH."""
    variables = {key: value for key, value in os.environ.items() if key not in {"PYTHONPATH", "VIRTUAL_ENV"}}
    variables["PATH"] = f"{bin_dir(env)}{os.pathsep}{variables.get('PATH', '')}"
    variables["HOME"] = str(repository)
    result = subprocess.run(["bash", "binder/postBuild"], cwd=repository, env=variables, capture_output=True, text=True)
    if result.returncode != 0:
        return False, (result.stdout + result.stderr).strip()
    left = [path.name for path in (*repository.glob("build"), *repository.glob("*.egg-info"))]
    if left:
        return False, f"postBuild left {', '.join(left)} in the learner's home"
    return True, ""


def server_extension(env: Path, scratch: Path) -> tuple[bool, str]:
    """postBuild's install enabled ndcg_teach's server extension, and the environment's Jupyter server loads it."""
    result = subprocess.run([str(bin_dir(env) / "jupyter"), "server", "extension", "list"], env=kernel_environment(env, scratch),
                            capture_output=True, text=True)
    text = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)  # it colours "enabled" and "OK"
    listed = [line.strip() for line in text.splitlines() if "ndcg_teach.jupyter.server_extension" in line]
    if any(line.startswith("ndcg_teach.jupyter.server_extension") and line.endswith("OK") for line in listed):
        return True, ""
    return False, "\n    ".join(listed) or "jupyter server extension list does not name ndcg_teach.jupyter.server_extension"


def chinese_font(env: Path, scratch: Path) -> tuple[bool, str]:
    """The environment's matplotlib draws Chinese with the font the pins install (ndcg_teach/plots/fonts.py), not a system one."""
    code = "from ndcg_teach.plots import fonts; print(fonts.chinese_font(), fonts.chinese_font() == fonts.PACKAGED_FONT)"
    result = subprocess.run([str(bin_dir(env) / "python"), "-c", code], env=kernel_environment(env, scratch),
                            capture_output=True, text=True)
    found = result.stdout.split()
    if result.returncode == 0 and found[-1:] == ["True"]:
        return True, ""
    return False, f"figures would draw Chinese with {' '.join(found[:-1]) or result.stderr.strip()!r}, not the course's font"


GLYPH_WARNING = re.compile(r".*(?:missing from font|does not have a glyph|No Chinese font found).*")


def glyph_warnings(executed: Path) -> list[str]:
    """The lines of an executed notebook's stderr where matplotlib says it drew a character as a box."""
    notebook = json.loads(executed.read_text(encoding="utf-8"))
    return [line for cell in notebook["cells"] for output in cell.get("outputs", [])
            if output.get("name") == "stderr" for line in GLYPH_WARNING.findall("".join(output["text"]))]


def pip_check(env: Path) -> tuple[bool, str]:
    """``pip check``: every installed package's requirements are met by the pins."""
    result = subprocess.run([str(bin_dir(env) / "python"), "-m", "pip", "check"], capture_output=True, text=True)
    return result.returncode == 0, (result.stdout + result.stderr).strip()


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
        warned = glyph_warnings(scratch / "executed" / notebook.name)
        return not warned, "\n    ".join(warned[:6])
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
    with tempfile.TemporaryDirectory(prefix="binder-check-") as tmp:
        repository = tracked_copy(Path(tmp) / "repository")
        for name, (passed, detail) in (
            ("binder/postBuild", post_build(args.env.resolve(), repository)),
            ("pip check", pip_check(args.env.resolve())),
            ("server extension (saved widgets keep their picture)", server_extension(args.env.resolve(), Path(tmp))),
            ("Chinese font (figures draw Chinese with Noto Sans SC)", chinese_font(args.env.resolve(), Path(tmp))),
        ):
            print(f"{'PASS' if passed else 'FAIL'} {name}", flush=True)
            if not passed:
                failed += 1
                print(f"    {detail}", flush=True)
        notebooks = sorted((repository / "notebooks").glob("*.ipynb")) + sorted((repository / "notebooks" / "zh-CN").glob("*.ipynb"))
        for notebook in notebooks:
            start = time.perf_counter()
            passed, detail = run_notebook(args.env.resolve(), notebook, Path(tmp))
            seconds = time.perf_counter() - start
            print(f"{'PASS' if passed else 'FAIL'} {notebook.relative_to(repository).as_posix()} ({seconds:.1f} s)", flush=True)
            if not passed:
                failed += 1
                print(f"    {detail}", flush=True)
    print(f"{failed} failed")
    return 1 if failed or not notebooks else 0


if __name__ == "__main__":
    sys.exit(main())
