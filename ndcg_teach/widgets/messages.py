"""Every word the explorers' front end shows, in the learner's language.

``static/explorer.js`` holds no text of its own: Python sends it this mapping
once (the ``messages`` trait), translated through the message catalogue
(:mod:`ndcg_teach.i18n`), and the browser fills each ``{placeholder}`` by
simple replacement. The English texts here are the widget's English output.
Lesson 03 uses the explorer.

>>> from ndcg_teach.widgets.messages import front_end
>>> front_end("en")["moved"]
'{item} moved to position {position} of {n}.'
>>> front_end("zh-CN")["moved"]
'{item} 已移到第 {position} 位（共 {n} 位）。'
"""

from ..i18n import gettext, mark

FRONT_END = {
    "hint": mark(
        "Drag a row, or focus it and press Alt+↑ / Alt+↓ (↑ / ↓ alone move between rows). Esc cancels a drag. "
        "Type a grade to change it."
    ),
    "display_error": mark("The explorer hit a display error: {error}"),
    # Controls.
    "cutoff": mark("cut-off k"),
    "gain": mark("gain"),
    "discount": mark("discount"),
    "relevant_if": mark("relevant if"),
    "relevant_from": mark("relevant from grade"),
    "grade_at_least": mark("grade ≥ {grade}"),
    "k_of_n": mark("{k} of {n}"),
    # The list and its rows.
    "list": mark("Ranked items, best first"),
    "order_buttons": mark("Order buttons"),
    "drag_handle": mark("Drag to move"),
    "item_label": mark("{item}: {label}"),
    "grade_aria": mark("grade of {item} (0 to {top})"),
    "grade_title": mark("grade of {item}: type 0 to {top}"),
    "relevant_title": mark("relevant: counts for the binary metrics"),
    "not_relevant_title": mark("not relevant at this threshold"),
    "move_up_aria": mark("Move {item} up"),
    "move_up": mark("Move up"),
    "move_down_aria": mark("Move {item} down"),
    "move_down": mark("Move down"),
    "cut_row": mark("cut-off k = {k}"),
    "judge_aria": mark("{item} unjudged"),
    "judged_title": mark("{item} is judged; press to mark it unjudged"),
    "unjudged_title": mark("{item} is unjudged: the metrics do not know its grade; press to judge it"),
    "row_unjudged": mark(", unjudged"),
    "unjudged_row": mark("unjudged: nobody knows its grade"),
    "row_aria": mark("Position {position} of {n}: {item}{label}, grade {grade}{relevant}{beyond}"),
    "row_label": mark(" ({label})"),
    "row_relevant": mark(", relevant"),
    "row_beyond": mark(", below the cut-off"),
    # Announcements.
    "moved": mark("{item} moved to position {position} of {n}."),
    "at_top": mark("{item} is already at the top."),
    "at_bottom": mark("{item} is already at the bottom."),
    "cancelled": mark("Drag cancelled."),
    # Compare mode.
    "metric": mark("metric"),
    "named_score": mark("{name}: {score}"),
    # Plots.
    "discount_caption": mark("Discount curve and each item's share of DCG"),
    "discount_alt": mark(
        "Bars: each item's gain and gain times discount at its position; line: the discount; dashed line: the cut-off k."
    ),
    "cumulative_caption": mark("Running DCG vs running IDCG"),
    "cumulative_caption_compare": mark("Running DCG of both rankings vs running IDCG"),
    "cumulative_alt": mark("Running DCG and running IDCG over positions 1 to k; the gap between them is what NDCG measures."),
    "legend_share": mark("gain × discount"),
    "legend_running": mark("running DCG"),
    "legend_running_named": mark("running DCG, {name}"),
    "legend_ideal": mark("running IDCG (ideal order)"),
    "legend_gap": mark("gap to the ideal"),
    "axis_gain": mark("gain, gain × discount"),
    "axis_position": mark("position i"),
    "axis_running": mark("running total up to i"),
    "tip_bar": mark("position {position}: {item}, gain {gain}, gain × discount {share}"),
    "tip_running": mark("position {position}: running DCG {value}"),
    # The step table.
    "steps_title": mark("Step by step (explain_ndcg)"),
    "steps_region": mark("Step table"),
}


def front_end(language):
    """The front end's texts in ``language``, keyed by the names explorer.js looks them up by."""
    return {key: gettext(text, language) for key, text in FRONT_END.items()}
