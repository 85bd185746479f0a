// What a drop would show before the kernel says so: the previews Python sends ahead (previews.py), kept per
// (ranking, context, order, item) and unpacked when a destination is first shown. Joined into one module with the
// other scripts (see SCRIPTS in explorer.py).
//
// A list of up to 60 items gets every item's previews at once and "full": each destination's step rows and plot
// arrays too. A longer list gets, per request, the metric texts of the destinations near where the learner is; as a
// drag nears the edge of the destinations held, the next ones are asked for, and the step table and the plots wait
// (greyed) for the kernel's own numbers.

const PREVIEW_CACHE = 240; // (ranking, order, item) entries kept
const WINDOW_MARGIN = 10; // ask for more destinations when a drag comes this close to the edge of those held

// `order` with the item at index `from` moved to index `to`.
function moved(order, from, to) {
  const next = order.slice();
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

// One cell of a packed preview's step row, found where the payload schema (payload.py, the `payload` trait) says
// its field is: `by` what it depends on, `packed` the name its texts travel under. `at` is position p's item index in
// the message's base order, `d` the destination's index in the entry.
function packedCell(field, message, held, next, at, d, p) {
  const n = message.base.length;
  switch (field.by) {
    case "position": return String(p + 1);
    case "item_id": return next[p];
    case "item": return message[field.packed][at[p]];
    case "place": return message[field.packed][p];
    case "item_at_place": return splitOnce(message, message, field.packed)[at[p] * n + p];
    case "destination": return splitOnce(held, held.entry, field.packed)[d * message.k + p];
    default: throw new Error(`step field ${field.key}: unknown place ${field.by}`);
  }
}

// The plots' arrays of a packed preview (payload.PLOT): each the numbers of a step field (the items' ids as they
// are) over every position of the list or the top k, read by the same schema as the step rows.
function packedPlot(schema, message, held, next, at, d) {
  const plot = {};
  for (const { key, over, field } of plotFields(schema)) {
    const values = new Array(over === "list" ? next.length : message.k);
    for (let p = 0; p < values.length; p += 1) {
      const cell = packedCell(field, message, held, next, at, d, p);
      values[p] = field.by === "item_id" ? cell : Number(cell);
    }
    plot[key] = values;
  }
  return plot;
}

// The schema's plot arrays with their step fields looked up, once per schema.
const PLOT_FIELDS = new WeakMap();
function plotFields(schema) {
  if (!PLOT_FIELDS.has(schema)) {
    const fields = new Map(schema.steps.map((field) => [field.key, field]));
    PLOT_FIELDS.set(schema, schema.plot.map((array) => ({ key: array.key, over: array.over, field: fields.get(array.field) })));
  }
  return PLOT_FIELDS.get(schema);
}

// `source[name]`, a string of space-separated texts, split the first time it is read and kept split in `cache`.
function splitOnce(cache, source, name) {
  cache.split = cache.split || {};
  if (!cache.split[name]) cache.split[name] = source[name].split(" ");
  return cache.split[name];
}

function previewStore(ui) {
  const { model } = ui;
  const schema = model.get("payload");
  const previews = new Map(); // key -> {message, entries: [{entry, start, count, ...unpacked}]}
  const requested = new Map(); // key -> positions asked about and not answered yet
  const keyOf = (trait, context, order, item) => `${trait}|${context}|${order.join("\u0001")}|${item}`;
  const keyNow = (view, order, item) => keyOf(view.trait, ui.panelOf(view).context, order, item);

  function fromPanel(panel) {
    return { order: panel.order, texts: panel.texts, steps: panel.steps, plot: panel.plot, comparison: null };
  }

  // The display `item`'s move to index `to` would give, if Python has sent it; else null.
  // Python packs the previews (see _send_previews): what no move changes once per message, and per item
  // the metric texts, scores (and, full, the running DCG) of its destinations as space-separated texts,
  // split here only when that item is first shown. A step row's fields are where the payload schema says.
  function previewOf(view, order, item, to) {
    const stored = previews.get(keyNow(view, order, item));
    if (!stored || to < 0 || to >= order.length) return null;
    const held = stored.entries.find((e) => e.start <= to && to < e.start + e.count);
    if (!held) return null;
    const { message } = stored;
    const { entry } = held;
    const m = message.metrics;
    if (!held.texts) {
      held.texts = entry.texts.split(" ");
      held.deltas = entry.deltas ? entry.deltas.split(" ") : null;
    }
    const d = to - held.start;
    const next = moved(message.base, entry.from, to);
    const texts = held.texts.slice(d * m, (d + 1) * m);
    const comparison = held.deltas ? compared(view, texts, held.deltas.slice(d * m, (d + 1) * m), entry.signs.slice(d * m, (d + 1) * m)) : null;
    const score = `${message.label} = ${held.scores[d]}`;
    if (!message.full) return { order: next, texts, steps: null, plot: null, score, comparison };
    const index = message.index || (message.index = new Map(message.base.map((other, i) => [other, i])));
    const panel = ui.panelOf(view);
    const { k } = message;
    const at = next.map((other) => index.get(other));
    const steps = [];
    for (let p = 0; p < k; p += 1) {
      steps.push(schema.steps.map((field) => packedCell(field, message, held, next, at, d, p)).concat(panel.ideal_steps[p] || []));
    }
    return { order: next, texts, steps, plot: { ...panel.plot, ...packedPlot(schema, message, held, next, at, d), score }, score, comparison };
  }

  // Compare mode: the comparison rows after a move of `view`'s ranking, from its texts and the other ranking's.
  function compared(view, texts, deltas, signs) {
    const other = ui.panels()[1 - view.index].texts;
    return ui.panelOf(view).metrics.map((metric, i) => ({
      key: metric.key,
      label: metric.label,
      a: view.index === 0 ? texts[i] : other[i],
      b: view.index === 0 ? other[i] : texts[i],
      delta: deltas[i],
      sign: signs[i] === "+" ? 1 : signs[i] === "-" ? -1 : 0,
    }));
  }

  // Ask Python for `item`'s previews near index `around` (its own index when not given), unless they are held or
  // already asked for.
  function requestPreview(view, item, around) {
    const order = model.get(view.trait);
    const at = around === undefined ? order.indexOf(item) : around;
    if (at < 0) return;
    const key = keyNow(view, order, item);
    const lo = Math.max(0, at - WINDOW_MARGIN);
    const hi = Math.min(order.length - 1, at + WINDOW_MARGIN);
    const stored = previews.get(key);
    if (stored && (stored.message.full || stored.entries.some((e) => e.start <= lo && hi < e.start + e.count))) return;
    const asked = requested.get(key) || [];
    if (asked.some((position) => Math.abs(position - at) < WINDOW_MARGIN)) return;
    requested.set(key, [...asked, at]);
    ui.send({ event: "preview", ranking: view.trait, item, around: at });
  }

  function storePreviews(message) {
    if (!message || message.event !== "previews") return;
    const view = ui.views.find((v) => v.trait === message.ranking);
    if (!view) return;
    for (const entry of message.items) {
      const key = keyOf(view.trait, message.context, message.base, entry.item);
      const scores = entry.scores.split(" ");
      const held = { entry, start: entry.start, count: scores.length, scores };
      const stored = previews.get(key);
      // Windows of one order add up; a message for a new context replaces what an older one said.
      const entries = stored && !message.full ? [...stored.entries.filter((e) => e.start !== held.start), held] : [held];
      previews.delete(key);
      previews.set(key, { message, entries });
      requested.set(key, (requested.get(key) || []).filter((position) => position < held.start || position >= held.start + held.count));
    }
    while (previews.size > PREVIEW_CACHE) previews.delete(previews.keys().next().value);
    while (requested.size > PREVIEW_CACHE) requested.delete(requested.keys().next().value);
    // A preview that arrives mid-drag shows at once.
    if (ui.dragging && ui.dragging.view === view && ui.dragging.active) ui.showPreview(view);
  }

  return { fromPanel, previewOf, requestPreview, storePreviews };
}
