// Front end of RankingExplorer and CompareExplorer (ndcg_teach/widgets/explorer.py), joined after
// dom.js (h, s, d, draw) and plots.js (drawDiscount, drawCumulative) into one module.
// Python computes every number; this module only draws what it receives and sends back
// what the learner did: a new order (the synced ranking trait), a grade typed into a row,
// an order button, or a request for previews (custom messages {event: ...}).
//
// A drop never waits for the kernel: Python sends "previews" ahead (for each item the
// learner may move, what every destination would show, all computed by the library), so
// the browser draws the new order's numbers, step table and plots at once; the kernel's
// own answer (the `panels` trait, which names the order it belongs to) then confirms them.
// The root's data-state says which: "preview" while a row is dragged over a position,
// "pending" after a change the kernel has not confirmed yet, "confirmed" after.
//
// No words live here: Python sends every text once, in the learner's language (the `messages`
// trait, see messages.py), and `fill` puts the values into its {placeholders}.

// JupyterLab and Notebook 7 turn key presses into notebook commands ("a" inserts a cell)
// unless the focused element itself carries this attribute; a wrapper is not enough.
const SUPPRESS = { "data-lm-suppress-shortcuts": "true" };
const DRAG_SLOP = 4; // pixels a pointer moves before a press becomes a drag
const EDGE = 48; // pixels from a scroll container's edge where a drag scrolls it
const HOVER_MS = 60; // a pointer resting this long on a row asks for that row's previews
const PREVIEW_CACHE = 240; // (ranking, order, item) entries kept; one is n destinations (a message holds every item of a list up to 60)

