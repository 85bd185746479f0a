// Front end of RankingExplorer and CompareExplorer (ndcg_teach/widgets/explorer.py).
// Python computes every number; this module only draws what it receives and sends back
// what the learner did: a new order (the synced ranking trait), a grade typed into a row,
// or an order button (custom messages {event: "grade" | "action", ...}).

// JupyterLab and Notebook 7 turn key presses into notebook commands ("a" inserts a cell)
// unless the focused element itself carries this attribute; a wrapper is not enough.
const SUPPRESS = { "data-lm-suppress-shortcuts": "true" };
const DRAG_SLOP = 4; // pixels a pointer moves before a press becomes a drag
const HINT = "Drag a row, or focus it and press Alt+↑ / Alt+↓ (↑ / ↓ alone move between rows). Type a grade to change it.";

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

function moved(order, from, to) {
  const next = order.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

function render({ model, el }) {
  const panels = () => model.get("panels");
  const compare = panels().length > 1;
  const listeners = [];
  const urls = new Set();
  let focusAfterRender = null; // {item, role} to focus once a list is rebuilt
  let dragging = null;
  let committing = false; // set while this view itself changes a ranking, which it redraws after sending

  function on(names, handler) {
    const guarded = () => guard(handler);
    for (const name of names.split(" ")) {
      model.on(`change:${name}`, guarded);
      listeners.push([`change:${name}`, guarded]);
    }
  }

  // Errors in our handlers are shown in the widget rather than thrown at the page.
  function guard(action) {
    try {
      action();
    } catch (error) {
      notice.className = "ndcg-x-notice is-error";
      notice.textContent = `The explorer hit a display error: ${error.message}`;
      console.error(error);
    }
  }

  const root = h("div", {
    class: `ndcg-x${compare ? " ndcg-x--compare" : ""}`,
    "data-testid": compare ? "compare-explorer" : "ranking-explorer",
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
  const kInput = h("input", { type: "range", min: 1, max: n, step: 1, "data-control": "k", "aria-label": "cut-off k", ...SUPPRESS });
  const kOut = h("output", { class: "ndcg-x-kvalue" });
  const select = (name, options, label) => {
    const node = h("select", { "data-control": name, "aria-label": label, ...SUPPRESS },
      options.map(([value, text]) => h("option", { value, text })));
    node.addEventListener("change", () => {
      model.set(name, name === "threshold" ? Number(node.value) : node.value);
      model.save_changes();
    });
    return node;
  };
  // The choices, the order buttons and the metric cards all come from Python (the `choices` trait).
  const choices = model.get("choices");
  const gainSelect = select("gain", choices.gain, "gain");
  const discountSelect = select("discount", choices.discount, "discount");
  const grades = Array.from({ length: model.get("max_grade") }, (_, i) => [String(i + 1), `grade ≥ ${i + 1}`]);
  const thresholdSelect = select("threshold", grades, "relevant from grade");
  kInput.addEventListener("input", () => {
    model.set("k", Number(kInput.value));
    model.save_changes();
  });
  const field = (label, ...control) => h("label", { class: "ndcg-x-field" }, h("span", { class: "ndcg-x-field-label", text: label }), ...control);
  const controls = h("div", { class: "ndcg-x-controls" },
    field("cut-off k", kInput, kOut),
    field("gain", gainSelect),
    field("discount", discountSelect),
    field("relevant if", thresholdSelect));

  function showControls() {
    kInput.value = model.get("k");
    kOut.textContent = `${model.get("k")} of ${n}`;
    gainSelect.value = model.get("gain");
    discountSelect.value = model.get("discount");
    thresholdSelect.value = String(model.get("threshold"));
  }

  // ---- One panel per ranking: order buttons, the draggable list, the live numbers -----------
  // One hint for the whole widget (under the list, or under both lists), described to screen readers by id.
  const hint = h("p", { class: "ndcg-x-hint", id: `ndcg-x-hint-${Math.random().toString(36).slice(2, 10)}`, text: HINT });
  const views = panels().map((panel, index) => buildPanel(panel.trait, index));

  function buildPanel(trait, index) {
    const list = h("ol", {
      class: "ndcg-x-list",
      "aria-label": "Ranked items, best first",
      "aria-describedby": hint.id,
      "data-testid": "ranked-list",
    });
    const toolbar = h("div", { class: "ndcg-x-toolbar", role: "group", "aria-label": "Order buttons" },
      choices.actions.map(([action, text, title]) => {
        const button = h("button", { type: "button", class: "ndcg-x-button", "data-action": action, title, text, ...SUPPRESS });
        button.addEventListener("click", () => model.send({ event: "action", name: action, ranking: trait }));
        return button;
      }));
    const cards = h("div", { class: "ndcg-x-metrics", "data-testid": "metrics" });
    const title = compare ? h("h3", { class: "ndcg-x-title" }) : null;
    const section = h("section", { class: "ndcg-x-panel", "data-testid": "ranking-panel", "data-ranking": trait },
      h("div", { class: "ndcg-x-panel-head" }, title, toolbar), list);
    const view = { trait, index, list, cards, title, section };
    attachDrag(view);
    attachKeys(view);
    return view;
  }

  function panelOf(view) {
    return panels()[view.index];
  }

  function renderList(view) {
    if (dragging && dragging.view === view) {
      dragging.stale = true;
      return;
    }
    const panel = panelOf(view);
    const order = model.get(view.trait);
    const relevance = model.get("relevance");
    const labels = model.get("labels");
    const k = model.get("k");
    const top = model.get("max_grade");
    const active = view.list.contains(document.activeElement) ? document.activeElement : null;
    const keep = focusAfterRender && focusAfterRender.trait === view.trait ? focusAfterRender
      : active ? { item: active.closest("[data-item]")?.dataset.item, role: active.dataset.role || "row" } : null;
    const rows = order.map((item, i) => {
      const grade = relevance[item];
      const relevant = panel.relevant[item];
      const label = labels[item] && labels[item] !== item ? labels[item] : "";
      const position = i + 1;
      const row = h("li", {
        class: `ndcg-x-row${position > k ? " is-beyond" : ""}${position === k && k < order.length ? " is-cut" : ""}`,
        "data-item": item,
        "data-position": position,
        "data-cut": position === k && k < order.length ? `cut-off k = ${k}` : null,
        tabindex: 0,
        "aria-label": `Position ${position} of ${order.length}: ${item}${label ? ` (${label})` : ""}, grade ${grade}${relevant ? ", relevant" : ""}${position > k ? ", below the cut-off" : ""}`,
        ...SUPPRESS,
      },
        h("span", { class: "ndcg-x-handle", "aria-hidden": "true", title: "Drag to move" }, "⠿"),
        h("span", { class: "ndcg-x-pos", "aria-hidden": "true", text: position }),
        h("span", { class: "ndcg-x-name" },
          h("span", { class: "ndcg-x-id", text: item }),
          label ? h("span", { class: "ndcg-x-label", text: label }) : null),
        h("span", { class: "ndcg-x-grade" },
          h("span", { class: "ndcg-x-bar", "aria-hidden": "true" },
            h("span", { class: "ndcg-x-bar-fill", style: `width: ${(100 * grade) / Math.max(top, 1)}%` })),
          h("input", {
            type: "number", min: 0, max: top, step: 1, value: grade, class: "ndcg-x-grade-input",
            "data-role": "grade", "aria-label": `grade of ${item} (0 to ${top})`, title: `grade of ${item}: type 0 to ${top}`,
            ...SUPPRESS,
          })),
        h("span", {
          class: `ndcg-x-rel${relevant ? " is-relevant" : ""}`,
          title: relevant ? "relevant: counts for the binary metrics" : "not relevant at this threshold",
          "aria-hidden": "true",
          text: relevant ? "✓" : "·",
        }),
        h("span", { class: "ndcg-x-arrows" },
          h("button", { type: "button", class: "ndcg-x-step", "data-role": "up", tabindex: -1, "aria-label": `Move ${item} up`, title: "Move up", disabled: i === 0, ...SUPPRESS }, "▲"),
          h("button", { type: "button", class: "ndcg-x-step", "data-role": "down", tabindex: -1, "aria-label": `Move ${item} down`, title: "Move down", disabled: i === order.length - 1, ...SUPPRESS }, "▼")));
      return row;
    });
    view.list.replaceChildren(...rows);
    focusAfterRender = null;
    if (keep && keep.item) {
      const row = view.list.querySelector(`[data-item="${CSS.escape(keep.item)}"]`);
      const target = keep.role === "row" ? row : row?.querySelector(`[data-role="${keep.role}"]`);
      (target && !target.disabled ? target : row)?.focus({ preventScroll: true });
    }
  }

  function commit(view, order, item, role) {
    // Send first, redraw second: the kernel computes while the browser lays out the new list.
    committing = true;
    model.set(view.trait, order);
    committing = false;
    model.save_changes();
    focusAfterRender = { trait: view.trait, item, role };
    renderList(view);
    say(`${item} moved to position ${order.indexOf(item) + 1} of ${order.length}.`);
  }

  function step(view, item, delta, role) {
    const order = model.get(view.trait);
    const from = order.indexOf(item);
    const to = from + delta;
    if (to < 0 || to >= order.length) {
      say(`${item} is already at the ${delta < 0 ? "top" : "bottom"}.`);
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
      model.send({ event: "grade", item: input.closest("[data-item]").dataset.item, grade: input.value });
    }));
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
      dragging = {
        view, row, rows, index, target: index, pointerId: event.pointerId, startY: event.clientY,
        mids: rects.map((r) => r.top + r.height / 2), shift: rects[index].height + gap, active: false, stale: false,
      };
      row.setPointerCapture(event.pointerId);
    }));
    list.addEventListener("pointermove", (event) => guard(() => {
      if (!dragging || dragging.view !== view || event.pointerId !== dragging.pointerId) return;
      const dy = event.clientY - dragging.startY;
      if (!dragging.active) {
        if (Math.abs(dy) < DRAG_SLOP) return;
        dragging.active = true;
        list.classList.add("is-sorting");
        dragging.row.classList.add("is-dragging");
      }
      event.preventDefault();
      const { index, mids, rows, shift } = dragging;
      const centre = mids[index] + dy;
      let target = 0;
      mids.forEach((mid, j) => {
        if (j !== index && (j < index ? mid < centre : mid <= centre)) target += 1;
      });
      dragging.target = target;
      dragging.row.style.transform = `translateY(${dy}px)`;
      rows.forEach((r, j) => {
        if (j === index) return;
        const offset = j > index && j <= target ? -shift : j < index && j >= target ? shift : 0;
        r.style.transform = offset ? `translateY(${offset}px)` : "";
      });
    }));
    const finish = (event, drop) => guard(() => {
      if (!dragging || dragging.view !== view || event.pointerId !== dragging.pointerId) return;
      const { row, rows, index, target, active, stale } = dragging;
      dragging = null;
      list.classList.remove("is-sorting");
      row.classList.remove("is-dragging");
      rows.forEach((r) => { r.style.transform = ""; });
      const item = row.dataset.item;
      if (drop && active && target !== index) {
        commit(view, moved(model.get(view.trait), index, target), item, "row");
      } else if (stale) {
        renderList(view);
      }
    });
    list.addEventListener("pointerup", (event) => finish(event, true));
    list.addEventListener("pointercancel", (event) => finish(event, false));
  }

  function renderNumbers(view) {
    const panel = panelOf(view);
    if (view.title) view.title.textContent = panel.name;
    if (!view.metricNodes) buildCards(view, panel);
    for (const metric of panel.metrics.filter((m) => m.key in view.metricNodes)) {
      const nodes = view.metricNodes[metric.key];
      nodes.label.textContent = metric.label;
      nodes.value.textContent = metric.text;
      nodes.card.title = metric.help;
    }
    for (const [group, title] of Object.entries(view.groupTitles)) title.textContent = panel.groups[group];
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

  // ---- Compare mode: every metric of both rankings and the difference --------------------
  const comparison = compare ? h("table", { class: "ndcg-x-comparison", "data-testid": "comparison" }) : null;

  function renderComparison() {
    if (!comparison) return;
    const [a, b] = model.get("names");
    const head = h("thead", {}, h("tr", {}, h("th", { text: "metric" }), h("th", { text: a }), h("th", { text: b }), h("th", { text: `${b} − ${a}` })));
    const body = h("tbody", {}, model.get("comparison").map((row) =>
      h("tr", {},
        h("th", { scope: "row", text: row.label }),
        h("td", { text: row.a }),
        h("td", { text: row.b }),
        h("td", { class: row.sign > 0 ? "is-up" : row.sign < 0 ? "is-down" : "", "data-metric-diff": row.key, text: row.delta }))));
    comparison.replaceChildren(head, body);
  }

  // ---- Plots: PNG bytes from Python's persistent matplotlib figures ----------------------------
  function figure(testid, caption, alt) {
    const img = h("img", { alt, class: "ndcg-x-plot" });
    return { img, node: h("figure", { class: "ndcg-x-figure", "data-testid": testid }, h("figcaption", { text: caption }), img) };
  }
  const discountPlot = figure("discount-plot", "Discount curve and each item's share of DCG",
    "Bars: each item's gain and gain times discount at its position; line: the discount; dashed line: the cut-off k.");
  const cumulativePlot = figure("cumulative-plot", compare ? "Running DCG of both rankings vs running IDCG" : "Running DCG vs running IDCG",
    "Running DCG and running IDCG over positions 1 to k; the gap between them is what NDCG measures.");

  function showPng(plot, trait) {
    const bytes = model.get(trait);
    const empty = !bytes || bytes.byteLength === 0;
    plot.node.hidden = empty;
    if (empty) return;
    const url = URL.createObjectURL(new Blob([bytes], { type: "image/png" }));
    const previous = plot.img.getAttribute("src");
    urls.add(url);
    plot.img.onload = () => {
      if (previous && previous !== url) {
        URL.revokeObjectURL(previous);
        urls.delete(previous);
      }
    };
    plot.img.src = url;
  }

  // ---- Step table: the explain_ndcg trace ----------------------------------------------------
  const table = h("table", { class: "ndcg-x-table", "data-testid": "step-table" });
  const formula = h("div", { class: "ndcg-x-formula", "data-testid": "formula" });
  const notes = h("div", { class: "ndcg-x-notes" });

  // Python says which columns are labels and which belong to the ideal ranking; no column positions here.
  function columnClass(column) {
    return [column.label && "is-label", column.ideal && "is-ideal", column.start && "is-ideal-start"].filter(Boolean).join(" ");
  }

  function renderSteps() {
    const panel = panels()[0];
    table.replaceChildren(
      h("thead", {}, h("tr", {}, panel.columns.map((column) => h("th", { class: columnClass(column), text: column.text })))),
      h("tbody", {}, panel.steps.map((cells) => h("tr", {}, cells.map((text, i) => h("td", { class: columnClass(panel.columns[i]), text }))))));
    formula.replaceChildren(...panel.formula.map((line) => h("div", { text: line })));
    notes.textContent = panel.notes.join(" · ");
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
    if (kind === "error") views.forEach(renderList); // put back any grade the learner typed
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
        h("h4", { class: "ndcg-x-subtitle", text: "Step by step (explain_ndcg)" }),
        h("div", { class: "ndcg-x-table-wrap" }, table), formula, notes),
      live);
  }
  el.append(root);

  guard(() => {
    showControls();
    views.forEach((view) => { renderList(view); renderNumbers(view); });
    renderComparison();
    if (!compare) renderSteps();
    showPng(discountPlot, "discount_png");
    showPng(cumulativePlot, "cumulative_png");
    const { text = "", kind = "info" } = model.get("notice");
    showNoticeText(kind === "error" ? text : "", kind);
  });

  on("k gain discount threshold", showControls);
  on("panels", () => {
    views.forEach((view) => { renderNumbers(view); renderList(view); });
    if (!compare) renderSteps();
  });
  on("comparison names", renderComparison);
  on("relevance labels max_grade", () => views.forEach(renderList));
  views.forEach((view) => on(view.trait, () => { if (!committing) renderList(view); }));
  on("discount_png", () => showPng(discountPlot, "discount_png"));
  on("cumulative_png", () => showPng(cumulativePlot, "cumulative_png"));
  on("notice", showNotice);

  return () => {
    for (const [name, handler] of listeners) model.off(name, handler);
    for (const url of urls) URL.revokeObjectURL(url);
  };
}

export default { render };
