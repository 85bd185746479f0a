"""tools/binder_check.py's font checks: an executed lesson that drew Chinese as boxes fails, and says where."""

import binder_check
import nbformat


def executed(path, outputs):
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell("plot()", outputs=outputs)]
    nbformat.write(notebook, path)
    return path


def test_a_glyph_missing_warning_on_stderr_is_found_and_nothing_else(tmp_path):
    warned = executed(tmp_path / "warned.ipynb", [
        nbformat.v4.new_output("stream", name="stdout", text="Glyph 20301 missing from font(s) DejaVu Sans (printed)\n"),
        nbformat.v4.new_output("stream", name="stderr", text=(
            "/x.py:1: UserWarning: Glyph 20301 (\\N{CJK UNIFIED IDEOGRAPH-4F4D}) missing from font(s) DejaVu Sans.\n"
            "  fig.canvas.print_figure(bytes_io, **kw)\n"
            "Font 'default' does not have a glyph for '\\u4f4d' [U+4f4d], substituting with a dummy symbol.\n")),
    ])
    clean = executed(tmp_path / "clean.ipynb", [nbformat.v4.new_output("stream", name="stderr", text="a DeprecationWarning\n")])
    found = binder_check.glyph_warnings(warned)
    assert len(found) == 2 and "missing from font(s) DejaVu Sans" in found[0] and "does not have a glyph" in found[1]
    assert binder_check.glyph_warnings(clean) == []
