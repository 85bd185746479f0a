// Front end of DifferenceExplorer (ndcg_teach/widgets/differences.py), lesson 13; joined after dom.js (h, s, draw).
// Python computes every number (the `summary` trait: the differences B − A, their mean, the t-test, the
// randomisation test and the bootstrap interval, from ndcg_teach.statistics.significance); this file draws them and sends
// back what the learner did: a score dragged ({event: "score"}), a query swapped ({event: "swap"}), a reset.
// A dragged score is sent once per frame; the kernel's answer then redraws every number. No words live here:
// Python sends them once, in the learner's language (the `messages` trait).

const SYSTEM_KEYS = ["a", "b"];
// On every control: arrow keys move a slider, not the notebook's cell selection.
const QUIET = { "data-lm-suppress-shortcuts": "true" };
const WIDTH = 420;
const HEIGHT = 96;

function render({ model, el }) {
  const messages = model.get("messages");
  const t = (key, values) => fill(messages[key], values);
  const [nameA, nameB] = model.get("labels");
  const names = { a: nameA, b: nameB, system: "" };
  const queries = model.get("queries");
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

  // ---- One row per query: a slider per system, the difference as a bar, the swap button ----------
  let queued = null; // the score to send at the next frame: {system, query, score}
  // Scores moved here that the kernel has not confirmed yet ("b:0" -> score): its answers to earlier moves must not
  // put the slider back while the learner is still moving it.
  const unconfirmed = new Map();
  const sendScore = () => guard(() => {
    if (!queued) return;
    model.send({ event: "score", ...queued });
    queued = null;
  });
  const rows = queries.map((query, index) => {
    const sliders = {};
    const outputs = {};
    for (const system of SYSTEM_KEYS) {
      outputs[system] = h("output", { class: "ndcg-d-score" });
      sliders[system] = h("input", {
        type: "range", min: 0, max: 1, step: 0.01, class: "ndcg-d-slider", "data-system": system, "data-query": index,
        "aria-label": t("score_aria", { system: names[system], query }), ...QUIET,
      });
      sliders[system].addEventListener("input", () => guard(() => {
        outputs[system].textContent = Number(sliders[system].value).toFixed(2);
        if (!queued) requestAnimationFrame(sendScore);
        queued = { system, query: index, score: Number(sliders[system].value) };
        unconfirmed.set(`${system}:${index}`, queued.score);
      }));
    }
    const swap = h("button", {
      type: "button", class: "ndcg-d-swap", "data-query": index, text: t("swap"),
      title: t("swap_title", { a: nameA, b: nameB, query }), "aria-label": t("swap_title", { a: nameA, b: nameB, query }), ...QUIET,
    });
    swap.addEventListener("click", () => guard(() => {
      unconfirmed.clear();
      model.send({ event: "swap", query: index });
    }));
    const bar = h("span", { class: "ndcg-d-bar-fill" });
    const text = h("span", { class: "ndcg-d-diff-text" });
    const row = h("tr", { "data-query": query },
      h("th", { scope: "row", text: query }),
      ...SYSTEM_KEYS.map((system) => h("td", {}, h("span", { class: "ndcg-d-cell" }, sliders[system], outputs[system]))),
      h("td", { class: "ndcg-d-diff", "data-testid": "difference" }, h("span", { class: "ndcg-d-bar" }, bar), text),
      h("td", {}, swap));
    return { row, sliders, outputs, bar, text };
  });
  const table = h("table", { class: "ndcg-d-table", "data-testid": "scores" },
    h("thead", {}, h("tr", {},
      h("th", { text: t("query") }), h("th", { text: nameA }), h("th", { text: nameB }),
      h("th", { text: t("difference", { a: nameA, b: nameB }) }), h("th", {}))),
    h("tbody", {}, rows.map((row) => row.row)));

  // ---- The tests' numbers, and the differences on a number line with their mean and the interval ----
  const card = (key, label) => {
    const value = h("div", { class: "ndcg-d-card-value", "data-result": key });
    const detail = h("div", { class: "ndcg-d-card-detail" });
    return { node: h("div", { class: "ndcg-d-card" }, h("div", { class: "ndcg-d-card-label", text: label }), value, detail), value, detail };
  };
  const cards = {
    mean: card("mean", t("mean", { a: nameA, b: nameB })),
    t: card("t", t("t_test")),
    randomisation: card("randomisation", t("randomisation")),
    bootstrap: card("bootstrap", t("bootstrap", { confidence: model.get("summary").bootstrap.confidence })),
  };
  const plot = document.createElementNS(SVG, "svg");
  setAttributes(plot, { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "ndcg-d-plot", role: "img", "aria-label": t("plot_alt"), "data-testid": "number-line" });
  const sentences = h("div", { class: "ndcg-d-sentences", "data-testid": "sentences" });
  const reset = h("button", { type: "button", class: "ndcg-d-reset", title: t("reset_title"), text: t("reset"), ...QUIET });
  reset.addEventListener("click", () => guard(() => {
    unconfirmed.clear();
    model.send({ event: "reset" });
  }));

  function drawPlot(summary) {
    const values = summary.values;
    const [low, high] = summary.bootstrap.range;
    const reach = Math.max(0.1, ...values.map(Math.abs), Math.abs(low), Math.abs(high)) * 1.1;
    const x = (value) => WIDTH / 2 + (value / reach) * (WIDTH / 2 - 12);
    const ticks = [-reach / 1.1, 0, reach / 1.1];
    draw(plot, [
      s("line", { x1: 0, x2: WIDTH, y1: 60, y2: 60, class: "ndcg-d-axis" }),
      s("line", { x1: x(0), x2: x(0), y1: 8, y2: 70, class: "ndcg-d-zero" }),
      s("rect", { x: x(low), y: 16, width: Math.max(x(high) - x(low), 1), height: 10, rx: 3,
        class: `ndcg-d-interval${summary.bootstrap.excludes_zero ? " is-clear" : ""}`, "data-testid": "interval" }),
      s("line", { x1: x(summary.mean_value), x2: x(summary.mean_value), y1: 10, y2: 70, class: "ndcg-d-mean" }),
      values.map((value, i) => s("circle", { cx: x(value), cy: 44 - (i % 3) * 6, r: 5, class: value > 0 ? "ndcg-d-dot is-up" : value < 0 ? "ndcg-d-dot is-down" : "ndcg-d-dot" },
        s("title", { text: `${queries[i]}: ${summary.differences[i]}` }))),
      ticks.map((tick) => s("text", { x: x(tick), y: 88, class: "ndcg-d-tick", text: tick.toFixed(2) })),
    ].flat());
  }

  // Bring everything to the kernel's numbers; a slider moved here keeps the learner's value until the kernel has it.
  function update() {
    const summary = model.get("summary");
    const scores = { a: model.get("a"), b: model.get("b") };
    const reach = Math.max(...summary.values.map(Math.abs), 0.01);
    rows.forEach((row, i) => {
      for (const system of SYSTEM_KEYS) {
        const score = scores[system][i];
        const key = `${system}:${i}`;
        if (unconfirmed.has(key) && Math.abs(unconfirmed.get(key) - score) < 1e-9) unconfirmed.delete(key);
        if (unconfirmed.has(key)) continue;
        row.sliders[system].value = String(score);
        setText(row.outputs[system], score.toFixed(2));
      }
      const value = summary.values[i];
      row.bar.style.width = `${(50 * Math.abs(value)) / reach}%`;
      row.bar.style.left = value >= 0 ? "50%" : `${50 - (50 * Math.abs(value)) / reach}%`;
      row.bar.className = `ndcg-d-bar-fill${value > 0 ? " is-up" : value < 0 ? " is-down" : ""}`;
      setText(row.text, summary.differences[i]);
    });
    const [up, down] = summary.wins;
    setText(cards.mean.value, summary.mean);
    setText(cards.mean.detail, t("better", { a: nameA, b: nameB, up, down, n: queries.length }));
    setText(cards.t.value, summary.t ? `t = ${summary.t.statistic}` : "t = —");
    setText(cards.t.detail, summary.t ? `p = ${summary.t.p}` : summary.t_undefined);
    setText(cards.randomisation.value, `p = ${summary.randomisation.p}`);
    setText(cards.randomisation.detail, summary.randomisation.details);
    setText(cards.bootstrap.value, `[${summary.bootstrap.low}, ${summary.bootstrap.high}]`);
    cards.bootstrap.node.classList.toggle("is-clear", summary.bootstrap.excludes_zero);
    drawPlot(summary);
    draw(sentences, [summary.t ? summary.t.text : summary.t_undefined, summary.randomisation.text, summary.bootstrap.text]
      .map((text) => d("p", { text })));
  }

  function showNotice() {
    const { text = "", kind = "info" } = model.get("notice");
    notice.className = `ndcg-d-notice${kind === "error" && text ? " is-error" : ""}`;
    if (kind === "error" && text) notice.setAttribute("role", "alert");
    else notice.removeAttribute("role");
    notice.textContent = text;
    if (kind === "error" && text) {
      unconfirmed.clear(); // a refused score: the sliders go back to the kernel's
      update();
    }
  }

  const root = h("div", { class: "ndcg-x ndcg-d", "data-testid": "difference-explorer", lang: model.get("language") },
    h("h4", { class: "ndcg-d-title", text: t("title") }),
    h("div", { class: "ndcg-d-main" },
      h("div", { class: "ndcg-d-left" }, h("div", { class: "ndcg-d-table-wrap" }, table), h("p", { class: "ndcg-d-hint", text: t("hint") }), reset, notice),
      h("div", { class: "ndcg-d-right" },
        h("div", { class: "ndcg-d-cards", "data-testid": "results" }, Object.values(cards).map((item) => item.node)), plot,
        h("p", { class: "ndcg-d-caption", text: t("plot_alt") }), sentences)));
  el.append(root);
  guard(() => {
    update();
    showNotice();
  });
  on("change:summary", update);
  on("change:notice", showNotice);
  return () => {
    for (const [name, handler] of listeners) model.off(name, handler);
  };
}

export default { render };
