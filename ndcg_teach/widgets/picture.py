"""The explorers' static picture: what a notebook shows of a widget where no kernel runs.

A widget's output holds two views: ``application/vnd.jupyter.widget-view+json``
(the live widget) and, from this module, ``text/html``: the list, the numbers
and both plots (matplotlib PNGs) of the state the widget was displayed in,
under the words "Run this cell to drag the rows". Front ends pick one view:

- nbconvert (and so nbviewer) skips the widget view when the notebook holds no
  widget state (the lessons are saved without it) and takes ``text/html``;
- JupyterLab and Notebook 7 rank the widget renderer first but, as it is not
  "safe", use it only for trusted outputs: a freshly opened (untrusted) lesson
  shows the picture, and a cell run in the session shows the live widget;
- with the course's server extension (:mod:`ndcg_teach.jupyter.server_extension`), a
  save keeps only this picture for a widget whose state is not saved, so a
  lesson saved by autosave reopens, trusted, with the picture, not "model not
  found";
- GitHub shows ``text/html`` (it has no widget manager).

The picture is made when the explorer is displayed, and its caption says so:
a drag in the live widget afterwards changes the widget, not the picture
(which is also what running the cell again shows). A long list shows the
step table's first and last rows (:func:`~ndcg_teach.core.table.shown_rows`) and
its discount plot in groups of positions (:mod:`ndcg_teach.plots.grouped_plot`), so
the picture of a 2,000-item explorer is made in a fraction of a second and
takes tens of kilobytes (``benchmarks/picture_size.py`` measures it).
"""

import base64
from html import escape

from ..i18n import gettext, language_set, mark
from ..plots import CumulativePlot, DiscountPlot, compact_png
from ..core.table import rows_hidden, shown_rows

RUN = mark("Run this cell to drag the rows")
SHOWN_AS = mark("{run}: this picture shows the explorer as the cell displayed it; changes made after that, in the live "
                "widget or by code, are not in it.")
"""The caption of every explorer's picture: what the picture shows, exactly."""


def caption(language, run=RUN):
    """The picture's caption as HTML, in ``language``, with ``run`` (marked for translation) in bold."""
    return f"<p>{escape(gettext(SHOWN_AS, language)).format(run=f'<b>{escape(gettext(run, language))}</b>')}</p>"


def _image(png, alt):
    data = base64.b64encode(compact_png(png)).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{escape(alt)}" style="max-width:100%;height:auto">'


def _ranking(order, grades, labels, k, language, unjudged=()):
    below, hole = escape(gettext("below k", language)), escape(gettext("unjudged", language))

    def row(i):
        if i is None:  # where a long list's hidden rows are
            return f'<tr><td colspan="5" style="text-align:center;font-style:italic">{escape(rows_hidden(len(order), language))}</td></tr>'
        item = order[i]
        return (f"<tr><td>{i + 1}</td><td><b>{escape(item)}</b></td>"
                f"<td>{escape(labels.get(item, '') if labels.get(item) != item else '')}</td>"
                f"<td>{hole if item in unjudged else escape(str(grades[item]))}</td><td>{'' if i < k else below}</td></tr>")

    rows = "".join(row(i) for i in shown_rows(len(order)))
    head = "".join(f"<th>{escape(gettext(text, language)) if text else ''}</th>"
                   for text in (mark("position"), mark("item"), "", mark("grade"), ""))
    return f'<table style="margin:0 0 6px 0"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>'


def _numbers(panel):
    return " · ".join(f"{escape(metric['label'])} = <b>{escape(metric['text'])}</b>" for metric in panel["metrics"])


def static_html(explorer):
    """The static picture of ``explorer`` (a RankingExplorer or CompareExplorer) as HTML, plots included, in its language.

    The plots (matplotlib PNGs) are labelled in its language too, in English
    where no Chinese font is installed (:mod:`ndcg_teach.plots.fonts`).
    """
    k, labels, grades, language = explorer.k, explorer.labels, explorer.relevance, explorer.language
    parts = [caption(language)]
    panels = explorer.panels
    for panel in panels:
        title = f"<h4 style=\"margin:8px 0 4px\">{escape(panel['name'])}</h4>" if len(panels) > 1 else ""
        parts.append(f"{title}{_ranking(panel['order'], grades, labels, k, language, explorer.unjudged)}<p>{_numbers(panel)}</p>")
    numbers = explorer._shown_numbers
    names = explorer.names if len(panels) > 1 else ("",)
    with language_set(language):
        steps = numbers[0].steps
        discount = (DiscountPlot().draw_steps(numbers[0].order, steps.gains, steps.discounts, steps.contributions, k=k)
                    if len(panels) == 1 else None)
        cumulative = CumulativePlot().draw([n.trace for n in numbers], names)
    if discount is not None:
        parts.append(_image(discount, gettext("Discount curve and each item's gain and gain times discount at its position",
                                              language)))
    parts.append(_image(cumulative, gettext("Running DCG against running IDCG", language)))
    return f'<div class="ndcg-x-static">{"".join(parts)}</div>'
