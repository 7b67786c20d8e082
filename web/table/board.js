// The card table's DOM: pile elements holding card elements bottom to top, positioned
// with CSS transforms, updated by a minimal diff keyed by card identity.
//
// update(piles) keeps the longest unchanged prefix of every pile, turns a card over in
// place when it is the one that flipped, takes cards that moved from the piles they left
// (same text first, then a face-down card turning up or back), and hands each moved or
// turned card to the motion (motion.js), which shows it going from where it was.
// The layout follows what the piles hold (a long column makes every card smaller) and the
// large-print and left-handed classes of <html>, whenever they change.

import { makeCard, setFace } from "./cards.js";
import { fanOffsets, layout } from "./layout.js";
import { Motion, pace } from "./motion.js";

function overlaps(a, b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

export class Board {
  constructor(root) {
    this.root = root;
    this.piles = new Map(); // id -> {id, el, geom, cards: [{el, text, x, y}]}
    this.family = "";
    this.geom = null;
    this.motion = new Motion(root);
    this.dragged = new Map(); // card el -> [dx, dy] while dragged
    this.labelEls = {};
    this.size = [0, 0];
    this.names = {};
    this.roles = {};
    this.shape = ""; // what the geometry was made for: a new one only when this changes
    new MutationObserver(() => this.relayout(true))
      .observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  }

  // -- building --------------------------------------------------------------------

  // `roles`: each pile id's part ("tableau", "foundation", ...), from the engine.
  setup(family, roles, pileNames) {
    this.finishAnimations();
    this.family = family;
    this.roles = roles;
    this.names = pileNames || {};
    this.root.dataset.family = family;
    for (const p of this.piles.values()) p.el.remove();
    for (const el of Object.values(this.labelEls)) el.remove();
    this.piles.clear();
    this.labelEls = {};
    this.fitted = null; // (a layout for other piles)
    this.measure();
    const geom = this.fit();
    this.geom = geom;
    for (const id of geom.order) {
      const el = document.createElement("div");
      el.dataset.pile = id;
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", this.names[id] || id);
      el.tabIndex = geom.inert.includes(id) ? -1 : 0;
      el.toggleAttribute("data-empty", true);
      if (id === "stock") el.setAttribute("aria-roledescription", "stock");
      this.root.append(el);
      this.piles.set(id, { id, el, geom: geom.piles[id], cards: [] });
    }
    for (const name of Object.keys(geom.labels)) {
      const el = document.createElement("div");
      el.className = `label label-${name}`;
      el.setAttribute("aria-hidden", "true");
      this.root.append(el);
      this.labelEls[name] = el;
    }
    this.applyGeometry();
  }

  measure() {
    const r = this.root.getBoundingClientRect();
    this.size = [Math.round(r.width), Math.round(r.height)];
  }

  // The layout for the table's size, the piles' cards and the player's settings. What a
  // pile brings to it is how many of its cards (all but its top one) lie face down and
  // face up (layout.js's needed): with those, the size and the settings as they were last
  // time, the layout is the one made then (most moves change none of them; finding the
  // card size that fits is a search).
  fit() {
    const html = document.documentElement.classList;
    const large = html.contains("large-print");
    const left = html.contains("left-handed");
    const piles = {};
    let key = `${this.size[0]}x${this.size[1]}:${large}:${left}`;
    for (const p of this.piles.values()) {
      const texts = p.cards.map((c) => c.text);
      piles[p.id] = texts;
      let down = 0;
      for (let i = 0; i < texts.length - 1; i++) if (texts[i] === "down") down += 1;
      key += `|${down}/${Math.max(0, texts.length - 1) - down}`;
    }
    if (this.fitted && this.fitted.key === key) return this.fitted.geom;
    const geom = layout(this.family, this.roles, this.size[0], this.size[1], { piles, large, left });
    this.fitted = { key, geom };
    return geom;
  }

  // Lay the table out again if its size (or with `force`, its settings) changed.
  relayout(force = false) {
    if (!this.geom) return;
    const before = this.size.join("x");
    this.measure();
    if (!force && this.size.join("x") === before) return;
    this.finishAnimations();
    this.motion.clearHint(); // its ghost was laid out for the old size
    if (this.refit()) for (const p of this.piles.values()) this.placePile(p);
  }

  // A new geometry if the piles or settings call for one; true when it changed.
  refit() {
    const geom = this.fit();
    if (geom === this.geom) return false;
    const shape = JSON.stringify([geom.cw, geom.ix, geom.piles, geom.labels]);
    if (shape === this.shape) {
      this.fitted.geom = this.geom; // the same layout: the one in use stands for it
      return false;
    }
    this.geom = geom;
    for (const p of this.piles.values()) p.geom = geom.piles[p.id];
    this.applyGeometry();
    return true;
  }

  applyGeometry() {
    const { cw, ch, ix } = this.geom;
    this.shape = JSON.stringify([cw, ix, this.geom.piles, this.geom.labels]);
    this.root.style.setProperty("--cw", `${cw}px`);
    this.root.style.setProperty("--ch", `${ch}px`);
    this.root.style.setProperty("--ix", `${ix}px`);
    for (const p of this.piles.values()) {
      p.el.style.left = `${p.geom.x}px`;
      p.el.style.top = `${p.geom.y}px`;
      p.el.style.transform = p.geom.scale === 1 ? "" : `scale(${p.geom.scale})`;
      p.el.dataset.fan = p.geom.fan;
    }
    for (const [name, el] of Object.entries(this.labelEls)) {
      const g = this.geom.labels[name];
      el.style.left = `${g.x - g.w / 2}px`;
      el.style.top = `${g.y}px`;
      el.style.width = `${g.w}px`;
      el.style.setProperty("--ls", String(g.s || 1));
    }
  }

  // -- updating --------------------------------------------------------------------

  finishAnimations() {
    this.motion.finishAll();
  }

  // Make the DOM show `piles` ({id: [text|"down", ...]}); `hint` = [src, dst] of the move.
  // `animate` false: cards just appear in place. `deal`: a new deal, whose cards outside
  // the stock dealIn() flies out of it: with motion on they join their piles only as
  // their turn comes (a few a frame), so no frame styles and paints the whole deal.
  update(piles, hint, animate = true, deal = false) {
    this.finishAnimations();
    const leaving = [];
    const needs = [];
    const changed = new Set();
    const turned = [];
    // A deal with motion keeps no card where it was outside the stock: each waits for its
    // turn to leave the stock (none waits there in a flight of its own, restyled each frame).
    const dealt = deal && pace() > 0;
    for (const p of this.piles.values()) {
      const next = piles[p.id] || [];
      const old = p.cards;
      const dealing = dealt && p.id !== "stock";
      let k = 0;
      while (!dealing && k < old.length && k < next.length && old[k].text === next[k]) k++;
      let flipped = null;
      if (!dealing && k < old.length && k < next.length) {
        const down = old[k].text === "down";
        const turnsUp = down && next[k] !== "down" && next.length === k + 1;
        const turnsDown = !down && next[k] === "down" && old.length === k + 1;
        if (turnsUp || turnsDown) flipped = k;
      }
      const keep = flipped === null ? k : k + 1;
      if (keep === old.length && keep === next.length && flipped === null) continue;
      changed.add(p);
      for (let i = keep; i < old.length; i++) leaving.push({ rec: old[i], from: p, used: false });
      if (flipped !== null) {
        const rec = old[flipped];
        rec.text = next[flipped];
        setFace(rec.el, rec.text);
        turned.push(rec);
      }
      p.cards = old.slice(0, keep);
      for (let i = keep; i < next.length; i++) needs.push({ pile: p, index: i, text: next[i] });
    }
    if (!changed.size) return false;
    const [src, dst] = hint || [];
    needs.sort((a, b) => (b.pile.id === dst) - (a.pile.id === dst));
    // A need takes the first unused card of its kind that left the hinted move's source,
    // else the first of its kind: the same text first, then one turning over (face down
    // for face up or back). The cards are looked up by kind, not all gone through for
    // each need (a new deal matches 52 or 104 of them).
    const kinds = (key) => {
      const map = new Map();
      for (const cand of leaving) {
        const k = key(cand.rec.text);
        const list = map.get(k);
        if (list) list.push(cand);
        else map.set(k, [cand]);
      }
      return map;
    };
    const take = (list) => {
      let best = null;
      for (const cand of list || []) {
        if (cand.used) continue;
        if (cand.from.id === src) { best = cand; break; }
        if (!best) best = cand;
      }
      if (best) best.used = true;
      return best;
    };
    const byText = kinds((text) => text);
    for (const need of needs) need.match = take(byText.get(need.text));
    const byFace = kinds((text) => text === "down");
    for (const need of needs) {
      if (!need.match) need.match = take(byFace.get(need.text !== "down"));
    }
    // Each need takes its card: one that left a pile (from where it lay, in table pixels,
    // turning over on the way if its face changed) or a new one.
    // {rec, pile, from (table pixels) or null, turn: "up" | "down" | "", origin: its old pile}
    const placed = [];
    for (const need of needs) {
      let rec;
      let from = null;
      let turn = "";
      if (need.match) {
        rec = need.match.rec;
        const origin = need.match.from.geom;
        const drag = this.dragged.get(rec.el) || [0, 0];
        const s = origin.scale;
        from = [origin.x + (rec.x + drag[0]) * s, origin.y + (rec.y + drag[1]) * s];
        if (rec.text !== need.text) {
          turn = need.text === "down" ? "down" : "up";
          rec.text = need.text;
        }
      } else {
        rec = { el: makeCard(need.text), text: need.text, x: 0, y: 0 };
      }
      need.pile.cards[need.index] = rec;
      placed.push({ rec, pile: need.pile, from, turn, origin: need.match?.from });
    }
    // A pile that grew too long for its room makes every card smaller (and back).
    const refitted = this.refit();
    // Many cards going to many piles (a finish, its undo) leave one after another: each
    // card stays where it lies, as it is, until its turn comes (the motion attaches it to
    // its new pile then), so no frame has the work of them all. (Cards of a new size wait
    // at the same spot of the table, in their old pile's new place.)
    const later = animate
      && this.motion.cascades(placed.filter((m) => m.from).map((m) => m.pile.id));
    this.removeAll(leaving.filter((cand) => !(later && cand.used)).map((cand) => cand.rec.el));
    for (const m of placed) {
      if (m.rec.el.classList.contains("dragging")) m.rec.el.classList.remove("dragging");
      m.rec.waiting = (later && m.from !== null) || (dealt && m.pile.id !== "stock");
      if (!m.rec.waiting) this.attach(m);
      else if (dealt) {
        if (m.turn) setFace(m.rec.el, m.rec.text); // (out of the page until its turn)
      } else if (refitted && m.origin) {
        const g = m.origin.geom;
        m.rec.el.style.transform = `translate(${(m.from[0] - g.x) / g.scale}px,${(m.from[1] - g.y) / g.scale}px)`;
      }
    }
    for (const p of refitted ? this.piles.values() : changed) this.placePile(p);
    this.dragged.clear();
    const flights = [];
    for (const m of placed) {
      const { rec, pile: p, from, turn } = m;
      if (!from || !animate) continue;
      const index = p.cards.indexOf(rec);
      const s = p.geom.scale; // in the pile's own pixels (a compact pile is drawn smaller)
      flights.push({ el: rec.el, from: [(from[0] - p.geom.x) / s, (from[1] - p.geom.y) / s],
        to: [rec.x, rec.y], turn, index, order: this.geom.order.indexOf(p.id),
        src: m.origin?.id, alike: turn === "up" || (!turn && rec.text === "down"),
        attach: rec.waiting ? () => this.attach(m) : null });
    }
    this.motion.flyAll(flights);
    if (animate) {
      for (const rec of turned) this.motion.turn(rec.el, [rec.x, rec.y], rec.text !== "down");
    }
    this.refreshPileState(changed);
    return true;
  }

  // Take card elements out of the DOM: a pile that loses every card (a new deal empties
  // them all) in one change of the pile, not one change for each card.
  removeAll(els) {
    const by = new Map(); // pile el -> its card els leaving
    for (const el of els) {
      const list = by.get(el.parentNode);
      if (list) list.push(el);
      else if (el.parentNode) by.set(el.parentNode, [el]);
    }
    for (const [pile, list] of by) {
      if (list.length === pile.childElementCount) pile.replaceChildren();
      else for (const el of list) el.remove();
    }
  }

  // Put a placed card's element in its pile, under the cards above it that are there
  // already, with the face it has now and at its place (a card that waited for its turn
  // in a cascade, or any card of a plain update).
  attach({ rec, pile: p, turn }) {
    if (!rec.el.isConnected || rec.el.parentNode !== p.el || rec.waiting) {
      const i = p.cards.indexOf(rec);
      let above = null;
      for (let j = i + 1; j < p.cards.length && !above; j++) {
        const r = p.cards[j];
        if (!r.waiting && r.el.parentNode === p.el) above = r.el;
      }
      p.el.insertBefore(rec.el, above);
    }
    if (turn) setFace(rec.el, rec.text);
    if (rec.waiting) {
      // Its place in the pile (rec.x, rec.y) was worked out with the pile's (placePile,
      // in update): only its own transform is written now, not the whole pile's again
      // (a deal attaches a pile's cards one by one). A Spider foundation's cards also
      // take their stacking order from their places.
      rec.waiting = false;
      if (this.family === "spider" && this.role(p.id) === "foundation") {
        rec.moved = true;
        this.placePile(p);
      } else {
        rec.moved = false;
        rec.el.style.transform = `translate(${rec.x}px,${rec.y}px)`;
      }
    }
  }

  placePile(p) {
    const texts = p.cards.map((c) => c.text);
    const offsets = fanOffsets(p.geom, texts, this.geom);
    const reverse = this.family === "spider" && this.role(p.id) === "foundation";
    p.cards.forEach((rec, i) => {
      const [x, y] = offsets[i];
      if (rec.x !== x || rec.y !== y || rec.moved || !rec.el.style.transform) {
        rec.x = x;
        rec.y = y;
        // A card waiting for its turn keeps the transform of where it lies until then.
        if (rec.waiting) return;
        rec.moved = false;
        rec.el.style.transform = `translate(${x}px,${y}px)`;
      }
      if (reverse && !rec.waiting) rec.el.style.zIndex = String(20 - i);
    });
  }

  refreshPileState(piles) {
    for (const p of piles) {
      p.el.toggleAttribute("data-empty", p.cards.length === 0);
    }
  }

  // A new deal: every card comes from the stock (or the middle of the table in a game
  // with none), round by round as a dealer deals, face-up cards turning over on the way;
  // a card update() held back joins its pile as it leaves.
  dealIn() {
    const stock = this.piles.get("stock");
    const { cw, ch } = this.geom;
    const origin = stock ? [stock.geom.x, stock.geom.y] : [this.size[0] / 2 - cw / 2, this.size[1] - ch];
    const flights = [];
    for (const p of this.piles.values()) {
      if (p === stock) continue;
      const order = this.geom.order.indexOf(p.id);
      p.cards.forEach((rec, index) => flights.push({ el: rec.el, to: [rec.x, rec.y], index, order,
        from: [origin[0] - p.geom.x, origin[1] - p.geom.y], turn: rec.text === "down" ? "" : "up",
        src: "stock", alike: true,
        attach: rec.waiting ? () => this.attach({ rec, pile: p, turn: "" }) : null }));
    }
    this.motion.flyAll(flights, "deal");
  }

  // -- queries used by input -----------------------------------------------------------

  locate(cardEl) {
    const pileEl = cardEl.closest("[data-pile]");
    if (!pileEl) return null;
    const p = this.piles.get(pileEl.dataset.pile);
    if (!p) return null;
    const index = p.cards.findIndex((c) => c.el === cardEl);
    return index < 0 ? null : { pile: p.id, index, count: p.cards.length - index };
  }

  role(pileId) {
    return this.roles[pileId];
  }

  cards(pileId) {
    return this.piles.get(pileId)?.cards || [];
  }

  group(pileId, count) {
    const cards = this.cards(pileId);
    return cards.slice(cards.length - count);
  }

  // The table-relative rectangle of the card at `index` of `pileId` (or of the empty slot).
  cardRect(pileId, index) {
    const p = this.piles.get(pileId);
    const rec = p.cards[index];
    const { cw, ch } = this.geom;
    const s = p.geom.scale;
    return { x: p.geom.x + (rec ? rec.x * s : 0), y: p.geom.y + (rec ? rec.y * s : 0), w: cw * s, h: ch * s };
  }

  // The top `count` cards of `src` as a move to `dst` would take them: each card's place
  // in its pile (rest), and in table pixels where it lies (from) and would land (to).
  landing(src, count, dst) {
    const a = this.piles.get(src);
    const b = this.piles.get(dst);
    if (!a || !b || count < 1) return [];
    const recs = a.cards.slice(Math.max(0, a.cards.length - count));
    const texts = [...b.cards.map((c) => c.text), ...recs.map((r) => r.text)];
    const offsets = fanOffsets(b.geom, texts, this.geom).slice(b.cards.length);
    const [sa, sb] = [a.geom.scale, b.geom.scale];
    return recs.map((rec, i) => ({ el: rec.el, rest: [rec.x, rec.y],
      from: [a.geom.x + rec.x * sa, a.geom.y + rec.y * sa],
      to: [b.geom.x + offsets[i][0] * sb, b.geom.y + offsets[i][1] * sb] }));
  }

  // The table-relative rectangle a pile's cards cover (its slot when empty).
  spanRect(pileId) {
    const count = this.cards(pileId).length;
    const first = this.cardRect(pileId, 0);
    const last = this.cardRect(pileId, Math.max(0, count - 1));
    const x = Math.min(first.x, last.x);
    const y = Math.min(first.y, last.y);
    return { x, y, w: Math.max(first.x, last.x) + first.w - x, h: Math.max(first.y, last.y) + first.h - y };
  }

  // Put `el` (a fixed-position box) where it covers no card: the middle of the table if
  // that is bare, else the first bare spot of a few, else it stays where its CSS puts it.
  placeOverFelt(el) {
    const box = el.getBoundingClientRect();
    const table = this.root.getBoundingClientRect();
    const [w, h] = [box.width, box.height];
    const spots = [[0.5, 0.5], [0.5, 0.75], [0.5, 0.25], [0.25, 0.5], [0.75, 0.5], [0.5, 0.95]];
    const covered = [...this.piles.values()].filter((p) => p.cards.length)
      .map((p) => this.spanRect(p.id));
    for (const [fx, fy] of spots) {
      const x = Math.max(0, Math.min(table.width - w, table.width * fx - w / 2));
      const y = Math.max(0, Math.min(table.height - h, table.height * fy - h / 2));
      const spot = { x, y, w, h };
      if (covered.every((r) => !overlaps(r, spot))) {
        Object.assign(el.style, { left: `${table.left + x}px`, top: `${table.top + y}px`,
          right: "auto", bottom: "auto", margin: "0" });
        return true;
      }
    }
    return false;
  }

  rootOrigin() {
    const r = this.root.getBoundingClientRect();
    return [r.left, r.top];
  }

  // Drag feedback: move the cards by (dx, dy) from their places; no layout reads.
  dragTo(recs, dx, dy) {
    for (const rec of recs) {
      this.dragged.set(rec.el, [dx, dy]);
      rec.moved = true; // its transform is no longer its place: the next placement rewrites it
      rec.el.style.transform = `translate(${rec.x + dx}px,${rec.y + dy}px)`;
    }
  }

  startDrag(recs) {
    this.finishAnimations();
    for (const rec of recs) rec.el.classList.add("dragging");
  }

  // Slide dragged cards back to their places.
  cancelDrag(recs) {
    for (const rec of recs) {
      const [dx, dy] = this.dragged.get(rec.el) || [0, 0];
      this.dragged.delete(rec.el);
      rec.moved = false;
      rec.el.classList.remove("dragging");
      rec.el.style.transform = `translate(${rec.x}px,${rec.y}px)`;
      this.motion.fly(rec.el, [rec.x + dx, rec.y + dy], [rec.x, rec.y], { through: false });
    }
  }

  // -- marks: hint, held group, legal targets, keyboard cursor -------------------------

  clearMarks(kind) {
    for (const el of this.root.querySelectorAll(`[data-${kind}]`)) delete el.dataset[kind];
  }

  markGroup(kind, pileId, count, value = "") {
    const p = this.piles.get(pileId);
    if (!p) return;
    const recs = p.cards.slice(Math.max(0, p.cards.length - count));
    if (!recs.length || count === 0) p.el.dataset[kind] = value;
    for (const rec of recs) rec.el.dataset[kind] = value;
  }

  markPile(kind, pileId, value = "") {
    const p = this.piles.get(pileId);
    if (p) p.el.dataset[kind] = value;
  }

  setLabel(name, text) {
    const el = this.labelEls[name];
    if (el && el.textContent !== text) el.textContent = text;
  }
}
