"""The package's layout tells its story (issue 34): a few rooms named by purpose, each saying what it may import.

Every subpackage at the top of ndcg_teach is a room, and its docstring says "May import: ``core``, ``i18n``." (or
"nothing of the package"). The test reads every import of every module with ``ast`` (at the top of a module and
inside functions alike), resolves the relative ones, and fails on an import of another room that the importing room
does not declare, and on an import of a module path that no longer exists (the old paths of _moved.py are for
others; the package uses the new ones). The declared directions form no circle, and the core may import ``i18n``
alone: so the core imports nothing above it.
"""

import ast
import functools
import re
import shutil
from pathlib import Path

import ndcg_teach

PACKAGE = Path(ndcg_teach.__file__).resolve().parent
# The top of the package: the flat API and its command, the old paths kept for one release, and the rooms.
TOP = {"__init__.py", "__main__.py", "_moved.py", "core", "i18n", "runs", "statistics", "online", "plots", "course",
       "widgets", "exercises", "jupyter"}
# Imports made inside a function that go beyond the room's declaration, each with why (and the docstring of the
# room says so too): (importing module, room imported).
LAZY = {("ndcg_teach.runs.evaluation", "widgets"): "Evaluation.explore opens the explorer of one query"}
FACE = "ndcg_teach"  # the flat API (`import ndcg_teach as nt`), which loads every room


def declared(package):
    """{room: the rooms its docstring says it may import}."""
    rooms = {}
    for init in sorted(package.glob("*/__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        found = re.search(r"^May import: (.*?)(?:;|\.\s*$|\.\s*\n)", doc, re.M | re.S)
        rooms[init.parent.name] = None if found is None else set(re.findall(r"``(\w+)``", found.group(1)))
    return rooms


def module_name(path, package):
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and parts[1] not in ("__main__", "_moved")) else FACE


@functools.lru_cache
def imports(package):
    """Every import of the package's own modules, (module, line, imported module, made inside a function), and the
    names of its modules. Read once per package folder: the tests only read the real package, and change a copy."""
    modules = {module_name(path, package): path for path in package.rglob("*.py") if "__pycache__" not in path.parts}
    found = []
    for module, path in sorted(modules.items()):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        inside = {id(node) for function in ast.walk(tree) if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef))
                  for node in ast.walk(function)}
        base = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                parts = base.split(".")
                source = ".".join(parts[:len(parts) - node.level + 1] + [node.module or ""]).strip(".") if node.level \
                    else node.module
                targets = [f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source
                           for alias in node.names]
            else:
                continue
            found += [(module, node.lineno, target, id(node) in inside) for target in targets
                      if target.split(".")[0] == package.name]
    return found, set(modules)


def violations(package):
    """What breaks the rooms' declarations, one line each."""
    rooms, (found, modules) = declared(package), imports(package)
    problems = []
    for module, line, target, lazy in found:
        where, room, other = f"{module}:{line} imports {target}", room_of(module), room_of(target)
        if target not in modules:
            problems.append(f"{where}: no module of the package (an old path?)")
        elif room not in (FACE, other) and other not in (rooms.get(room) or set()) and not (
                lazy and (module, other) in LAZY):
            problems.append(f"{where}: {room} may not import {other}")
    return problems


def test_the_top_of_the_package_holds_the_rooms_and_little_else():
    entries = {path.name for path in PACKAGE.iterdir() if path.name != "__pycache__"}
    assert entries == TOP
    assert len(TOP) <= 13


def test_every_room_says_what_it_holds_and_what_it_may_import():
    rooms = declared(PACKAGE)
    assert set(rooms) == {name for name in TOP if "." not in name}
    assert {room: allowed for room, allowed in rooms.items() if allowed is None} == {}
    assert {room: allowed - set(rooms) - {FACE} for room, allowed in rooms.items() if allowed - set(rooms) - {FACE}} == {}


def test_the_directions_form_no_circle_and_the_core_imports_nothing_above_it():
    rooms = declared(PACKAGE)
    assert rooms["i18n"] == set() and rooms["core"] == {"i18n"} and rooms["jupyter"] == set()
    placed = []
    while len(placed) < len(rooms):
        ready = sorted(room for room, allowed in rooms.items() if room not in placed and allowed - {FACE} <= set(placed))
        assert ready, f"a circle among {sorted(set(rooms) - set(placed))}"
        placed += ready
    assert [room for room, allowed in rooms.items() if FACE in allowed] == ["exercises"]  # what a learner writes


def test_every_import_keeps_to_its_rooms_declaration():
    assert violations(PACKAGE) == []


def test_each_lazy_exception_is_still_made_and_only_inside_a_function():
    found, _ = imports(PACKAGE)
    made = {(module, room_of(target)) for module, _, target, lazy in found if lazy}
    assert set(LAZY) <= made
    assert not {(module, room_of(target)) for module, _, target, lazy in found if not lazy} & set(LAZY)


def test_the_check_notices_wrong_imports(tmp_path):
    copy = tmp_path / "ndcg_teach"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))

    def add(relative, text):
        path = copy / relative
        path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")

    add("core/gains.py", "\nfrom ..runs import trec\n")
    add("core/metrics/dcg.py", "\n\ndef _late():\n    from ...widgets import explorer\n")
    add("statistics/agreement.py", "\nfrom ..significance import paired_t_test\n")
    add("runs/judging.py", "\nfrom ..widgets.run_query import QueryExplorer\n")
    add("online/interleaving.py", "\nimport ndcg_teach\n")
    assert sorted(problem.split(" imports ")[0].split(":")[0] + ": " + problem.split(": ")[-1]
                  for problem in violations(copy)) == [
        "ndcg_teach.core.gains: core may not import runs",
        "ndcg_teach.core.metrics.dcg: core may not import widgets",
        "ndcg_teach.online.interleaving: online may not import ndcg_teach",
        "ndcg_teach.runs.judging: runs may not import widgets",
        "ndcg_teach.statistics.agreement: no module of the package (an old path?)",
    ]
