"""Where the tests find the real trec_eval, the oracle of the command: ``TREC_EVAL`` (9.0.8) and ``TREC_EVAL_10``
(10.0-rc3) when set, else ``shared/oracles/trec_eval/<version>/trec_eval`` beside the clone (the first ``shared``
folder found walking up from it, so a git worktree finds the one beside its main clone). Without a binary the tests
that need it skip, saying why.

``run_binary`` and ``run_command`` run one trec_eval command line through the binary and through
``python -m ndcg_teach`` (in this process), returning ``(exit status, stdout bytes, stderr text)``.
"""

import io
import os
import subprocess
from pathlib import Path

import pytest

from ndcg_teach.runs.cli import main

FOLDERS = {"9.0.8": "9.0.8", "10.0": "10.0-rc3"}
VARIABLES = {"9.0.8": "TREC_EVAL", "10.0": "TREC_EVAL_10"}


def _beside_the_clone(version):
    for folder in Path(__file__).resolve().parents[1].parents:
        candidate = folder / "shared" / "oracles" / "trec_eval" / FOLDERS[version] / "trec_eval"
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def binary(version):
    """The trec_eval binary of ``version`` ("9.0.8" or "10.0"), or None."""
    given = os.environ.get(VARIABLES[version])
    return Path(given) if given else _beside_the_clone(version)


TREC_EVAL, TREC_EVAL_10 = binary("9.0.8"), binary("10.0")


def needs(version):
    """Skip unless trec_eval ``version``'s binary was found."""
    return pytest.mark.skipif(
        binary(version) is None,
        reason=f"no trec_eval {version} binary: set {VARIABLES[version]}=/path/to/trec_eval or put it at "
               f"shared/oracles/trec_eval/{FOLDERS[version]}/trec_eval beside the clone")


def run_binary(version, arguments, stdin=None):
    done = subprocess.run([str(binary(version)), *map(str, arguments)], capture_output=True, input=stdin, timeout=60)
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")


def run_command(version, arguments):
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8", errors="surrogateescape", newline="\n", write_through=True)
    err = io.StringIO()
    status = main(["--trec-eval", version, *map(str, arguments)], out=out, err=err)
    out.flush()
    return status, raw.getvalue(), err.getvalue()
