// Pointer and keyboard input on the card table: one delegated listener per event type.
//
// Drags follow the pointer in JS alone (no Python call per pointermove); a drop, a tap,
// a double tap or a key becomes one intent for the controller (see table.js `ctx`).
// What may be picked up and where it may land comes from the engine's legal moves,
// which the controller sends with every render; nothing here decides a rule.

const DOUBLE_TAP_MS = 350;
const DOUBLE_TAP_PX = 24;

function overlap(a, b) {
  const w = Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0;
}

function inside(px, py, r) {
  return px >= r.x && px <= r.x + r.w && py >= r.y && py <= r.y + r.h;
}

export class Input {
  constructor(root, board, ctx) {
    this.root = root;
    this.board = board;
    this.ctx = ctx;
    this.active = null; // the pointer being tracked
    this.lastTap = null;
    this.held = null; // {pile, count}: picked up by keyboard or by a tap in select mode
    this.cursor = null; // {pile, index}: keyboard focus within a pile
    root.addEventListener("pointerdown", (e) => this.onDown(e));
    root.addEventListener("pointermove", (e) => this.onMove(e));
    root.addEventListener("pointerup", (e) => this.onUp(e));
    root.addEventListener("pointercancel", (e) => this.onCancel(e));
    root.addEventListener("lostpointercapture", (e) => this.onCancel(e));
    root.addEventListener("contextmenu", (e) => e.preventDefault());
    root.addEventListener("focusin", (e) => this.onFocus(e));
    document.addEventListener("keydown", (e) => this.onKey(e));
  }

  // -- pointer -------------------------------------------------------------------------

  onDown(e) {
    if (this.active || (e.pointerType === "mouse" && e.button !== 0) || this.ctx.busy()) return;
    const pileEl = e.target.closest("[data-pile]");
    const cardEl = e.target.closest(".card");
    const [ox, oy] = this.board.rootOrigin();
    this.active = {
      id: e.pointerId,
      type: e.pointerType,
      x0: e.clientX,
      y0: e.clientY,
      ox,
      oy,
      pile: pileEl ? pileEl.dataset.pile : null,
      cardEl,
      loc: cardEl ? this.board.locate(cardEl) : null,
      dragging: false,
      noTap: false,
    };
    try {
      this.root.setPointerCapture(e.pointerId);
    } catch {
      /* the pointer is already gone */
    }
  }

  onMove(e) {
    const a = this.active;
    if (!a || e.pointerId !== a.id) return;
    const dx = e.clientX - a.x0;
    const dy = e.clientY - a.y0;
    if (!a.dragging) {
      if (a.noTap || Math.hypot(dx, dy) < (a.type === "mouse" ? 4 : 8)) return;
      a.noTap = true; // moved: no longer a tap, whatever happens next
      const loc = a.loc;
      if (!loc || a.pile === "stock") return;
      const dsts = this.ctx.destinations(loc.pile, loc.count);
      if (!dsts.length) {
        this.ctx.announce("That card cannot move now.");
        return;
      }
      this.cancelHeld();
      a.dragging = true;
      a.recs = this.board.group(loc.pile, loc.count);
      a.dsts = dsts;
      this.board.startDrag(a.recs);
      for (const d of dsts) this.board.markPile("target", d);
    }
    this.board.dragTo(a.recs, dx, dy);
  }

  onUp(e) {
    const a = this.active;
    if (!a || e.pointerId !== a.id) return;
    this.active = null;
    if (a.dragging) this.drop(a, e);
    else if (!a.noTap) this.tap(a, e);
  }

  onCancel(e) {
    const a = this.active;
    if (!a || e.pointerId !== a.id) return;
    this.active = null;
    if (a.dragging) {
      this.board.clearMarks("target");
      this.board.cancelDrag(a.recs);
    }
  }

