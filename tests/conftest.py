"""Shared by every test: the repository's scripts import by name.

``tools/`` (``import build_lessons``, ``import lab_setup``) and the browser
tests' harness (``import jupyter_harness``: a throw-away Jupyter server, also
useful without a browser).
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE.parent / "tools", HERE / "browser"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
