"""Every table a lesson prints, in both editions, lines up on a terminal: columns are padded by display width.

A Chinese character takes two columns; a table padded by ``len()`` (``f"{name:>12}"``, ``str.ljust``) pushes every
column after a Chinese cell one column right per character. The rule is tests/text_tables.py's.
"""

from pathlib import Path

import nbformat
import pytest

from ndcg_teach.core.table import Span, aligned
from text_tables import labels_misaligned, misaligned, tables

ROOT = Path(__file__).resolve().parent.parent
LESSONS = sorted((ROOT / "notebooks").glob("*.ipynb")) + sorted((ROOT / "notebooks" / "zh-CN").glob("*.ipynb"))


def printed(notebook):
    """(cell number, text) of what each code cell printed (its streams joined) and of each plain-text result."""
    for number, cell in enumerate(notebook.cells):
        if cell.cell_type != "code":
            continue
        streams = {}
        for output in cell.outputs:
            if output.output_type == "stream":
                streams[output.name] = streams.get(output.name, "") + output.text
            elif "text/plain" in output.get("data", {}):
                yield number, output.data["text/plain"]
        yield from ((number, text) for text in streams.values())


@pytest.mark.parametrize("path", LESSONS, ids=[path.name.replace(".ipynb", "") for path in LESSONS])
def test_every_printed_table_lines_up_by_display_width(path):
    notebook = nbformat.read(path, as_version=4)
    faults = [f"cell {number}: {fault}" for number, text in printed(notebook)
              for fault in misaligned(text) + labels_misaligned(text)]
    assert faults == []


def test_the_lessons_print_tables_for_the_check_to_read():
    # The check finds tables where there are tables: the rule is not vacuous over the stored outputs.
    found = sum(len(tables(text)) for path in LESSONS for _, text in printed(nbformat.read(path, as_version=4)))
    assert found > 100


ROWS = [["模型", "命中率@10", "NDCG@10"], ["A", "0.3010", "0.1355"], ["乙乙", "0.0110", "0.0035"]]


def by_characters(rows):
    """What ``f"{cell:>10}"`` prints: padded to a count of characters, not of terminal columns."""
    return "\n".join("".join(f"{cell:>10}" for cell in row) for row in rows)


@pytest.mark.parametrize(
    ("text", "faults"),
    [
        (aligned(ROWS, align="lrr"), 0),
        (by_characters(ROWS), 3),  # every column after 乙乙 drifts by one terminal column a character
        (aligned([["", Span("全部条目", 2)], *ROWS], align="lrr"), 0),
        ("  全部条目\n" + aligned(ROWS, align="lrr"), 1),  # a heading over nothing
        ("the explorer above: NDCG = 0.8878  ERR = 0.58\n['A', 'B'] NDCG = 1.0000  ERR = 0.9097\n"
         "['A', 'E', 'B'] NDCG = 0.9219  ERR = 0.8992", 0),  # free text after a label is no table
        ("one line only  with gaps", 0),
    ],
)
def test_the_rule_on_small_examples(text, faults):
    assert len(misaligned(text)) == faults


@pytest.mark.parametrize(
    ("text", "faults"),
    [
        ("α            ： 3/8, 0\nP(到达 i)     ： 1, 5/8", 1),
        ("α          ： 3/8, 0\nP(到达 i)  ： 1, 5/8", 0),
        ("alpha          : 3/8, 0\nP(reach i)     : 1, 5/8\nPBM: CTR = 0.5711", 0),
        ("等级之和：A = 5\nDCG：B = 5", 0),  # no padding, nothing meant to line up
    ],
)
def test_the_labels_rule_on_small_examples(text, faults):
    assert len(labels_misaligned(text)) == faults