  drop(a, e) {
    this.board.clearMarks("target");
    const { loc } = a;
    const dx = e.clientX - a.x0;
    const dy = e.clientY - a.y0;
    const start = this.board.cardRect(loc.pile, loc.index);
    const rect = { x: start.x + dx, y: start.y + dy, w: start.w, h: start.h };
    const px = e.clientX - a.ox;
    const py = e.clientY - a.oy;
    const geom = this.board.geom.piles;
    let best = null;
    let bestScore = 0;
    for (const d of a.dsts) {
      const area = geom[d].area;
      const score = overlap(rect, area) + (inside(px, py, area) ? rect.w * rect.h : 0);
      if (score > bestScore) {
        best = d;
        bestScore = score;
      }
    }
    if (!best) {
      // Nothing legal under the card: the nearest legal pile within a card's width.
      const cx = rect.x + rect.w / 2;
      const cy = rect.y + rect.h / 2;
      let bestDist = this.board.geom.cw;
      for (const d of a.dsts) {
        const r = this.board.cardRect(d, Math.max(0, this.board.cards(d).length - 1));
        const dist = Math.hypot(r.x + r.w / 2 - cx, r.y + r.h / 2 - cy);
        if (dist < bestDist) {
          best = d;
          bestDist = dist;
        }
      }
    }
    if (best) {
      this.ctx.play(loc.pile, best, loc.count);
      return;
    }
    this.board.cancelDrag(a.recs);
    // Dropped on another pile's cards: say why nothing happened; on the bare felt, a
    // drag given up needs no words.
    const over = Object.keys(geom).find((id) => id !== loc.pile
      && inside(px, py, this.board.spanRect(id)));
    this.ctx.announce(over ? "That move is not allowed." : "");
  }

  tap(a, e) {
    const last = this.lastTap;
    const dist = last ? Math.hypot(e.clientX - last.x, e.clientY - last.y) : Infinity;
    if (last && e.timeStamp - last.t < DOUBLE_TAP_MS && dist < DOUBLE_TAP_PX) {
      this.lastTap = null;
      this.cancelHeld();
      const loc = this.board.locate(last.cardEl);
      if (loc && this.board.role(loc.pile) !== "foundation") this.ctx.foundation(loc.pile, loc.count);
      return;
    }
    const isCard = a.loc && a.pile !== "stock";
    this.lastTap = isCard ? { t: e.timeStamp, x: e.clientX, y: e.clientY, cardEl: a.cardEl } : null;
    if (!a.pile) {
      this.cancelHeld();
      return;
    }
    this.activate(a.pile, a.loc, this.ctx.mode() === "select", a.type);
  }

  // A tap, click, Enter or Space on a pile (and on the card `loc` of it, if any);
  // `pointer` is the pointer's type ("touch", "mouse", "pen"), none for a key.
  activate(pile, loc, selecting, pointer = "") {
    const held = this.held;
    if (held) {
      if (pile === held.pile) {
        this.cancelHeld();
        if (loc && loc.count === held.count && selecting) this.ctx.tap(pile, loc.count);
        return;
      }
      if (this.ctx.destinations(held.pile, held.count).includes(pile)) {
        this.cancelHeld();
        this.ctx.play(held.pile, pile, held.count);
        return;
      }
      this.cancelHeld();
      if (!loc || !this.ctx.destinations(pile, loc.count).length) {
        this.ctx.announce("That move is not allowed.");
        return;
      }
    }
    if (pile === "stock") {
      this.ctx.stock();
      return;
    }
    if (!loc) return;
    if (selecting) this.pickUp(pile, loc.count, pointer);
    else this.ctx.tap(pile, loc.count);
  }

  // Pick up the top `count` cards of `pile`; what to do next is said in the words of the
  // hand that did it: taps on a touch screen, clicks with a mouse, keys otherwise.
  pickUp(pile, count, pointer = "") {
    const dsts = this.ctx.destinations(pile, count);
    if (!dsts.length) {
      this.ctx.announce("That card cannot move now.");
      return false;
    }
    this.held = { pile, count };
    this.board.markGroup("held", pile, count);
    for (const d of dsts) this.board.markPile("target", d);
    const first = this.board.group(pile, count)[0];
    const what = first ? first.el.getAttribute("aria-label") : "the cards";
    const next = {
      touch: "Tap where it goes, or tap the felt to put it back.",
      pen: "Tap where it goes, or tap the felt to put it back.",
      mouse: "Click where it goes, or click the felt to put it back.",
    }[pointer] || "Choose a pile and press Enter, or Escape to put it back.";
    this.ctx.announce(`Picked up ${count > 1 ? `${count} cards from ` : ""}${what}. ${next}`);
    return true;
  }

  cancelHeld() {
    if (!this.held) return;
    this.held = null;
    this.board.clearMarks("held");
    this.board.clearMarks("target");
  }

