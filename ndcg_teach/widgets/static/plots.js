// The explorer's two plots as SVG descriptions (see dom.js), drawn from the arrays Python sends and sized
// in CSS pixels, so text stays readable at every width (joined into one module with the other scripts, see SCRIPTS).

// Tick values 0..top at a "nice" step (1, 2 or 5 times a power of ten).
function ticks(top, count = 5) {
  const raw = top / count;
  const power = 10 ** Math.floor(Math.log10(raw || 1));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= raw) || power;
  const values = [];
  for (let v = 0; v <= top + 1e-9; v += step) values.push(Number(v.toFixed(10)));
  return values;
}

// Every how many positions an x label fits, at `width` CSS pixels per position.
function labelEvery(width, chars) {
  const need = 8 * chars + 6;
  return [1, 2, 5, 10, 20, 50].find((m) => m * width >= need) || 100;
}

const fmt = (v) => (Math.abs(v - Math.round(v)) < 1e-9 ? String(Math.round(v)) : v.toFixed(v < 10 ? 2 : 1));

function frame(width, height, margin) {
  const inner = { x: margin.left, y: margin.top, w: Math.max(width - margin.left - margin.right, 10), h: height - margin.top - margin.bottom };
  return inner;
}

function xAxis(box, n, x, label) {
  const every = labelEvery(box.w / Math.max(n, 1), String(n).length);
  const marks = [];
  for (let i = 1; i <= n; i += 1) {
    if (i !== 1 && i % every !== 0) continue;
    marks.push(s("line", { class: "ndcg-x-svg-tick", x1: x(i), x2: x(i), y1: box.y + box.h, y2: box.y + box.h + 4 }),
      s("text", { class: "ndcg-x-svg-label", x: x(i), y: box.y + box.h + 16, "text-anchor": "middle", text: i }));
  }
  return s("g", {},
    s("line", { class: "ndcg-x-svg-axis", x1: box.x, x2: box.x + box.w, y1: box.y + box.h, y2: box.y + box.h }),
    marks,
    s("text", { class: "ndcg-x-svg-title", x: box.x + box.w / 2, y: box.y + box.h + 32, "text-anchor": "middle", text: label }));
}

function yAxis(box, values, y, label, side, cls = "") {
  const x0 = side === "left" ? box.x : box.x + box.w;
  const dir = side === "left" ? -1 : 1;
  return s("g", { class: cls },
    s("line", { class: "ndcg-x-svg-axis", x1: x0, x2: x0, y1: box.y, y2: box.y + box.h }),
    values.map((v) => s("g", {},
      s("line", { class: "ndcg-x-svg-tick", x1: x0, x2: x0 + 4 * dir, y1: y(v), y2: y(v) }),
      s("text", { class: "ndcg-x-svg-label", x: x0 + 7 * dir, y: y(v) + 4, "text-anchor": side === "left" ? "end" : "start", text: fmt(v) }))),
    s("text", {
      class: "ndcg-x-svg-title", "text-anchor": "middle",
      // Rotated, the glyphs stand on the outer side of the baseline: keep that side inside the margin.
      transform: `translate(${x0 + (side === "left" ? -32 : 40)} ${box.y + box.h / 2}) rotate(${side === "left" ? -90 : 90})`, text: label,
    }));
}

