// The live numbers: a card per metric, and in compare mode the table of both rankings and their difference
// (joined into one module with the other scripts, see SCRIPTS in explorer.py).

function metricCards(ui) {
  const { model, t, compare } = ui;
  function renderNumbers(view, display, stale) {
    const panel = ui.panelOf(view);
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


  // ---- Compare mode: every metric of both rankings and the difference --------------------
  const comparison = compare ? h("table", { class: "ndcg-x-comparison", "data-testid": "comparison" }) : null;

  function renderComparison() {
    if (!comparison) return;
    const [a, b] = model.get("names");
    const previewRows = ui.views.map(ui.currentDisplay).find((display) => display.comparison);
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

  return { comparison, renderNumbers, renderComparison };
}
