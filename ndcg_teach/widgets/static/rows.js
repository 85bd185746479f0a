// The ranked list's rows (joined into one module with the other scripts, see SCRIPTS in explorer.py):
// built once per set of grades, labels, k and threshold; a reorder only moves them.

const LONG_ID = 24; // characters: a longer item id (a TREC docno) is set smaller, and wraps

function listRows(ui) {
  const { model, t } = ui;

  function renderList(view, order) {
    const panel = ui.panelOf(view);
    const relevance = model.get("relevance");
    const labels = model.get("labels");
    const k = model.get("k");
    const top = model.get("max_grade");
    const active = view.list.contains(document.activeElement) ? document.activeElement : null;
    const keep = ui.focusAfterRender && ui.focusAfterRender.trait === view.trait ? ui.focusAfterRender
      : active ? { item: active.closest("[data-item]")?.dataset.item, role: active.dataset.role || "row" } : null;
    ui.focusAfterRender = null;
    // Item by item in a fixed order: Python sends `relevant` in ranking order, and a reorder alone must not rebuild the rows.
    // `judged` is null unless the explorer judges (lesson 12): then false marks an unjudged row.
    const judged = (item) => (panel.judged ? panel.judged[item] : null);
    const signature = JSON.stringify([top, order.slice().sort().map((item) => [item, relevance[item], labels[item], panel.relevant[item], judged(item)])]);
    if (signature !== view.rowsSignature || !view.rows) {
      view.rowsSignature = signature;
      view.rows = new Map(order.map((item) => [item, buildRow(item, relevance[item], labels[item], panel.relevant[item], top, judged(item))]));
    }
    const rows = order.map((item, i) => placeRow(view.rows.get(item), item, i, order.length, k, relevance[item], labels[item], panel.relevant[item], judged(item)));
    // Move only the rows that are out of place (one, after a drop), so the browser re-lays out little.
    if (view.list.children.length !== rows.length || [...view.list.children].some((row) => !view.rows.has(row.dataset.item) || view.rows.get(row.dataset.item) !== row)) {
      view.list.replaceChildren(...rows);
    } else if (!rows.every((row, i) => view.list.children[i] === row)) {
      reorder(view.list, rows, active && active.closest(".ndcg-x-row"));
    }
    if (keep && keep.item && !(active && view.list.contains(active) && document.activeElement === active)) {
      // After the frame is laid out: focusing now would force a layout of the whole notebook in this task.
      requestAnimationFrame(() => {
        const row = view.rows.get(keep.item);
        const target = keep.role === "row" ? row : row?.querySelector(`[data-role="${keep.role}"]`);
        (target && !target.disabled ? target : row)?.focus({ preventScroll: true });
      });
    }
  }


  function buildRow(item, grade, fullLabel, relevant, top, judged) {
    const label = fullLabel && fullLabel !== item ? fullLabel : "";
    return h("li", { class: "ndcg-x-row", "data-item": item, tabindex: 0, ...SUPPRESS },
      h("span", { class: "ndcg-x-handle", "aria-hidden": "true", title: t("drag_handle") }, "⠿"),
      h("span", { class: "ndcg-x-pos", "aria-hidden": "true" }),
      h("span", { class: "ndcg-x-name", title: label ? t("item_label", { item, label }) : item },
        h("span", { class: `ndcg-x-id${item.length > LONG_ID ? " is-long" : ""}`, text: item }),
        label ? h("span", { class: "ndcg-x-label", text: label }) : null),
      h("span", { class: "ndcg-x-grade" },
        h("span", { class: "ndcg-x-bar", "aria-hidden": "true" },
          h("span", { class: "ndcg-x-bar-fill", style: `width: ${(100 * grade) / Math.max(top, 1)}%` })),
        // Text, not type=number: a number input reports "" for "abc", and Python's message must quote what was typed.
        h("input", {
          type: "text", inputmode: "numeric", value: grade, class: "ndcg-x-grade-input", size: 2,
          "data-role": "grade", "aria-label": t("grade_aria", { item, top }), title: t("grade_title", { item, top }),
          ...SUPPRESS,
        })),
      judged === null ? h("span", {
        class: `ndcg-x-rel${relevant ? " is-relevant" : ""}`,
        title: relevant ? t("relevant_title") : t("not_relevant_title"),
        "aria-hidden": "true",
        text: relevant ? "✓" : "·",
      }) : judgeButton(item, relevant, judged),
      h("span", { class: "ndcg-x-arrows" },
        h("button", { type: "button", class: "ndcg-x-step", "data-role": "up", tabindex: -1, "aria-label": t("move_up_aria", { item }), title: t("move_up"), ...SUPPRESS }, "▲"),
        h("button", { type: "button", class: "ndcg-x-step", "data-role": "down", tabindex: -1, "aria-label": t("move_down_aria", { item }), title: t("move_down"), ...SUPPRESS }, "▼")));
  }

  // In an explorer that judges: the relevance mark is a toggle, pressed ("?") while the item is unjudged.
  function judgeButton(item, relevant, judged) {
    return h("button", {
      type: "button", class: `ndcg-x-rel ndcg-x-judge${relevant && judged ? " is-relevant" : ""}`, "data-role": "judge",
      "aria-pressed": judged ? "false" : "true", "aria-label": t("judge_aria", { item }),
      title: judged ? t("judged_title", { item }) : t("unjudged_title", { item }), text: judged ? (relevant ? "✓" : "·") : "?",
      ...SUPPRESS,
    });
  }

  // Put a row's position-dependent parts in place: number, cut-off, arrows, label for screen readers.
  function placeRow(row, item, i, n, k, grade, fullLabel, relevant, judged) {
    const position = i + 1;
    const label = fullLabel && fullLabel !== item ? fullLabel : "";
    const cut = position === k && k < n;
    // Only what differs is written: after a drop most rows are where they were (and the dragged-over ones
    // already show their new numbers, see follow), and each write would have the browser lay the row out again.
    const className = `ndcg-x-row${position > k ? " is-beyond" : ""}${cut ? " is-cut" : ""}${judged === false ? " is-unjudged" : ""}`;
    if (row.className !== className) row.className = className;
    setAttributes(row, {
      "data-position": position,
      "aria-label": t("row_aria", {
        position, n, item, grade,
        label: label ? t("row_label", { label }) : "",
        relevant: judged === false ? t("row_unjudged") : relevant ? t("row_relevant") : "",
        beyond: position > k ? t("row_beyond") : "",
      }),
    });
    if (cut) setAttributes(row, { "data-cut": t("cut_row", { k }) });
    else row.removeAttribute("data-cut");
    setText(row.querySelector(".ndcg-x-pos"), String(position));
    const [up, down] = row.querySelectorAll(".ndcg-x-step");
    if (up.disabled !== (i === 0)) up.disabled = i === 0;
    if (down.disabled !== (i === n - 1)) down.disabled = i === n - 1;
    if (row.style.transform) row.style.transform = "";
    return row;
  }

  // A change made here: shown at once from the preview if Python sent one, then sent to the kernel once the
  // browser has painted it. Sent at once, the kernel and the Jupyter server would compute and relay the

  return { renderList };
}

