"""Tables in printed text, and whether their columns line up on a terminal (by display width, not by characters).

Shared by tests/test_table_outputs.py (every stored output of both editions) and its own examples there.

A table is a run of three or more consecutive lines, two or more of which split, at gaps of two or more spaces,
into the same number of cells (two or more): its body, under the first such line, its header. Its columns line up when each column's cells all start at the same display
column (text, aligned left) or all end at the same one (numbers, aligned right). A line of fewer cells among them,
such as a heading over two columns above the header, lines up when each of its cells starts or ends where a column of
the body starts or ends.
"""

import re

from ndcg_teach.core.table import width

GAP = re.compile(r" {2,}")
NUMBER = re.compile(r"\d\.\d|=")


def cells(line, measure=width):
    """[(start, end, text)] of ``line``'s cells, split at gaps of two or more spaces; positions in display columns
    (or as ``measure`` counts them: ``len`` counts characters, as ``f"{cell:>12}"`` pads)."""
    found, position = [], 0
    for piece in re.split(r"( {2,})", line):
        if piece and not GAP.fullmatch(piece):
            found.append((measure(line[:position]), measure(line[:position]) + measure(piece), piece))
        position += len(piece)
    return found


def tables(text):
    """The tables of ``text``: lists of (line number, cells), at least three lines of the same count of cells."""
    found, block, headings = [], [], []
    for number, line in enumerate([*text.splitlines(), ""]):
        row = cells(line.rstrip())
        indented_one = len(row) == 1 and line.startswith("  ")
        if len(row) >= 2:
            block = block or headings
            block.append((number, row))
        elif indented_one and block:
            continue  # a note under a row (Table's notes): the table goes on below it
        else:
            found += _split_by_count(block)
            block = []
            # an indented line of one cell may head the table that starts on the next line
            headings = [*headings, (number, row)] if indented_one else []
            continue
        headings = []
    return found


def _split_by_count(block):
    """The tables in a block of lines of two or more cells: the lines of the count most of them have, and the
    lines of fewer cells among them (headings that span columns)."""
    if len(block) < 3:
        return []
    counts = [len(row) for _, row in block]
    most = max(set(counts), key=counts.count)
    if counts.count(most) < 2:
        return []
    return [block]


def _edges(body, column):
    """Where ``column`` of the ``body`` rows starts and ends, when all its cells agree: a set of 0, 1 or 2 edges."""
    starts, ends = {row[column][0] for row in body}, {row[column][1] for row in body}
    return ({("start", *starts)} if len(starts) == 1 else set()) | ({("end", *ends)} if len(ends) == 1 else set())


def _heads(text, body, column):
    """True when the first line's cell ``text`` reads as a column's header: not a value (``ERR = 0.58``, ``0.5``),
    and not the text the body repeats in that column."""
    return not NUMBER.search(text) and text not in {row[column][2] for row in body}


def misaligned(text):
    """A description of each column or heading of a table in ``text`` that does not line up on a terminal.

    The body (every line of the table but its first) decides where a column is: where its cells all start (text)
    or all end (numbers). A body column that lines up when characters are counted but not on a terminal was padded
    by ``len()``; one that lines up neither way is no column (free text after a label: ``NDCG = 0.9  ERR = 0.5``).
    The first line (the header) and any shorter line over the table (a heading over several columns) must start or
    end where the columns below them start or end.
    """
    faults = []
    lines = text.splitlines()
    for table in tables(text):
        counts = [len(row) for _, row in table]
        most = max(set(counts), key=counts.count)
        full = [(number, row) for number, row in table if len(row) == most]
        (first, header), body = full[0], [row for _, row in full[1:]]
        typed = [cells(lines[number].rstrip(), len) for number, _ in full[1:]]
        edges = []
        for column in range(most):
            shown = _edges(body, column)
            edges.append(shown)
            if not shown and _edges(typed, column):
                faults.append(f"column {column + 1} of the table at line {first + 1} is padded by characters: "
                              + " | ".join(row[column][2] for row in body))
            elif shown and _heads(header[column][2], body, column) and not (
                    shown & {("start", header[column][0]), ("end", header[column][1])}):
                faults.append(f"header {header[column][2]!r} of the table at line {first + 1} is off its column")
        starts = {edge for found in edges for kind, edge in found if kind == "start"}
        ends = {edge for found in edges for kind, edge in found if kind == "end"}
        for number, row in table:
            if number < first and len(row) < most and not all(start in starts | ends or end in starts | ends for start, end, _ in row):
                faults.append(f"heading at line {number + 1} does not meet the columns below it: {row}")
    return faults


PADDED_COLON = re.compile(r"^(?P<label>[^:：]*?)(?P<colon> {2,}[:：] *| ?[:：] {2,})(?P<value>\S)")


def labels_misaligned(text):
    """Runs of two or more ``label: value`` lines padded with spaces around the colon so that their values line up,
    whose values do not start in the same terminal column (``"α       ： 3/8"`` over ``"P(到达 i) ： 1"``)."""
    faults, run = [], []
    for number, line in enumerate([*text.splitlines(), ""]):
        found = PADDED_COLON.match(line)
        if found and not line.startswith(" "):
            run.append((number, line, found))
            continue
        if len(run) >= 2:
            starts = {width(line[:found.start("value")]) for _, line, found in run}
            if len(starts) > 1:
                faults.append(f"the values of lines {run[0][0] + 1}-{run[-1][0] + 1} start in columns {sorted(starts)}")
        run = []
    return faults