// `template` with each {name} replaced by values[name], in one pass (a value's own braces stay as they are).
function fill(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

function moved(order, from, to) {
  const next = order.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function render({ model, el }) {
  const messages = model.get("messages");
  const t = (key, values) => fill(messages[key], values);
  const panels = () => model.get("panels");
  const compare = panels().length > 1;
  const listeners = [];
  const cleanups = [];
  const previews = new Map(); // `${ranking}|${context}|${order}|${item}` -> destinations, from Python
  const requested = new Set();
  let focusAfterRender = null; // {item, role} to focus once a list is rebuilt
  let dragging = null;
  let committing = false;

  function on(names, handler) {
    const guarded = (...args) => guard(() => handler(...args));
    for (const name of names.split(" ")) {
      model.on(name.startsWith("msg:") ? name : `change:${name}`, guarded);
      listeners.push([name.startsWith("msg:") ? name : `change:${name}`, guarded]);
    }
  }

  // Errors in our handlers are shown in the widget rather than thrown at the page.
  function guard(action) {
    try {
      action();
    } catch (error) {
      notice.className = "ndcg-x-notice is-error";
      notice.textContent = t("display_error", { error: error.message });
      console.error(error);
    }
  }

  const root = h("div", {
    class: `ndcg-x${compare ? " ndcg-x--compare" : ""}`,
    "data-testid": compare ? "compare-explorer" : "ranking-explorer",
    "data-state": "confirmed",
    lang: model.get("language"),
  });
  const live = h("div", { class: "ndcg-x-sr", "aria-live": "polite", "aria-atomic": "true", "data-testid": "announcer" });
  const notice = h("div", { class: "ndcg-x-notice", "data-testid": "notice" });
  const say = (text) => {
    live.textContent = "";
    // A fresh text node after a clear makes screen readers repeat identical announcements.
    requestAnimationFrame(() => { live.textContent = text; });
  };

  // ---- Controls shared by every ranking -------------------------------------------------
  const n = model.get(panels()[0].trait).length;
  const kInput = h("input", { type: "range", min: 1, max: n, step: 1, "data-control": "k", "aria-label": t("cutoff"), ...SUPPRESS });
  const kOut = h("output", { class: "ndcg-x-kvalue" });
  const select = (name, options, label) => {
    const node = h("select", { "data-control": name, "aria-label": label, ...SUPPRESS },
      options.map(([value, text]) => h("option", { value, text })));
    node.addEventListener("change", () => guard(() => {
      saveNow();
      model.set(name, name === "threshold" ? Number(node.value) : node.value);
      model.save_changes();
    }));
    return node;
  };
  // The choices, the order buttons and the metric cards all come from Python (the `choices` trait).
  const choices = model.get("choices");
  const gainSelect = select("gain", choices.gain, t("gain"));
  const discountSelect = select("discount", choices.discount, t("discount"));
  const grades = Array.from({ length: model.get("max_grade") }, (_, i) => [String(i + 1), t("grade_at_least", { grade: i + 1 })]);
  const thresholdSelect = select("threshold", grades, t("relevant_from"));
  kInput.addEventListener("input", () => guard(() => {
    saveNow();
    model.set("k", Number(kInput.value));
    model.save_changes();
  }));
  const field = (label, ...control) => h("label", { class: "ndcg-x-field" }, h("span", { class: "ndcg-x-field-label", text: label }), ...control);
  const controls = h("div", { class: "ndcg-x-controls" },
    field(t("cutoff"), kInput, kOut),
    field(t("gain"), gainSelect),
    field(t("discount"), discountSelect),
    field(t("relevant_if"), thresholdSelect));

  function showControls() {
    kInput.value = model.get("k");
    kOut.textContent = t("k_of_n", { k: model.get("k"), n });
    gainSelect.value = model.get("gain");
    discountSelect.value = model.get("discount");
    thresholdSelect.value = String(model.get("threshold"));
  }

  // ---- One panel per ranking: order buttons, the draggable list, the live numbers -----------
  // One hint for the whole widget (under the list, or under both lists), described to screen readers by id.
  const hint = h("p", { class: "ndcg-x-hint", id: `ndcg-x-hint-${Math.random().toString(36).slice(2, 10)}`, text: t("hint") });
  const views = panels().map((panel, index) => buildPanel(panel.trait, index));

  function buildPanel(trait, index) {
    const list = h("ol", {
      class: "ndcg-x-list",
      "aria-label": t("list"),
      "aria-describedby": hint.id,
      "data-testid": "ranked-list",
    });
    const toolbar = h("div", { class: "ndcg-x-toolbar", role: "group", "aria-label": t("order_buttons") },
      choices.actions.map(([action, text, title]) => {
        const button = h("button", { type: "button", class: "ndcg-x-button", "data-action": action, title, text, ...SUPPRESS });
        button.addEventListener("click", () => guard(() => send({ event: "action", name: action, ranking: trait })));
        return button;
      }));
    const cards = h("div", { class: "ndcg-x-metrics", "data-testid": "metrics" });
    const title = compare ? h("h3", { class: "ndcg-x-title" }) : null;
    const section = h("section", { class: "ndcg-x-panel", "data-testid": "ranking-panel", "data-ranking": trait },
      h("div", { class: "ndcg-x-panel-head" }, title, toolbar), list);
    const view = { trait, index, list, cards, title, section, display: null, pending: false };
    attachDrag(view);
    attachKeys(view);
    return view;
  }

  function panelOf(view) {
    return panels()[view.index];
  }

  // ---- What is shown: the kernel's panel, or a preview Python sent ahead -----------------------
  const previewKey = (view, order, item) => `${view.trait}|${panelOf(view).context}|${order.join("\u0001")}|${item}`;

  function fromPanel(panel) {
    return { order: panel.order, texts: panel.texts, steps: panel.steps, plot: panel.plot, comparison: null };
  }

  // The display `item`'s move to index `to` would give, if Python has sent it; else null.
  // Python packs the previews (see _send_previews): what no move changes once per message, and per
  // item the metric texts, scores and running DCG of every destination as space-separated texts,
  // split here only when that item is first shown.
  function previewOf(view, order, item, to) {
    const stored = previews.get(previewKey(view, order, item));
    if (!stored || to < 0 || to >= order.length) return null;
    const { message, entry } = stored;
    const shared = unpackShared(message);
    if (!stored.texts) {
      stored.texts = entry.texts.split(" ");
      stored.scores = entry.scores.split(" ");
      stored.running = entry.running.split(" ");
    }
    const panel = panelOf(view);
    const { k, metrics: m } = message;
    const n = message.base.length;
    const next = moved(message.base, entry.from, to);
    const at = next.map((other) => shared.index.get(other));
    const running = stored.running.slice(to * k, (to + 1) * k);
    const steps = [];
    for (let p = 0; p < k; p += 1) {
      const j = at[p];
      steps.push([String(p + 1), next[p], message.grades[j], message.gains[j], message.discounts[p], shared.shares[j * n + p], running[p]]
        .concat(panel.ideal_steps[p] || []));
    }
    return {
      order: next,
      texts: stored.texts.slice(to * m, (to + 1) * m),
      steps,
      plot: {
        ...panel.plot,
        items: next,
        gains: at.map((j) => message.gain_values[j]),
        shares: at.map((j, p) => Number(shared.shares[j * n + p])),
        running: running.map(Number),
        score: `${message.label} = ${stored.scores[to]}`,
      },
      comparison: entry.comparison ? entry.comparison[to] : null,
    };
  }

  function unpackShared(message) {
    if (!message.shared) {
      message.shared = { index: new Map(message.base.map((item, i) => [item, i])), shares: message.shares.split(" ") };
    }
    return message.shared;
  }

  function requestPreview(view, item) {
    const order = model.get(view.trait);
    const key = previewKey(view, order, item);
    if (previews.has(key) || requested.has(key)) return;
    requested.add(key);
    send({ event: "preview", ranking: view.trait, item });
  }

  function storePreviews(message) {
    if (!message || message.event !== "previews") return;
    const view = views.find((v) => v.trait === message.ranking);
    if (!view) return;
    for (const entry of message.items) {
      const key = `${view.trait}|${message.context}|${message.base.join("\u0001")}|${entry.item}`;
      previews.delete(key);
      previews.set(key, { message, entry });
      requested.delete(key);
    }
    while (previews.size > PREVIEW_CACHE) previews.delete(previews.keys().next().value);
    // A preview that arrives mid-drag shows at once.
    if (dragging && dragging.view === view && dragging.active) showPreview(view);
  }

  function setState() {
    const state = dragging && dragging.active ? "preview" : views.some((view) => view.pending) ? "pending" : "confirmed";
    root.dataset.state = state;
    root.setAttribute("aria-busy", state === "pending" ? "true" : "false");
  }

  // Bring a view up to date with the model: the list in the model's order; numbers that belong to it.
  function update(view) {
    if (dragging && dragging.view === view) {
      dragging.stale = true;
      return;
    }
    const panel = panelOf(view);
    const order = model.get(view.trait);
    if (same(panel.order, order)) {
      view.display = fromPanel(panel);
      view.pending = false;
    } else {
      view.pending = true;
      if (!view.display || !same(view.display.order, order)) view.display = null;
    }
    renderList(view, order);
    showNumbers(view, view.display || fromPanel(panel), view.display === null);
    setState();
  }

  // Redraw numbers, table and plots, unless they already show exactly this (a kernel confirming a preview).
  function showNumbers(view, display, stale) {
    const panel = panelOf(view);
    if (!compare) renderFormula(display);
    // Plot numbers to 4 decimals, as previews carry them: the kernel's exact confirmation of a preview then changes nothing.
    const signature = JSON.stringify([display.texts, display.steps, display.plot, display.comparison, stale,
      panel.metrics.map((m) => m.label), panel.groups, panel.columns, model.get("comparison")],
    (key, value) => (typeof value === "number" ? Math.round(value * 1e4) : value));
    if (signature === view.signature) return;
    view.signature = signature;
    renderNumbers(view, display, stale);
    if (!compare) renderSteps(display, stale);
    renderPlots();
    renderComparison();
  }

  // Rows are built once per set of grades, labels, k and threshold; a reorder only moves them.
  function renderList(view, order) {
    const panel = panelOf(view);
    const relevance = model.get("relevance");
    const labels = model.get("labels");
    const k = model.get("k");
    const top = model.get("max_grade");
    const active = view.list.contains(document.activeElement) ? document.activeElement : null;
    const keep = focusAfterRender && focusAfterRender.trait === view.trait ? focusAfterRender
      : active ? { item: active.closest("[data-item]")?.dataset.item, role: active.dataset.role || "row" } : null;
    focusAfterRender = null;
    // Item by item in a fixed order: Python sends `relevant` in ranking order, and a reorder alone must not rebuild the rows.
    const signature = JSON.stringify([top, order.slice().sort().map((item) => [item, relevance[item], labels[item], panel.relevant[item]])]);
    if (signature !== view.rowsSignature || !view.rows) {
      view.rowsSignature = signature;
      view.rows = new Map(order.map((item) => [item, buildRow(item, relevance[item], labels[item], panel.relevant[item], top)]));
    }
    const rows = order.map((item, i) => placeRow(view.rows.get(item), item, i, order.length, k, relevance[item], labels[item], panel.relevant[item]));
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

  function buildRow(item, grade, fullLabel, relevant, top) {
    const label = fullLabel && fullLabel !== item ? fullLabel : "";
    return h("li", { class: "ndcg-x-row", "data-item": item, tabindex: 0, ...SUPPRESS },
      h("span", { class: "ndcg-x-handle", "aria-hidden": "true", title: t("drag_handle") }, "⠿"),
      h("span", { class: "ndcg-x-pos", "aria-hidden": "true" }),
      h("span", { class: "ndcg-x-name", title: label ? t("item_label", { item, label }) : item },
        h("span", { class: "ndcg-x-id", text: item }),
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
      h("span", {
        class: `ndcg-x-rel${relevant ? " is-relevant" : ""}`,
        title: relevant ? t("relevant_title") : t("not_relevant_title"),
        "aria-hidden": "true",
        text: relevant ? "✓" : "·",
      }),
      h("span", { class: "ndcg-x-arrows" },
        h("button", { type: "button", class: "ndcg-x-step", "data-role": "up", tabindex: -1, "aria-label": t("move_up_aria", { item }), title: t("move_up"), ...SUPPRESS }, "▲"),
        h("button", { type: "button", class: "ndcg-x-step", "data-role": "down", tabindex: -1, "aria-label": t("move_down_aria", { item }), title: t("move_down"), ...SUPPRESS }, "▼")));
  }

  // Put a row's position-dependent parts in place: number, cut-off, arrows, label for screen readers.
  function placeRow(row, item, i, n, k, grade, fullLabel, relevant) {
    const position = i + 1;
    const label = fullLabel && fullLabel !== item ? fullLabel : "";
    const cut = position === k && k < n;
    // Only what differs is written: after a drop most rows are where they were (and the dragged-over ones
    // already show their new numbers, see follow), and each write would have the browser lay the row out again.
    const className = `ndcg-x-row${position > k ? " is-beyond" : ""}${cut ? " is-cut" : ""}`;
    if (row.className !== className) row.className = className;
    setAttributes(row, {
      "data-position": position,
      "aria-label": t("row_aria", {
        position, n, item, grade,
        label: label ? t("row_label", { label }) : "",
        relevant: relevant ? t("row_relevant") : "",
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
  // confirmation while the browser paints the drop, and on a two-core machine they would slow that paint.
  function commit(view, order, item, role) {
    const base = model.get(view.trait);
    view.display = previewOf(view, base, item, order.indexOf(item));
    committing = true; // this view draws the change itself, below
    try {
      model.set(view.trait, order);
    } finally {
      committing = false;
    }
    focusAfterRender = { trait: view.trait, item, role };
    update(view);
    say(t("moved", { item, position: order.indexOf(item) + 1, n: order.length }));
    saveAfterPaint(view.trait, order);
  }

  // Send the orders changed here once the next frame has been painted (a task queued from an animation frame runs
  // after its rendering; a timer stands in where frames stop, as in a hidden tab). One send carries every change
  // made before it. Whatever else goes to the kernel (a button, a grade, a control, a preview request) sends a
  // pending order first, so the kernel sees the learner's actions in the order they were made; a view closed
  // meanwhile sends at once.
  let saving = null; // {frame, timer, orders: trait -> the order to send}
  function saveNow() {
    if (!saving) return;
    const { frame, timer, orders } = saving;
    cancelAnimationFrame(frame);
    clearTimeout(timer);
    saving = null;
    // An order the kernel set meanwhile (its answer to an earlier button) must not leave the page showing one order
    // while the kernel is sent another: the learner's move, made last, is both shown and sent.
    for (const [trait, order] of orders) {
      if (same(model.get(trait), order)) continue;
      committing = true;
      try {
        model.set(trait, order);
      } finally {
        committing = false;
      }
      views.filter((view) => view.trait === trait).forEach(update);
    }
    model.save_changes();
  }
  function saveAfterPaint(trait, order) {
    if (!saving) {
      const task = () => guard(saveNow);
      const pending = { frame: 0, timer: setTimeout(task, 100), orders: new Map() };
      pending.frame = requestAnimationFrame(() => {
        clearTimeout(pending.timer);
        pending.timer = setTimeout(task, 0);
      });
      saving = pending;
    }
    saving.orders.set(trait, order);
  }
  const send = (content) => {
    saveNow();
    model.send(content);
  };
  cleanups.push(saveNow);

  function step(view, item, delta, role) {
    const order = model.get(view.trait);
    const from = order.indexOf(item);
    const to = from + delta;
    if (to < 0 || to >= order.length) {
      say(t(delta < 0 ? "at_top" : "at_bottom", { item }));
      return;
    }
    commit(view, moved(order, from, to), item, role);
  }

  function attachKeys(view) {
    view.list.addEventListener("keydown", (event) => guard(() => {
      const row = event.target.closest(".ndcg-x-row");
      if (!row) return;
      if (event.target !== row) {
        event.stopPropagation(); // typing a grade must never reach the notebook
        return;
      }
      const rows = [...view.list.querySelectorAll(".ndcg-x-row")];
      const index = rows.indexOf(row);
      const focus = (i) => rows[Math.max(0, Math.min(rows.length - 1, i))].focus();
      const keys = {
        ArrowUp: () => (event.altKey ? step(view, row.dataset.item, -1, "row") : focus(index - 1)),
        ArrowDown: () => (event.altKey ? step(view, row.dataset.item, 1, "row") : focus(index + 1)),
        Home: () => focus(0),
        End: () => focus(rows.length - 1),
      };
      if (keys[event.key]) {
        event.preventDefault();
        event.stopPropagation();
        keys[event.key]();
      }
    }));
    view.list.addEventListener("click", (event) => guard(() => {
      const button = event.target.closest("button[data-role]");
      if (!button) return;
      const item = button.closest("[data-item]").dataset.item;
      step(view, item, button.dataset.role === "up" ? -1 : 1, button.dataset.role);
    }));
    view.list.addEventListener("change", (event) => guard(() => {
      const input = event.target.closest("input[data-role=grade]");
      if (!input) return;
      // Sent as typed: Python checks the range and refuses bad grades with a message.
      send({ event: "grade", item: input.closest("[data-item]").dataset.item, grade: input.value });
    }));
    // The row a learner rests the pointer on or focuses is the one they may move next: ask for its previews.
    // (A list of up to 60 items already holds every item's; a longer one asks row by row.) A pointer sweeping across rows asks for none.
    let resting = null;
    const want = (event, wait) => guard(() => {
      clearTimeout(resting);
      const row = event.target.closest && event.target.closest(".ndcg-x-row");
      if (!row || dragging) return;
      resting = setTimeout(() => guard(() => requestPreview(view, row.dataset.item)), wait);
    });
    view.list.addEventListener("pointerover", (event) => want(event, HOVER_MS));
    view.list.addEventListener("focusin", (event) => want(event, 0));
    cleanups.push(() => clearTimeout(resting));
  }

  // The nearest ancestor that scrolls vertically (the notebook panel), or the page.
  function scroller(node) {
    for (let p = node.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if (/(auto|scroll|overlay)/.test(style.overflowY) && p.scrollHeight > p.clientHeight) return p;
    }
    return document.scrollingElement || document.documentElement;
  }

  // Pointer events (mouse, pen and touch alike); HTML5 drag-and-drop does not fire on touch screens.
  function attachDrag(view) {
    const list = view.list;
    list.addEventListener("pointerdown", (event) => guard(() => {
      const row = event.target.closest(".ndcg-x-row");
      if (!row || event.button !== 0 || event.target.closest("input, button")) return;
      // On touch only the handle drags (it has touch-action: none); elsewhere a finger scrolls the page.
      if (event.pointerType === "touch" && !event.target.closest(".ndcg-x-handle")) return;
      const rows = [...list.querySelectorAll(".ndcg-x-row")];
      const rects = rows.map((r) => r.getBoundingClientRect());
      const index = rows.indexOf(row);
      const gap = rects.length > 1 ? rects[1].top - rects[0].bottom : 0;
      const box = scroller(list);
      dragging = {
        view, row, rows, index, target: index, pointerId: event.pointerId, startY: event.clientY, clientY: event.clientY,
        mids: rects.map((r) => r.top + r.height / 2), shift: rects[index].height + gap, active: false, stale: false,
        box, scrollStart: box.scrollTop, frame: null, order: model.get(view.trait).slice(),
        // The scroller's box, read now while the layout is clean: reading it each frame of the drag would force a layout.
        area: box === document.scrollingElement || box === document.documentElement
          ? { top: 0, bottom: window.innerHeight } : box.getBoundingClientRect(),
      };
      requestPreview(view, row.dataset.item);
      row.setPointerCapture(event.pointerId);
    }));
    list.addEventListener("pointermove", (event) => guard(() => {
      if (!dragging || dragging.view !== view || event.pointerId !== dragging.pointerId) return;
      dragging.clientY = event.clientY;
      if (!dragging.active) {
        if (Math.abs(event.clientY - dragging.startY) < DRAG_SLOP) return;
        dragging.active = true;
        list.classList.add("is-sorting");
        dragging.row.classList.add("is-dragging");
        window.addEventListener("keydown", escape, true);
        dragging.frame = requestAnimationFrame(autoScroll);
      }
      event.preventDefault();
      follow();
    }));

    // Place the rows for the pointer's position (scrolling included) and preview the drop there.
    function follow() {
      const { index, mids, rows, shift, box, scrollStart } = dragging;
      const scrolled = box.scrollTop - scrollStart;
      const dy = dragging.clientY - dragging.startY + scrolled;
      const centre = mids[index] + dy;
      let target = 0;
      mids.forEach((mid, j) => {
        if (j !== index && (j < index ? mid < centre : mid <= centre)) target += 1;
      });
      dragging.row.style.transform = `translateY(${dy}px)`;
      rows.forEach((r, j) => {
        if (j === index) return;
        const offset = j > index && j <= target ? -shift : j < index && j >= target ? shift : 0;
        const transform = offset ? `translateY(${offset}px)` : "";
        if (r.style.transform !== transform) r.style.transform = transform;
        // Position numbers follow the rows (written only where they change: a new text is a new layout).
        setText(r.querySelector(".ndcg-x-pos"), String(j + 1 + Math.sign(offset)));
      });
      setText(dragging.row.querySelector(".ndcg-x-pos"), String(target + 1));
      if (target !== dragging.target || root.dataset.state !== "preview") {
        dragging.target = target;
        showPreview(view);
      }
    }

    // Near the top or bottom edge of the scrolling notebook, scroll it, faster nearer the edge.
    function autoScroll() {
      if (!dragging || !dragging.active) return;
      const { box, area } = dragging;
      const y = dragging.clientY;
      const speed = y < area.top + EDGE ? -Math.ceil((area.top + EDGE - y) / 4) : y > area.bottom - EDGE ? Math.ceil((y - area.bottom + EDGE) / 4) : 0;
      if (speed) {
        const before = box.scrollTop;
        box.scrollTop += Math.max(-20, Math.min(20, speed));
        if (box.scrollTop !== before) guard(follow);
      }
      dragging.frame = requestAnimationFrame(autoScroll);
    }

    function escape(event) {
      if (event.key !== "Escape" || !dragging || dragging.view !== view) return;
      event.preventDefault();
      event.stopPropagation();
      guard(() => {
        const { row, pointerId } = dragging;
        if (row.hasPointerCapture(pointerId)) row.releasePointerCapture(pointerId);
        finish({ pointerId }, false);
        say(t("cancelled"));
      });
    }

    const finish = (event, drop) => {
      if (!dragging || dragging.view !== view || event.pointerId !== dragging.pointerId) return;
      const { row, rows, index, target, active, stale, frame: pending } = dragging;
      dragging = null;
      cancelAnimationFrame(pending);
      window.removeEventListener("keydown", escape, true);
      list.classList.remove("is-sorting");
      row.classList.remove("is-dragging");
      rows.forEach((r) => { r.style.transform = ""; });
      const item = row.dataset.item;
      if (drop && active && target !== index) {
        commit(view, moved(model.get(view.trait), index, target), item, "row");
      } else if (stale || active) {
        update(view);
      }
    };
    list.addEventListener("pointerup", (event) => guard(() => finish(event, true)));
    list.addEventListener("pointercancel", (event) => guard(() => finish(event, false)));
  }

  // While dragging: the numbers a drop at the current target would give (or, without a preview, the current ones, marked stale).
  function showPreview(view) {
    const { index, target, row, order } = dragging;
    const display = previewOf(view, order, row.dataset.item, target);
    view.previewDisplay = display;
    root.dataset.state = "preview";
    root.setAttribute("aria-busy", "false");
    if (display) showNumbers(view, display, false);
    else if (target === index) showNumbers(view, view.display || fromPanel(panelOf(view)), false);
    else renderNumbers(view, view.display || fromPanel(panelOf(view)), true);
  }

  function renderNumbers(view, display, stale) {
    const panel = panelOf(view);
    if (view.title) view.title.textContent = panel.name;
    if (!view.metricNodes) buildCards(view, panel);
    panel.metrics.forEach((metric, i) => {
      const nodes = view.metricNodes[metric.key];
      if (!nodes) return;
      setText(nodes.label, metric.label);
      setText(nodes.value, display.texts[i]);
      if (nodes.card.title !== metric.help) nodes.card.title = metric.help;
    });
    view.cards.classList.toggle("is-stale", stale);
    for (const [group, title] of Object.entries(view.groupTitles)) setText(title, panel.groups[group]);
  }

  // Graded metrics (NDCG first and large) above the binary ones, each group under its title.
  function buildCards(view, panel) {
    view.metricNodes = {};
    view.groupTitles = {};
    const card = (metric, primary) => {
      const label = h("div", { class: "ndcg-x-card-label" });
      const value = h("div", { class: "ndcg-x-card-value", "data-metric": metric.key });
      const node = h("div", { class: `ndcg-x-card${primary ? " is-primary" : ""}` }, label, value);
      view.metricNodes[metric.key] = { card: node, label, value };
      return node;
    };
    const [primary, ...rest] = panel.metrics;
    if (compare) {
      // The comparison table shows every metric of both rankings; each panel keeps its NDCG in view.
      view.cards.replaceChildren(card(primary, true));
      return;
    }
    const sections = Object.keys(panel.groups).map((group) => {
      const title = h("div", { class: "ndcg-x-group-title" });
      view.groupTitles[group] = title;
      const cards = rest.filter((metric) => metric.group === group).map((metric) => card(metric, false));
      if (group === primary.group) cards.unshift(card(primary, true));
      return [title, h("div", { class: `ndcg-x-group ndcg-x-group--${group}` }, cards)];
    });
    view.cards.replaceChildren(...sections.flat());
  }

  // What each view shows right now: the drag preview, the display of its order, or the kernel's panel.
  function currentDisplay(view) {
    if (dragging && dragging.view === view && dragging.active && view.previewDisplay) return view.previewDisplay;
    return view.display || fromPanel(panelOf(view));
  }

  // ---- Compare mode: every metric of both rankings and the difference --------------------
  const comparison = compare ? h("table", { class: "ndcg-x-comparison", "data-testid": "comparison" }) : null;

  function renderComparison() {
    if (!comparison) return;
    const [a, b] = model.get("names");
    const previewRows = views.map(currentDisplay).find((display) => display.comparison);
    const rows = previewRows ? previewRows.comparison : model.get("comparison");
    const head = d("thead", {}, d("tr", {}, d("th", { text: t("metric") }), d("th", { text: a }), d("th", { text: b }), d("th", { text: `${b} − ${a}` })));
    const body = d("tbody", {}, rows.map((row) =>
      d("tr", {},
        d("th", { scope: "row", text: row.label }),
        d("td", { text: row.a }),
        d("td", { text: row.b }),
        d("td", { class: row.sign > 0 ? "is-up" : row.sign < 0 ? "is-down" : "", "data-metric-diff": row.key, text: row.delta }))));
    draw(comparison, [head, body]);
  }

  // ---- Plots: SVG from Python's arrays, redrawn at the figure's own width --------------------
  function figure(testid, caption, alt, legend) {
    const svg = build(s("svg", { class: "ndcg-x-plot", role: "img", "aria-label": alt, width: "100%" }));
    const score = h("div", { class: "ndcg-x-score", "data-testid": `${testid}-score` });
    const node = h("figure", { class: "ndcg-x-figure", "data-testid": testid },
      h("figcaption", { text: caption }),
      h("ul", { class: "ndcg-x-legend" }, legend.map(([cls, text]) => h("li", {}, h("span", { class: `ndcg-x-key ${cls}`, "aria-hidden": "true" }), text))),
      svg, score);
    return { svg, node, score, width: 0 };
  }
  const discountPlot = compare ? null : figure("discount-plot", t("discount_caption"), t("discount_alt"),
    [["is-gain", t("gain")], ["is-share", t("legend_share")], ["is-curve", t("discount")]]);
  const cumulativePlot = figure("cumulative-plot", compare ? t("cumulative_caption_compare") : t("cumulative_caption"), t("cumulative_alt"),
    compare ? [["is-run-0", t("legend_running_named", { name: model.get("names")[0] })], ["is-run-1", t("legend_running_named", { name: model.get("names")[1] })], ["is-ideal", t("legend_ideal")]]
      : [["is-run-0", t("legend_running")], ["is-ideal", t("legend_ideal")], ["is-gap", t("legend_gap")]]);

  function renderPlots() {
    const displays = views.map(currentDisplay);
    if (discountPlot && discountPlot.width) drawDiscount(discountPlot.svg, discountPlot.width, displays[0].plot, t);
    if (cumulativePlot.width) drawCumulative(cumulativePlot.svg, cumulativePlot.width, displays.map((d) => d.plot), t);
    setText(cumulativePlot.score, displays.map((d, i) => (compare ? t("named_score", { name: model.get("names")[i], score: d.plot.score }) : d.plot.score)).join(" · "));
  }

  const resize = new ResizeObserver(() => guard(() => {
    let changed = false;
    for (const plot of [discountPlot, cumulativePlot].filter(Boolean)) {
      const width = Math.floor(plot.svg.parentElement.clientWidth - 2 * 8);
      if (width > 0 && width !== plot.width) {
        plot.width = width;
        changed = true;
      }
    }
    if (changed) renderPlots();
  }));
  cleanups.push(() => resize.disconnect());

  // ---- Step table: the explain_ndcg trace ----------------------------------------------------
  const table = h("table", { class: "ndcg-x-table", "data-testid": "step-table" });
  const formula = h("div", { class: "ndcg-x-formula", "data-testid": "formula" });
  const notes = h("div", { class: "ndcg-x-notes" });
  let formulaShown = "";

  // Python says which columns are labels and which belong to the ideal ranking; no column positions here.
  function columnClass(column) {
    return [column.label && "is-label", column.ideal && "is-ideal", column.start && "is-ideal-start"].filter(Boolean).join(" ");
  }

  function renderSteps(display, stale) {
    const panel = panels()[0];
    const classes = panel.columns.map(columnClass);
    draw(table, [
      d("thead", {}, d("tr", {}, panel.columns.map((column, i) => d("th", { class: classes[i], text: column.text })))),
      d("tbody", {}, display.steps.map((cells) => d("tr", {}, cells.map((text, i) => d("td", { class: classes[i], text })))))]);
    table.classList.toggle("is-stale", stale);
  }

  // The formula with the numbers is the kernel's: greyed while it belongs to another order than the one shown.
  function renderFormula(display) {
    const panel = panels()[0];
    const text = JSON.stringify([panel.formula, panel.notes]);
    if (text !== formulaShown) {
      formulaShown = text;
      formula.replaceChildren(...panel.formula.map((line) => h("div", { text: line })));
      notes.textContent = panel.notes.join(" · ");
    }
    formula.classList.toggle("is-stale", !same(display.order, panel.order));
  }

  function showNoticeText(text, kind) {
    const error = kind === "error" && text !== "";
    notice.className = `ndcg-x-notice${error ? " is-error" : ""}`;
    if (error) notice.setAttribute("role", "alert");
    else notice.removeAttribute("role");
    notice.textContent = text;
  }

  function showNotice() {
    const { text = "", kind = "info" } = model.get("notice");
    showNoticeText(text, kind);
    if (text) say(text);
    if (kind === "error") views.forEach((view) => { view.rows = null; renderList(view, model.get(view.trait)); }); // put back any grade typed
  }

  // ---- Layout --------------------------------------------------------------------------------
  if (compare) {
    root.append(controls, notice,
      h("div", { class: "ndcg-x-duel" }, views.map((view) => { view.section.append(view.cards); return view.section; })),
      hint,
      h("div", { class: "ndcg-x-lower" }, comparison, h("div", { class: "ndcg-x-plots" }, cumulativePlot.node)),
      live);
  } else {
    const [view] = views;
    view.section.append(hint, notice);
    root.append(controls,
      h("div", { class: "ndcg-x-main" }, view.section, view.cards),
      h("div", { class: "ndcg-x-plots" }, discountPlot.node, cumulativePlot.node),
      h("section", { class: "ndcg-x-steps" },
        h("h4", { class: "ndcg-x-subtitle", text: t("steps_title") }),
        h("div", { class: "ndcg-x-table-wrap", tabindex: 0, role: "region", "aria-label": t("steps_region"), ...SUPPRESS }, table), formula, notes),
      live);
  }
  el.append(root);
  for (const plot of [discountPlot, cumulativePlot].filter(Boolean)) resize.observe(plot.node);

  guard(() => {
    showControls();
    views.forEach(update);
    // Ask for previews at once: Python answers with every item's for a short list, the top item's for a long one.
    views.forEach((view) => requestPreview(view, model.get(view.trait)[0]));
    const { text = "", kind = "info" } = model.get("notice");
    showNoticeText(kind === "error" ? text : "", kind);
  });

  on("k gain discount threshold", showControls);
  on("panels comparison names relevance labels max_grade", () => views.forEach(update));
  views.forEach((view) => on(view.trait, () => { if (!committing) update(view); }));
  on("notice", showNotice);
  on("msg:custom", storePreviews);

  return () => {
    for (const [name, handler] of listeners) model.off(name, handler);
    for (const cleanup of cleanups) cleanup();
  };
}

export default { render };