// Put the list's rows (the same nodes) in the order of `rows` with few moves: the browser lays each
// moved row out anew, about half a millisecond a row. After one row moved (a drop, a step) only that
// row moves. Moving the focused row with insertBefore would blur it (and the notebook restyles on
// focus changes), so where the browser lacks moveBefore, which keeps the focus, the rows it passed move.
function reorder(list, rows, anchor) {
  const now = [...list.children];
  let first = 0;
  while (first < rows.length && now[first] === rows[first]) first += 1;
  let last = rows.length - 1;
  while (last > first && now[last] === rows[last]) last -= 1;
  const put = (row, before) => (list.moveBefore ? list.moveBefore(row, before) : list.insertBefore(row, before));
  if (rows[first] === now[last] && same(rows.slice(first + 1, last + 1), now.slice(first, last))) {
    if (now[last] === anchor && !list.moveBefore) anchor.after(...now.slice(first, last));
    else put(now[last], now[first]);
  } else if (rows[last] === now[first] && same(rows.slice(first, last), now.slice(first + 1, last + 1))) {
    if (now[first] === anchor && !list.moveBefore) anchor.before(...now.slice(first + 1, last + 1));
    else put(now[first], now[last].nextSibling);
  } else {
    // Keep the focused row where it is in the DOM and move the others around it.
    const at = anchor ? rows.indexOf(anchor) : -1;
    if (at >= 0) {
      anchor.before(...rows.slice(0, at));
      anchor.after(...rows.slice(at + 1));
    } else {
      rows.forEach((row, i) => {
        if (list.children[i] !== row) list.insertBefore(row, list.children[i]);
      });
    }
  }
}
