// Front end of RankingExplorer and CompareExplorer (ndcg_teach/widgets/explorer.py): `render` and what ties the
// parts together. The parts are joined before it into one module (SCRIPTS in explorer.py): dom.js (h, s, d, draw),
// plots.js (the figures), previews.js (what a drop would show), rows.js (the list), cards.js (the numbers),
// steps.js (the step table), drag.js (pointer, keyboard, buttons). Each part is a function of `ui`, the state
// they share, and adds its own functions to it.
//
// Python computes every number; the front end only draws what it receives and sends back what the learner
// did: a new order (the synced ranking trait), a control (k, gain, discount, threshold), a grade typed into a
// row, an order button, or a request for previews (custom messages {event: ...}). Python checks each: a
// refused value comes back as the kernel's own, with a notice in the widget saying why.
//
// A drop never waits for the kernel: Python sends "previews" ahead (for each item the learner may move,
// what its destinations would show, all computed by the library), so the browser draws the new order's
// numbers at once; the kernel's own answer (the `panels` trait, which names the order it belongs to) then
// confirms them. The root's data-state says which: "preview" while a row is dragged over a position,
// "pending" after a change the kernel has not confirmed yet, "confirmed" after.
//
// No words live here: Python sends every text once, in the learner's language (the `messages`
// trait, see messages.py), and `fill` puts the values into its {placeholders}.

const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);

