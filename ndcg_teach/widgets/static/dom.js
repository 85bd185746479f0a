// The explorer's DOM helpers (joined before plots.js and explorer.js into one module, see explorer.py).
// `fill` puts values into a message's {placeholders}; `h` builds a node. What is repainted on every position a dragged row passes (the step table, the plots,
// the comparison table) is not built as nodes: `s` (SVG) and `d` (HTML) describe it as plain objects, and
// `draw` writes into the nodes already on the page only the attributes and texts that differ from the last
// description drawn.

const SVG = "http://www.w3.org/2000/svg";

// `template` with each {name} replaced by values[name], in one pass (a value's own braces stay as they are).
function fill(template, values = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

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

const HTML = "http://www.w3.org/1999/xhtml";
const DRAWN = Symbol("drawn"); // on each drawn node: the description it was last drawn from

function describe(ns, tag, attrs, children) {
  const node = { ns, tag, attrs: {}, text: null, children: [] };
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.text = String(value);
    // Coordinates to 1/100 px: a preview (numbers rounded to 4 decimals) and the kernel's exact numbers then draw the same attributes.
    else node.attrs[key] = typeof value === "number" ? String(Math.round(value * 100) / 100) : String(value);
  }
  for (const child of children.flat(Infinity)) if (child !== null && child !== undefined) node.children.push(child);
  return node;
}

const s = (tag, attrs = {}, ...children) => describe(SVG, tag, attrs, children);
const d = (tag, attrs = {}, ...children) => describe(HTML, tag, attrs, children);

// A new node from a description.
function build(wanted) {
  const node = document.createElementNS(wanted.ns, wanted.tag);
  for (const [key, value] of Object.entries(wanted.attrs)) node.setAttribute(key, value);
  if (wanted.text !== null) node.textContent = wanted.text;
  else node.append(...wanted.children.map(build));
  node[DRAWN] = wanted;
  return node;
}

// Make `parent`'s children match `wanted` position by position: a node drawn before with the same tag is
// kept, and only what differs from its last description is written; so a drop writes the few numbers
// and coordinates that changed, and a confirmation equal to the preview shown writes nothing.
function draw(parent, wanted) {
  const nodes = parent.childNodes;
  wanted.forEach((want, i) => {
    const node = nodes[i];
    const had = node && node[DRAWN];
    if (!had || had.tag !== want.tag || had.ns !== want.ns) {
      if (node) parent.replaceChild(build(want), node);
      else parent.append(build(want));
      return;
    }
    node[DRAWN] = want;
    for (const key in want.attrs) if (had.attrs[key] !== want.attrs[key]) node.setAttribute(key, want.attrs[key]);
    for (const key in had.attrs) if (!(key in want.attrs)) node.removeAttribute(key);
    if (want.text !== null) {
      if (had.text !== want.text) node.textContent = want.text;
    } else if (had.text !== null) {
      node.replaceChildren(...want.children.map(build));
    } else {
      draw(node, want.children);
    }
  });
  while (nodes.length > wanted.length) parent.lastChild.remove();
}

function setAttributes(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) if (node.getAttribute(key) !== String(value)) node.setAttribute(key, value);
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
