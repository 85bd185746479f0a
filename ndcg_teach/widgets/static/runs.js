// Front end of RunExplorer's overview (ndcg_teach/widgets/run_explorer.py), lesson 20; joined after dom.js (h, s, draw).
// Python computes every number (the `bars` trait: each query's value or difference B − A, lowest first as evaluated,
// and which changed; the `summary` trait: the mean difference and the tests, from ndcg_teach.statistics.significance); this
// file draws them and sends back what the learner chose: a query to open below ({event: "open", query, run}) or a
// reset ({event: "reset"}). A query opens in the widget under this one, a QueryExplorer, which has its own front end.
// No words live here: Python sends them once, in the learner's language (the `messages` trait).

const QUIET_KEYS = { "data-lm-suppress-shortcuts": "true" };
const PLOT_W = 1000;
const PLOT_H = 180;

function render({ model, el }) {
  const messages = model.get("messages");
  const t = (key, values) => fill(messages[key], values);
  const [nameA, nameB] = model.get("labels");
  const queries = model.get("queries");
  const n = queries.length;
  const listeners = [];
  const on = (name, handler) => {
    const guarded = () => guard(handler);
    model.on(name, guarded);
    listeners.push([name, guarded]);
  };
  const notice = h("div", { class: "ndcg-d-notice", "data-testid": "notice" });
  function guard(action) {
    try {
      action();
    } catch (error) {
      notice.className = "ndcg-d-notice is-error";
      notice.textContent = error.message;
      console.error(error);
    }
  }
  const two = () => model.get("bars").two;
  let cursor = 0; // the bar the keyboard (or the pointer) is on
  let run = two() ? 1 : 0; // which run a query opens in
  const open = (index) => guard(() => model.send({ event: "open", query: queries[index], run }));

  // ---- The bars: one per query, lowest first; one path for all of them keeps 2,000 queries cheap ------------
  const plot = document.createElementNS(SVG, "svg");
  setAttributes(plot, { viewBox: `0 0 ${PLOT_W} ${PLOT_H}`, preserveAspectRatio: "none", class: "ndcg-r-plot",
    role: "img", "aria-label": t("plot"), "data-testid": "bars" });
  const frame = h("div", { class: "ndcg-r-frame", tabindex: 0, role: "group", "aria-label": t("plot"), ...QUIET_KEYS }, plot);
  const caption = h("p", { class: "ndcg-r-caption", "aria-live": "polite", "data-testid": "bar-caption" });
  const x = (index) => (index * PLOT_W) / n;
  function scale(bars) {
    const low = bars.low;
    const high = bars.high === low ? low + 1 : bars.high;
    return (value) => PLOT_H - 6 - ((value - low) / (high - low)) * (PLOT_H - 12);
  }
  function barsPath(bars, indices) {
    const y = scale(bars);
    const zero = y(0);
    const width = Math.max(PLOT_W / n - (n <= 200 ? 1 : 0), 0.6);
    return indices.map((i) => {
      const top = Math.min(y(bars.values[i]), zero);
      const height = Math.max(Math.abs(y(bars.values[i]) - zero), 0.8);
      return `M${x(i).toFixed(2)} ${top.toFixed(2)}h${width.toFixed(2)}v${height.toFixed(2)}h${(-width).toFixed(2)}z`;
    }).join("");
  }
  function drawBars() {
    const bars = model.get("bars");
    const changed = new Set(bars.changed);
    const all = [...Array(n).keys()];
    const opened = model.get("opened");
    const openIndex = opened.query === undefined ? -1 : queries.indexOf(opened.query);
    const y = scale(bars);
    draw(plot, [
      s("line", { x1: 0, x2: PLOT_W, y1: y(0), y2: y(0), class: "ndcg-r-zero" }),
      s("path", { d: barsPath(bars, all.filter((i) => !changed.has(i) && (!bars.two || bars.values[i] >= 0))), class: "ndcg-r-bar" }),
      s("path", { d: barsPath(bars, all.filter((i) => !changed.has(i) && bars.two && bars.values[i] < 0)), class: "ndcg-r-bar is-down" }),
      s("path", { d: barsPath(bars, all.filter((i) => changed.has(i))), class: "ndcg-r-bar is-changed", "data-testid": "changed-bars" }),
      openIndex < 0 ? null : s("rect", { x: x(openIndex) - 1, y: 1, width: Math.max(PLOT_W / n, 2) + 2, height: PLOT_H - 2,
        class: "ndcg-r-open", "data-testid": "open-bar" }),
      s("rect", { x: x(cursor), y: 0, width: Math.max(PLOT_W / n, 2), height: PLOT_H, class: "ndcg-r-cursor" }),
    ]);
    showCursor();
  }
  function showCursor() {
    const bars = model.get("bars");
    const changed = bars.changed.includes(cursor);
    const start = bars.two ? `${bars.start[cursor] >= 0 ? "+" : ""}${bars.start[cursor].toFixed(4)}` : bars.start[cursor].toFixed(4);
    setText(caption, t(changed ? "bar_changed" : "bar", { query: queries[cursor], value: bars.texts[cursor], start }));
  }
  const indexAt = (event) => {
    const box = plot.getBoundingClientRect();
    return Math.min(n - 1, Math.max(0, Math.floor(((event.clientX - box.left) / box.width) * n)));
  };
  plot.addEventListener("pointermove", (event) => guard(() => {
    cursor = indexAt(event);
    drawBars();
  }));
  plot.addEventListener("click", (event) => {
    cursor = indexAt(event);
    open(cursor);
  });
  frame.addEventListener("keydown", (event) => guard(() => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowDown: -1, ArrowUp: 1, PageDown: -10, PageUp: 10 };
    if (event.key in moves) cursor = Math.min(n - 1, Math.max(0, cursor + moves[event.key]));
    else if (event.key === "Home") cursor = 0;
    else if (event.key === "End") cursor = n - 1;
    else if (event.key === "Enter" || event.key === " ") open(cursor);
    else return;
    event.preventDefault();
    event.stopPropagation();
    drawBars();
  }));

  // ---- The worst queries, as buttons -----------------------------------------------------------------------------
  const worst = h("ol", { class: "ndcg-r-worst", "aria-label": t("worst"), "data-testid": "worst" });
  const worstButtons = queries.slice(0, 10).map((query, index) => {
    const value = h("span", { class: "ndcg-r-worst-value" });
    const button = h("button", { type: "button", class: "ndcg-r-query", "data-query": query, title: t("open_title", { query }), ...QUIET_KEYS },
      h("span", { class: "ndcg-r-worst-id", text: query }), value);
    button.addEventListener("click", () => {
      cursor = index;
      open(index);
    });
    worst.append(h("li", {}, button));
    return { button, value };
  });

  // ---- Which run a query opens in (two runs), and the reset ---------------------------------------------------------
  const runButtons = [nameA, nameB].map((name, index) => {
    const button = h("button", { type: "button", class: "ndcg-r-run", "data-run": index, text: name, ...QUIET_KEYS });
    button.addEventListener("click", () => guard(() => {
      run = index;
      showRun();
      const opened = model.get("opened");
      if (opened.query !== undefined) model.send({ event: "open", query: opened.query, run });
    }));
    return button;
  });
  const runChoice = h("div", { class: "ndcg-r-runs", role: "group", "aria-label": t("opens") },
    h("span", { class: "ndcg-r-runs-label", text: t("opens") }), runButtons);
  function showRun() {
    runButtons.forEach((button, index) => button.setAttribute("aria-pressed", String(index === run)));
  }
  const reset = h("button", { type: "button", class: "ndcg-d-reset", title: t("reset_title"), text: t("reset"), "data-action": "reset", ...QUIET_KEYS });
  reset.addEventListener("click", () => guard(() => model.send({ event: "reset" })));

  // ---- The means and the tests, as lesson 13's explorer shows them ------------------------------------------------
  const card = (key, label) => {
    const value = h("div", { class: "ndcg-d-card-value", "data-result": key });
    const detail = h("div", { class: "ndcg-d-card-detail" });
    const title = h("div", { class: "ndcg-d-card-label", text: label });
    return { node: h("div", { class: "ndcg-d-card" }, title, value, detail), value, detail, title };
  };
  const runA = two() ? nameA : t("as_evaluated");
  const runB = two() ? nameB : t("as_changed");
  const cards = {
    a: card("mean-a", t("mean_of", { run: runA })),
    b: card("mean-b", t("mean_of", { run: runB })),
    mean: card("mean", t("difference", { a: runA, b: runB })),
    t: card("t", t("t_test")),
    randomisation: card("randomisation", t("randomisation")),
    bootstrap: card("bootstrap", t("bootstrap", { confidence: model.get("summary").bootstrap.confidence })),
  };
  const title = h("h4", { class: "ndcg-d-title", "data-testid": "title" });

  function update() {
    const bars = model.get("bars");
    const summary = model.get("summary");
    setText(title, t(bars.two ? "title_two" : "title_one", { measure: bars.measure, run: bars.run, n, a: nameA, b: nameB }));
    setText(cards.a.value, bars.means[0]);
    setText(cards.b.value, bars.means[1]);
    const [up, down] = summary.wins;
    setText(cards.mean.value, summary.mean);
    setText(cards.mean.detail, t("better", { a: runA, b: runB, up, down, n }));
    setText(cards.t.value, summary.t ? `t = ${summary.t.statistic}` : "t = —");
    setText(cards.t.detail, summary.t ? `p = ${summary.t.p}` : summary.t_undefined);
    setText(cards.randomisation.value, `p = ${summary.randomisation.p}`);
    setText(cards.randomisation.detail, summary.randomisation.details);
    setText(cards.bootstrap.value, `[${summary.bootstrap.low}, ${summary.bootstrap.high}]`);
    cards.bootstrap.node.classList.toggle("is-clear", summary.bootstrap.excludes_zero);
    // The resampling tests follow the bars a moment later (about a second on 2,000 queries): dimmed till then.
    root.dataset.state = summary.pending ? "pending" : "confirmed";
    const changed = new Set(bars.changed);
    const opened = model.get("opened");
    worstButtons.forEach(({ button, value }, index) => {
      setText(value, bars.texts[index]);
      button.classList.toggle("is-changed", changed.has(index));
      button.setAttribute("aria-current", String(queries[index] === opened.query));
    });
    drawBars();
  }

  function showNotice() {
    const { text = "", kind = "info" } = model.get("notice");
    notice.className = `ndcg-d-notice${kind === "error" && text ? " is-error" : ""}`;
    if (kind === "error" && text) notice.setAttribute("role", "alert");
    else notice.removeAttribute("role");
    notice.textContent = text;
  }

  const root = h("div", { class: "ndcg-x ndcg-d ndcg-r", "data-testid": "run-explorer", "data-state": "confirmed", lang: model.get("language") },
    title,
    h("div", { class: "ndcg-r-main" },
      h("div", { class: "ndcg-r-left" }, frame, caption,
        h("div", { class: "ndcg-r-tools" }, two() ? runChoice : null, reset), notice),
      h("div", { class: "ndcg-r-right" },
        h("div", { class: "ndcg-d-cards", "data-testid": "results" }, Object.values(cards).map((item) => item.node)),
        h("h5", { class: "ndcg-r-subtitle", text: t("worst") }), worst)));
  el.append(root);
  guard(() => {
    showRun();
    update();
    showNotice();
  });
  on("change:bars", update);
  on("change:summary", update);
  on("change:opened", () => {
    const opened = model.get("opened");
    if (opened.run !== undefined) run = opened.run; // the kernel may open a query in the other run
    showRun();
    update();
  });
  on("change:notice", showNotice);
  return () => {
    for (const [name, handler] of listeners) model.off(name, handler);
  };
}

export default { render };