function render({ model, el }) {
  const messages = model.get("messages");
  const t = (key, values) => fill(messages[key], values);
  const panels = () => model.get("panels");
  const compare = panels().length > 1;
  const listeners = [];
  const cleanups = [];
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

  // What the parts share. `dragging` is the drag in progress, `focusAfterRender` the row to focus once a list is rebuilt.
  const ui = {
    model, t, compare, root, guard, say, panels, cleanups, views: [], dragging: null, focusAfterRender: null,
    panelOf: (view) => panels()[view.index],
    send: (content) => send(content),
    update: (view) => update(view),
    commit: (view, order, item, role) => commit(view, order, item, role),
    showNumbers: (view, display, stale) => showNumbers(view, display, stale),
    currentDisplay: (view) => currentDisplay(view),
  };
  Object.assign(ui, previewStore(ui), listRows(ui), metricCards(ui), stepTable(ui), plotFigures(ui), rowMoves(ui));

  // ---- Controls shared by every ranking -------------------------------------------------
  const n = model.get(panels()[0].trait).length;
  const kInput = h("input", { type: "range", min: 1, max: n, step: 1, "data-control": "k", "aria-label": t("cutoff"), ...SUPPRESS });
  const kOut = h("output", { class: "ndcg-x-kvalue" });
  const select = (name, options, label) => {
    const node = h("select", { "data-control": name, "aria-label": label, ...SUPPRESS }, options(name));
    node.addEventListener("change", () => guard(() => {
      saveNow();
      model.set(name, name === "threshold" ? Number(node.value) : node.value);
      model.save_changes();
    }));
    return node;
  };
  // The choices, the order buttons and the metric cards all come from Python (the `choices` trait).
  const choices = model.get("choices");
  const optionsOf = (name) => {
    const pairs = name === "threshold"
      ? Array.from({ length: model.get("max_grade") }, (_, i) => [String(i + 1), t("grade_at_least", { grade: i + 1 })])
      : choices[name];
    return pairs.map(([value, text]) => h("option", { value, text }));
  };
  const gainSelect = select("gain", optionsOf, t("gain"));
  const discountSelect = select("discount", optionsOf, t("discount"));
  const thresholdSelect = select("threshold", optionsOf, t("relevant_from"));
  kInput.addEventListener("input", () => guard(() => {
    saveNow();
    model.set("k", Number(kInput.value));
    model.save_changes();
  }));
  const field = (label, ...control) => h("label", { class: "ndcg-x-field" }, h("span", { class: "ndcg-x-field-label", text: label }), ...control);
  // A setting fixed when the explorer was built (choices.locked) has no control.
  const locked = new Set(choices.locked || []);
  const unless = (name, node) => (locked.has(name) ? null : node);
  const controls = h("div", { class: "ndcg-x-controls" },
    field(t("cutoff"), kInput, kOut),
    unless("gain", field(t("gain"), gainSelect)),
    unless("discount", field(t("discount"), discountSelect)),
    unless("threshold", field(t("relevant_if"), thresholdSelect)));

  // The controls show the kernel's values: after a refused change, the value the kernel kept.
  function showControls() {
    kInput.value = model.get("k");
    kOut.textContent = t("k_of_n", { k: model.get("k"), n });
    gainSelect.value = model.get("gain");
    discountSelect.value = model.get("discount");
    if (thresholdSelect.options.length !== model.get("max_grade")) thresholdSelect.replaceChildren(...optionsOf("threshold"));
    thresholdSelect.value = String(model.get("threshold"));
  }

  // ---- One panel per ranking: order buttons, the draggable list, the live numbers -----------
  // One hint for the whole widget (under the list, or under both lists), described to screen readers by id.
  const hint = h("p", { class: "ndcg-x-hint", id: `ndcg-x-hint-${Math.random().toString(36).slice(2, 10)}`, text: t("hint") });
  const views = panels().map((panel, index) => buildPanel(panel.trait, index));
  ui.views.push(...views);

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
    ui.attachDrag(view);
    ui.attachKeys(view);
    return view;
  }

  // ---- What is shown: the kernel's panel, or a preview Python sent ahead -----------------------
  function setState() {
    const state = ui.dragging && ui.dragging.active ? "preview" : views.some((view) => view.pending) ? "pending" : "confirmed";
    root.dataset.state = state;
    root.setAttribute("aria-busy", state === "pending" ? "true" : "false");
  }

  // Bring a view up to date with the model: the list in the model's order; numbers that belong to it.
  function update(view) {
    if (ui.dragging && ui.dragging.view === view) {
      ui.dragging.stale = true;
      return;
    }
    const panel = ui.panelOf(view);
    const order = model.get(view.trait);
    if (same(panel.order, order)) {
      view.display = ui.fromPanel(panel);
      view.pending = false;
    } else {
      view.pending = true;
      if (!view.display || !same(view.display.order, order)) view.display = null;
    }
    ui.renderList(view, order);
    showNumbers(view, view.display || ui.fromPanel(panel), view.display === null);
    setState();
  }

  // Redraw numbers, table and plots, unless they already show exactly this (a kernel confirming a preview).
  function showNumbers(view, display, stale) {
    const panel = ui.panelOf(view);
    if (!compare) ui.renderFormula(display);
    // Plot numbers to 4 decimals, as previews carry them: the kernel's exact confirmation of a preview then changes nothing.
    const signature = JSON.stringify([display.texts, display.steps, display.plot, display.comparison, stale,
      panel.metrics.map((m) => m.label), panel.groups, panel.columns, model.get("comparison")],
    (key, value) => (typeof value === "number" ? Math.round(value * 1e4) : value));
    if (signature === view.signature) return;
    view.signature = signature;
    ui.renderNumbers(view, display, stale);
    if (!compare) ui.renderSteps(display, stale);
    ui.renderPlots();
    ui.renderComparison();
  }

  // What each view shows right now: the drag preview, the display of its order, or the kernel's panel.
  function currentDisplay(view) {
    if (ui.dragging && ui.dragging.view === view && ui.dragging.active && view.previewDisplay) return view.previewDisplay;
    return view.display || ui.fromPanel(ui.panelOf(view));
  }

  // A change made here: shown at once from the preview if Python sent one, then sent to the kernel once the
  // browser has painted it. Sent at once, the kernel and the Jupyter server would compute and relay the
  // confirmation while the browser paints the drop, and on a two-core machine they would slow that paint.
  function commit(view, order, item, role) {
    const base = model.get(view.trait);
    view.display = ui.previewOf(view, base, item, order.indexOf(item));
    committing = true; // this view draws the change itself, below
    try {
      model.set(view.trait, order);
    } finally {
      committing = false;
    }
    ui.focusAfterRender = { trait: view.trait, item, role };
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
    if (kind === "error") views.forEach((view) => { view.rows = null; ui.renderList(view, model.get(view.trait)); }); // put back any grade typed
  }

  // ---- Layout --------------------------------------------------------------------------------
  const { table, formula, notes } = ui.stepNodes;
  if (compare) {
    root.append(controls, notice,
      h("div", { class: "ndcg-x-duel" }, views.map((view) => { view.section.append(view.cards); return view.section; })),
      hint,
      h("div", { class: "ndcg-x-lower" }, ui.comparison, h("div", { class: "ndcg-x-plots" }, ui.cumulativePlot.node)),
      live);
  } else {
    const [view] = views;
    view.section.append(hint, notice);
    root.append(controls,
      h("div", { class: "ndcg-x-main" }, view.section, view.cards),
      h("div", { class: "ndcg-x-plots" }, ui.discountPlot.node, ui.cumulativePlot.node),
      h("section", { class: "ndcg-x-steps" },
        h("h4", { class: "ndcg-x-subtitle", text: t("steps_title") }),
        h("div", { class: "ndcg-x-table-wrap", tabindex: 0, role: "region", "aria-label": t("steps_region"), ...SUPPRESS }, table), formula, notes),
      live);
  }
  el.append(root);
  ui.observePlots();

  guard(() => {
    showControls();
    views.forEach(update);
    // Ask for previews at once: Python answers with every item's for a short list, the top item's for a long one.
    views.forEach((view) => ui.requestPreview(view, model.get(view.trait)[0]));
    const { text = "", kind = "info" } = model.get("notice");
    showNoticeText(kind === "error" ? text : "", kind);
  });

  on("k gain discount threshold max_grade", showControls);
  on("panels comparison names relevance labels max_grade", () => views.forEach(update));
  views.forEach((view) => on(view.trait, () => { if (!committing) update(view); }));
  on("notice", showNotice);
  on("msg:custom", ui.storePreviews);

  return () => {
    for (const [name, handler] of listeners) model.off(name, handler);
    for (const cleanup of cleanups) cleanup();
  };
}

export default { render };
