// Moving rows: by pointer (mouse, pen, touch), by keyboard, by the up / down buttons (joined into one module with
// the other scripts, see SCRIPTS in explorer.py). While a row is dragged, the numbers a drop there would give are
// shown from the previews; a drop commits the new order (see commit in explorer.js).

// JupyterLab and Notebook 7 turn key presses into notebook commands ("a" inserts a cell)
// unless the focused element itself carries this attribute; a wrapper is not enough.
const SUPPRESS = { "data-lm-suppress-shortcuts": "true" };
const DRAG_SLOP = 4; // pixels a pointer moves before a press becomes a drag
const EDGE = 48; // pixels from a scroll container's edge where a drag scrolls it
const HOVER_MS = 60; // a pointer resting this long on a row asks for that row's previews

function rowMoves(ui) {
  const { model, t, guard } = ui;

  function step(view, item, delta, role) {
    const order = model.get(view.trait);
    const from = order.indexOf(item);
    const to = from + delta;
    if (to < 0 || to >= order.length) {
      ui.say(t(delta < 0 ? "at_top" : "at_bottom", { item }));
      return;
    }
    ui.commit(view, moved(order, from, to), item, role);
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
      if (button.dataset.role === "judge") {
        // Pressed means unjudged: pressing it asks Python to judge the item, and the other way round.
        ui.send({ event: "judge", item, judged: button.getAttribute("aria-pressed") === "true" });
        return;
      }
      step(view, item, button.dataset.role === "up" ? -1 : 1, button.dataset.role);
    }));
    view.list.addEventListener("change", (event) => guard(() => {
      const input = event.target.closest("input[data-role=grade]");
      if (!input) return;
      // Sent as typed: Python checks the range and refuses bad grades with a message.
      ui.send({ event: "grade", item: input.closest("[data-item]").dataset.item, grade: input.value });
    }));
    // The row a learner rests the pointer on or focuses is the one they may move next: ask for its previews.
    // (A list of up to 60 items already holds every item's; a longer one asks row by row.) A pointer sweeping across rows asks for none.
    let resting = null;
    const want = (event, wait) => guard(() => {
      clearTimeout(resting);
      const row = event.target.closest && event.target.closest(".ndcg-x-row");
      if (!row || ui.dragging) return;
      resting = setTimeout(() => guard(() => ui.requestPreview(view, row.dataset.item)), wait);
    });
    view.list.addEventListener("pointerover", (event) => want(event, HOVER_MS));
    view.list.addEventListener("focusin", (event) => want(event, 0));
    ui.cleanups.push(() => clearTimeout(resting));
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
      ui.dragging = {
        view, row, rows, index, target: index, pointerId: event.pointerId, startY: event.clientY, clientY: event.clientY,
        mids: rects.map((r) => r.top + r.height / 2), shift: rects[index].height + gap, active: false, stale: false,
        box, scrollStart: box.scrollTop, frame: null, order: model.get(view.trait).slice(),
        // The scroller's box, read now while the layout is clean: reading it each frame of the drag would force a layout.
        area: box === document.scrollingElement || box === document.documentElement
          ? { top: 0, bottom: window.innerHeight } : box.getBoundingClientRect(),
      };
      ui.requestPreview(view, row.dataset.item);
      row.setPointerCapture(event.pointerId);
    }));
    list.addEventListener("pointermove", (event) => guard(() => {
      if (!ui.dragging || ui.dragging.view !== view || event.pointerId !== ui.dragging.pointerId) return;
      ui.dragging.clientY = event.clientY;
      if (!ui.dragging.active) {
        if (Math.abs(event.clientY - ui.dragging.startY) < DRAG_SLOP) return;
        ui.dragging.active = true;
        list.classList.add("is-sorting");
        ui.dragging.row.classList.add("is-dragging");
        window.addEventListener("keydown", escape, true);
        ui.dragging.frame = requestAnimationFrame(autoScroll);
      }
      event.preventDefault();
      follow();
    }));

    // Place the rows for the pointer's position (scrolling included) and preview the drop there.
    function follow() {
      const { index, mids, rows, shift, box, scrollStart } = ui.dragging;
      const scrolled = box.scrollTop - scrollStart;
      const dy = ui.dragging.clientY - ui.dragging.startY + scrolled;
      const centre = mids[index] + dy;
      let target = 0;
      mids.forEach((mid, j) => {
        if (j !== index && (j < index ? mid < centre : mid <= centre)) target += 1;
      });
      ui.dragging.row.style.transform = `translateY(${dy}px)`;
      rows.forEach((r, j) => {
        if (j === index) return;
        const offset = j > index && j <= target ? -shift : j < index && j >= target ? shift : 0;
        const transform = offset ? `translateY(${offset}px)` : "";
        if (r.style.transform !== transform) r.style.transform = transform;
        // Position numbers follow the rows (written only where they change: a new text is a new layout).
        setText(r.querySelector(".ndcg-x-pos"), String(j + 1 + Math.sign(offset)));
      });
      setText(ui.dragging.row.querySelector(".ndcg-x-pos"), String(target + 1));
      if (target !== ui.dragging.target || ui.root.dataset.state !== "preview") {
        ui.dragging.target = target;
        ui.requestPreview(view, ui.dragging.row.dataset.item, target); // a long list's next destinations, if not held
        showPreview(view);
      }
    }

    // Near the top or bottom edge of the scrolling notebook, scroll it, faster nearer the edge.
    function autoScroll() {
      if (!ui.dragging || !ui.dragging.active) return;
      const { box, area } = ui.dragging;
      const y = ui.dragging.clientY;
      const speed = y < area.top + EDGE ? -Math.ceil((area.top + EDGE - y) / 4) : y > area.bottom - EDGE ? Math.ceil((y - area.bottom + EDGE) / 4) : 0;
      if (speed) {
        const before = box.scrollTop;
        box.scrollTop += Math.max(-20, Math.min(20, speed));
        if (box.scrollTop !== before) guard(follow);
      }
      ui.dragging.frame = requestAnimationFrame(autoScroll);
    }

    function escape(event) {
      if (event.key !== "Escape" || !ui.dragging || ui.dragging.view !== view) return;
      event.preventDefault();
      event.stopPropagation();
      guard(() => {
        const { row, pointerId } = ui.dragging;
        if (row.hasPointerCapture(pointerId)) row.releasePointerCapture(pointerId);
        finish({ pointerId }, false);
        ui.say(t("cancelled"));
      });
    }

    const finish = (event, drop) => {
      if (!ui.dragging || ui.dragging.view !== view || event.pointerId !== ui.dragging.pointerId) return;
      const { row, rows, index, target, active, stale, frame: pending } = ui.dragging;
      ui.dragging = null;
      cancelAnimationFrame(pending);
      window.removeEventListener("keydown", escape, true);
      list.classList.remove("is-sorting");
      row.classList.remove("is-dragging");
      rows.forEach((r) => { r.style.transform = ""; });
      const item = row.dataset.item;
      if (drop && active && target !== index) {
        ui.commit(view, moved(model.get(view.trait), index, target), item, "row");
      } else if (stale || active) {
        ui.update(view);
      }
    };
    list.addEventListener("pointerup", (event) => guard(() => finish(event, true)));
    list.addEventListener("pointercancel", (event) => guard(() => finish(event, false)));
  }

  // While dragging: the numbers a drop at the current target would give (or, without a preview, the current ones, marked stale).
  function showPreview(view) {
    const { index, target, row, order } = ui.dragging;
    const display = ui.previewOf(view, order, row.dataset.item, target);
    view.previewDisplay = display;
    ui.root.dataset.state = "preview";
    ui.root.setAttribute("aria-busy", "false");
    if (display) ui.showNumbers(view, display, false);
    else if (target === index) ui.showNumbers(view, view.display || ui.fromPanel(ui.panelOf(view)), false);
    else ui.renderNumbers(view, view.display || ui.fromPanel(ui.panelOf(view)), true);
  }

  return { attachDrag, attachKeys, showPreview };
}