function drawDiscount(svg, width, plot, t) {
  const height = 250;
  const box = frame(width, height, { left: 46, right: 56, top: 12, bottom: 40 });
  const n = plot.gains.length;
  const cut = Math.min(plot.positions.length, n);
  const top = Math.max(...plot.gains, 1) * 1.2;
  const slot = box.w / Math.max(n, 1);
  const x = (i) => box.x + (i - 0.5) * slot;
  const y = (v) => box.y + box.h - (v / top) * box.h;
  const yd = (v) => box.y + box.h - (v / 1.07) * box.h;
  const bar = Math.max(slot * 0.72, 1);
  const showItems = slot >= 8 * Math.max(...plot.items.map((item) => item.length)) + 4;
  const parts = [];
  if (cut < n) {
    parts.push(s("rect", { class: "ndcg-x-svg-beyond", x: box.x + cut * slot, y: box.y, width: (n - cut) * slot, height: box.h }));
  }
  plot.items.forEach((item, i) => {
    const counted = i < cut;
    const tip = t("tip_bar", { position: i + 1, item, gain: fmt(plot.gains[i]), share: plot.shares[i].toFixed(4) });
    parts.push(s("rect", { class: `ndcg-x-svg-gain${counted ? "" : " is-beyond"}`, x: x(i + 1) - bar / 2, y: y(plot.gains[i]), width: bar, height: y(0) - y(plot.gains[i]) }, s("title", { text: tip })),
      s("rect", { class: `ndcg-x-svg-share${counted ? "" : " is-beyond"}`, x: x(i + 1) - bar / 2, y: y(plot.shares[i]), width: bar, height: y(0) - y(plot.shares[i]) }, s("title", { text: tip })));
    if (showItems) {
      parts.push(s("text", { class: `ndcg-x-svg-item${counted ? "" : " is-beyond"}`, x: x(i + 1), y: y(plot.gains[i]) - 3, "text-anchor": "middle", text: item }));
    }
  });
  const points = plot.discounts.map((d, i) => `${x(i + 1)},${yd(d)}`).join(" ");
  parts.push(s("polyline", { class: "ndcg-x-svg-curve", points }),
    plot.discounts.map((d, i) => s("circle", { class: "ndcg-x-svg-dot", cx: x(i + 1), cy: yd(d), r: n > 20 ? 2 : 3.5 })));
  if (cut < n) {
    const at = box.x + cut * slot;
    parts.push(s("line", { class: "ndcg-x-svg-cut", x1: at, x2: at, y1: box.y, y2: box.y + box.h }),
      s("text", { class: "ndcg-x-svg-cut-label", x: at + 4, y: box.y + 12, text: `k = ${cut}` }));
  }
  setAttributes(svg, { viewBox: `0 0 ${width} ${height}`, height });
  draw(svg, [
    yAxis(box, ticks(top / 1.2, 4), y, t("axis_gain"), "left"),
    yAxis(box, [0, 0.25, 0.5, 0.75, 1], yd, t("discount"), "right", "is-curve"),
    xAxis(box, n, x, t("axis_position")),
    parts].flat(Infinity).filter(Boolean));
}

function drawCumulative(svg, width, plots, t) {
  const height = 250;
  const box = frame(width, height, { left: 46, right: 14, top: 12, bottom: 40 });
  const positions = plots[0].positions;
  const n = positions.length;
  const values = plots.flatMap((plot) => plot.running).concat(plots[0].ideal).filter((v) => v !== null);
  const top = Math.max(...values, 1) * 1.1;
  const slot = box.w / Math.max(n, 1);
  const x = (i) => box.x + (i - 0.5) * slot;
  const y = (v) => box.y + box.h - (v / top) * box.h;
  const line = (series) => series.map((v, i) => (v === null ? null : `${x(positions[i])},${y(v)}`)).filter(Boolean).join(" ");
  const parts = [];
  if (plots.length === 1) {
    const below = plots[0].running.map((v) => (v === null ? 0 : v));
    const above = plots[0].ideal.map((v, i) => (v === null ? below[i] : v));
    const polygon = [...below.map((v, i) => `${x(positions[i])},${y(v)}`), ...above.map((v, i) => `${x(positions[i])},${y(v)}`).reverse()].join(" ");
    parts.push(s("polygon", { class: "ndcg-x-svg-gap", points: polygon }));
  }
  parts.push(s("polyline", { class: "ndcg-x-svg-ideal", points: line(plots[0].ideal) }),
    plots[0].ideal.map((v, i) => (v === null ? null : s("rect", { class: "ndcg-x-svg-ideal-dot", x: x(positions[i]) - 3, y: y(v) - 3, width: 6, height: 6 }))));
  plots.forEach((plot, p) => {
    parts.push(s("polyline", { class: `ndcg-x-svg-running is-${p}`, points: line(plot.running) }),
      plot.running.map((v, i) => (v === null ? null : s("circle", { class: `ndcg-x-svg-run-dot is-${p}`, cx: x(positions[i]), cy: y(v), r: n > 20 ? 2.5 : 4 },
        s("title", { text: t("tip_running", { position: positions[i], value: v.toFixed(4) }) })))));
  });
  setAttributes(svg, { viewBox: `0 0 ${width} ${height}`, height });
  draw(svg, [
    s("g", { class: "ndcg-x-svg-grid" }, ticks(top / 1.1, 5).map((v) => s("line", { x1: box.x, x2: box.x + box.w, y1: y(v), y2: y(v) }))),
    yAxis(box, ticks(top / 1.1, 5), y, t("axis_running"), "left"),
    xAxis(box, n, x, t("axis_position")),
    parts].flat(Infinity).filter(Boolean));
}

