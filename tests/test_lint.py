"""The linter: ruff, configured in pyproject.toml and pinned in requirements-dev.txt, finds nothing."""

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    assert importlib.util.find_spec("ruff"), "ruff is missing: pip install -r requirements-dev.txt"
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True,
                            text=True, check=False, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_pre_commit_hook_runs_the_pinned_ruff():
    pinned = re.search(r"^ruff==(\S+)$", (ROOT / "requirements-dev.txt").read_text(), re.MULTILINE).group(1)
    hook = (ROOT / ".pre-commit-config.yaml").read_text()
    assert "astral-sh/ruff-pre-commit" in hook and re.search(rf"^\s+rev: v{re.escape(pinned)}$", hook, re.MULTILINE)