  // After every render: drop marks that no longer apply, keep the keyboard cursor valid.
  afterRender() {
    if (this.held) {
      const { pile, count } = this.held;
      if (!this.ctx.destinations(pile, count).length) this.cancelHeld();
    }
    if (this.cursor) this.setCursor(this.cursor.pile, this.cursor.index);
  }

  // -- keyboard ------------------------------------------------------------------------

  onFocus(e) {
    const pileEl = e.target.closest?.("[data-pile]");
    if (!pileEl || e.target !== pileEl) return;
    const id = pileEl.dataset.pile;
    if (!this.cursor || this.cursor.pile !== id) this.setCursor(id, Infinity);
  }

  setCursor(pile, index) {
    const cards = this.board.cards(pile);
    const p = this.board.piles.get(pile);
    this.board.clearMarks("cursor");
    if (!p) {
      this.cursor = null;
      return;
    }
    let first = cards.findIndex((c) => c.text !== "down");
    if (first < 0) first = cards.length - 1;
    const i = cards.length ? Math.min(Math.max(index, first), cards.length - 1) : -1;
    this.cursor = { pile, index: i };
    if (i >= 0) {
      cards[i].el.dataset.cursor = "";
      p.el.setAttribute("aria-activedescendant", cards[i].el.id);
    } else {
      p.el.removeAttribute("aria-activedescendant");
    }
  }

  // Keys 1 to 9 and 0: straight to the tenth column (or row, or reserve) at most.
  focusColumn(n) {
    const roles = this.board.roles;
    const own = (role) => Object.keys(roles).filter((id) => roles[id] === role);
    const piles = own("tableau").length ? own("tableau") : own("reserve");
    const el = piles[n] && this.board.piles.get(piles[n])?.el;
    if (el) el.focus();
  }

  focusPile(step) {
    const order = this.board.geom.nav.filter((id) => this.board.piles.get(id)?.el.tabIndex >= 0);
    const current = document.activeElement?.dataset?.pile;
    let i = order.indexOf(current);
    i = i < 0 ? 0 : (i + step + order.length) % order.length;
    const el = this.board.piles.get(order[i]).el;
    el.focus();
  }

  onKey(e) {
    if (this.ctx.busy()) return;
    const t = e.target;
    const typing = t instanceof HTMLElement && t.matches("input, select, textarea");
    if (typing) return;
    const key = e.key;
    const lower = key.length === 1 ? key.toLowerCase() : key;
    if ((e.ctrlKey || e.metaKey) && !e.altKey) {
      if (lower === "z") {
        e.preventDefault();
        if (e.shiftKey) this.ctx.redo();
        else this.ctx.undo();
      } else if (lower === "y" && e.ctrlKey && !e.shiftKey) {
        e.preventDefault();
        this.ctx.redo();
      }
      return;
    }
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (lower === "h") return this.ctx.hint();
    if (lower === "t") return this.ctx.read();
    if (/^[0-9]$/.test(key)) return this.focusColumn(key === "0" ? 9 : Number(key) - 1);
    if (lower === "u") return this.ctx.undo();
    if (lower === "r") return this.ctx.redo();
    if (key === "Escape") {
      if (this.held) {
        this.cancelHeld();
        this.ctx.announce("Put back.");
      }
      return;
    }
    const pileEl = t instanceof HTMLElement && t.dataset.pile !== undefined ? t : null;
    if (!pileEl) return;
    const pile = pileEl.dataset.pile;
    if (key === "ArrowLeft" || key === "ArrowRight") {
      e.preventDefault();
      this.focusPile(key === "ArrowLeft" ? -1 : 1);
    } else if (key === "ArrowUp" || key === "ArrowDown") {
      e.preventDefault();
      const index = this.cursor && this.cursor.pile === pile ? this.cursor.index : Infinity;
      this.setCursor(pile, index + (key === "ArrowUp" ? -1 : 1));
      const i = this.cursor.index;
      if (i >= 0) this.ctx.announce(this.board.cards(pile)[i].el.getAttribute("aria-label"));
    } else if (key === "Enter" || key === " ") {
      e.preventDefault();
      const cards = this.board.cards(pile);
      const i = this.cursor && this.cursor.pile === pile ? this.cursor.index : cards.length - 1;
      const loc = i >= 0 && cards[i] ? { pile, index: i, count: cards.length - i } : null;
      if (!this.held && pile !== "stock" && loc) {
        this.pickUp(pile, loc.count);
        return;
      }
      this.activate(pile, loc, true);
    }
  }
}
