// The step table (the explain_ndcg trace: one row per position, its own columns beside the ideal ones) and the
// formula with the numbers in it (joined into one module with the other scripts, see SCRIPTS in explorer.py).
// A list longer than the trace tables' ROW_LIMIT shows its first and last rows, with a row that says how many
// are hidden: Python sends that row as null, and its text as the panel's `hidden_rows`.

function stepTable(ui) {
  const table = h("table", { class: "ndcg-x-table", "data-testid": "step-table" });
  const formula = h("div", { class: "ndcg-x-formula", "data-testid": "formula" });
  const notes = h("div", { class: "ndcg-x-notes" });
  let formulaShown = "";

  // Python says which columns are labels and which belong to the ideal ranking; no column positions here.
  function columnClass(column) {
    return [column.label && "is-label", column.ideal && "is-ideal", column.start && "is-ideal-start"].filter(Boolean).join(" ");
  }

  // A display without steps (a long list's preview) leaves the table as it is, greyed until the kernel answers.
  function renderSteps(display, stale) {
    const panel = ui.panels()[0];
    if (display.steps) {
      const classes = panel.columns.map(columnClass);
      // Where a row holds its item, from the payload schema; an unjudged item's row is marked (lesson 12).
      const itemAt = ui.model.get("payload").steps.findIndex((field) => field.key === "item");
      const unjudged = (cells) => Boolean(panel.judged) && panel.judged[cells[itemAt]] === false;
      const row = (cells) => (cells === null
        ? d("tr", { class: "is-hidden-rows" }, d("td", { colspan: panel.columns.length, text: panel.hidden_rows }))
        : d("tr", unjudged(cells) ? { class: "is-unjudged", title: ui.t("unjudged_row") } : {},
          cells.map((text, i) => d("td", { class: classes[i], text }))));
      draw(table, [
        d("thead", {}, d("tr", {}, panel.columns.map((column, i) => d("th", { class: classes[i], text: column.text })))),
        d("tbody", {}, display.steps.map(row))]);
    }
    table.classList.toggle("is-stale", stale || !display.steps);
  }

  // The formula with the numbers is the kernel's: greyed while it belongs to another order than the one shown.
  function renderFormula(display) {
    const panel = ui.panels()[0];
    const text = JSON.stringify([panel.formula, panel.notes]);
    if (text !== formulaShown) {
      formulaShown = text;
      formula.replaceChildren(...panel.formula.map((line) => h("div", { text: line })));
      notes.textContent = panel.notes.join(" · ");
    }
    formula.classList.toggle("is-stale", !same(display.order, panel.order));
  }

  return { stepNodes: { table, formula, notes }, renderSteps, renderFormula };
}