// The two figures of an explorer (the discount plot in single mode only), each redrawn at its own width.
// A display without plot arrays (a long list's preview) leaves a figure as the kernel last drew it, greyed.
function plotFigures(ui) {
  const { model, t, compare } = ui;

  function figure(testid, caption, alt, legend) {
    const svg = build(s("svg", { class: "ndcg-x-plot", role: "img", "aria-label": alt, width: "100%" }));
    const score = h("div", { class: "ndcg-x-score", "data-testid": `${testid}-score` });
    const node = h("figure", { class: "ndcg-x-figure", "data-testid": testid },
      h("figcaption", { text: caption }),
      h("ul", { class: "ndcg-x-legend" }, legend.map(([cls, text]) => h("li", {}, h("span", { class: `ndcg-x-key ${cls}`, "aria-hidden": "true" }), text))),
      svg, score);
    return { svg, node, score, width: 0 };
  }
  const names = model.get("names");
  const discountPlot = compare ? null : figure("discount-plot", t("discount_caption"), t("discount_alt"),
    [["is-gain", t("gain")], ["is-share", t("legend_share")], ["is-curve", t("discount")]]);
  const cumulativePlot = figure("cumulative-plot", compare ? t("cumulative_caption_compare") : t("cumulative_caption"), t("cumulative_alt"),
    compare ? [["is-run-0", t("legend_running_named", { name: names[0] })], ["is-run-1", t("legend_running_named", { name: names[1] })], ["is-ideal", t("legend_ideal")]]
      : [["is-run-0", t("legend_running")], ["is-ideal", t("legend_ideal")], ["is-gap", t("legend_gap")]]);

  function renderPlots() {
    const displays = ui.views.map(ui.currentDisplay);
    const stale = displays.some((shown) => !shown.plot);
    const plots = displays.map((shown, i) => shown.plot || ui.panelOf(ui.views[i]).plot);
    if (discountPlot && discountPlot.width) drawDiscount(discountPlot.svg, discountPlot.width, plots[0], t);
    if (cumulativePlot.width) drawCumulative(cumulativePlot.svg, cumulativePlot.width, plots, t);
    setText(cumulativePlot.score, plots.map((plot, i) => (compare ? t("named_score", { name: model.get("names")[i], score: plot.score }) : plot.score)).join(" · "));
    for (const plot of [discountPlot, cumulativePlot].filter(Boolean)) plot.node.classList.toggle("is-stale", stale);
  }

  const resize = new ResizeObserver(() => ui.guard(() => {
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
  ui.cleanups.push(() => resize.disconnect());
  const observe = () => { for (const plot of [discountPlot, cumulativePlot].filter(Boolean)) resize.observe(plot.node); };

  return { discountPlot, cumulativePlot, renderPlots, observePlots: observe };
}
