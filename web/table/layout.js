// Where each game's piles sit on the table, how their cards fan, where they take drops.
//
// layout(family, roles, width, height, options) returns the card size, the corner index's
// size, the least steps of a fan, and for every pile id (the keys of roles, which says
// each pile's part: "tableau", "foundation", "stock", ...) its origin (x, y) in table
// pixels, its fan ("down", "left", "right", "waste", "waste-left" or "stack"), the room it
// has along the fan (maxLen), its scale (a compact pile is drawn smaller) and a forgiving
// drop area. fanOffsets() turns a pile's cards into card positions relative to the pile's
// origin. Pure functions of numbers: no DOM access here.
//
// The card size comes from the space there is AND from what the piles hold: the largest
// card with which every fanned pile fits while each covered face-up card still shows its
// whole corner index (at least 14 px, or 20 px in large print, and 18 % of the card's
// height). Face-down cards are squeezed first; the whole table's cards shrink before any
// index is cut, as the best card apps do.
//
// options: piles ({id: [card text | "down", ...]}, bottom to top), large (large print:
// bigger indices), left (left-handed: stock and foundations mirrored).

const RATIO = 1.4; // card height / width
const MIN_CW = 22; // below this a card is not a card any more: fans squeeze instead
const IX_TOP = 0.03; // the index's inset from the card's top edge, in card widths
const IX_LEFT = 0.05; // ... and from its side
const BACK_RIM = 0.05; // the cream rim inside a card's back (table.css), in card widths

function box(x, y, w, h) {
  return { x, y, w, h };
}

function pile(x, y, fan, maxLen, area, scale = 1) {
  return { x, y, fan, maxLen, area, scale };
}

// The ids of the piles that play `role`, in the engine's order.
function pilesOf(roles, role) {
  return Object.keys(roles).filter((id) => roles[id] === role);
}

// Card measures for a card `cw` wide: its height, the index's font size (px), and the
// least step between cards of a fan that still shows a covered card's whole index:
// `up` down a column, `side` along a row (the index there is the rank over its suit),
// `down` for face-down cards (a sliver of the back's pattern is enough). Large print asks
// for an index of `want` px whatever the card's size.
export function measures(cw, large = false, want = 0) {
  const ch = Math.round(cw * RATIO);
  const least = large ? 20 : 14;
  // A larger index on small cards, but never wider than the card ("10" and its suit).
  const ix = Math.round(Math.min(large ? want : Math.max(12, cw * 0.27), (cw * 0.9) / 1.85));
  return {
    cw, ch, ix, least,
    up: Math.ceil(Math.max(least, ch * 0.18, cw * IX_TOP + ix + 1)),
    side: Math.ceil(Math.max(least, ch * 0.18, cw * IX_LEFT + ix + 2)),
    // below the back's cream rim some of its pattern must show, or a squeezed column of
    // backs reads as blank edges
    down: Math.max(3, Math.round(ch * 0.045),
      Math.ceil(cw * BACK_RIM) + Math.max(2, Math.round(ch * 0.025))),
    sideDown: Math.max(3, Math.round(cw * 0.1), Math.ceil(cw * BACK_RIM) + 2),
  };
}

function columnRow(ids, left, y, cw, gap, height, into) {
  // A row of columns fanning down to the bottom of the table.
  ids.forEach((id, i) => {
    const x = left + i * (cw + gap);
    into[id] = pile(x, y, "down", height - y - 4, box(x - gap / 2, y - cw * 0.2, cw + gap, height - y + cw * 0.2));
  });
}

function slot(x, y, cw, ch, fan = "stack", scale = 1) {
  const m = cw * 0.3;
  return pile(x, y, fan, cw, box(x - m, y - m, cw * scale + 2 * m, ch * scale + 2 * m), scale);
}

// A table of `n` columns across the width W: the margin and gap (fractions of W, the gap
// at least `least` px) and the widest card (at most `most` px, and `tall` cards high in H).
function columnsAcross(n, W, H, { margin, space, least, tall, most }) {
  const pad = Math.max(4, Math.round(W * margin));
  const gap = Math.max(least, Math.round(W * space));
  const cw = Math.floor(Math.min((W - 2 * pad - (n - 1) * gap) / n, H / (RATIO * tall), most));
  return { pad, gap, cw };
}

// The left edge of a row of `n` cards `cw` wide, centred in W.
function centred(n, cw, gap, W) {
  return Math.round((W - (n * cw + (n - 1) * gap)) / 2);
}

// The gap between columns of cards made smaller than the width allows (for a long
// column): up to a fifth of a card, so the columns still spread over the table.
function spread(n, cw, gap, W, pad) {
  return Math.max(gap, Math.min(Math.round(cw * 0.2), Math.floor((W - 2 * pad - n * cw) / (n - 1))));
}

// Mirror `ids` about the vertical line x = axis (their order left to right kept within
// each group of `groups`): the left-handed table.
function mirror(out, ids, axis, groups = []) {
  const flip = (x, w) => Math.round(2 * axis - x - w);
  for (const id of ids) {
    const p = out.piles[id];
    if (!p) continue;
    const w = out.cw * p.scale;
    const dx = flip(p.x, w) - p.x;
    p.x += dx;
    p.area = box(flip(p.area.x, p.area.w), p.area.y, p.area.w, p.area.h);
    if (p.fan === "waste") p.fan = "waste-left";
    const label = out.labels[id];
    if (label) label.x = Math.round(2 * axis - label.x);
  }
  for (const group of groups) {
    const xs = group.map((id) => out.piles[id].x).sort((a, b) => a - b);
    const areas = group.map((id) => out.piles[id].area).sort((a, b) => a.x - b.x);
    group.forEach((id, i) => { out.piles[id].x = xs[i]; out.piles[id].area = areas[i]; });
  }
}

// -- the four families: each places its piles for a card width ---------------------------

function spider(ctx) {
  const { roles, W, H } = ctx;
  const columns = pilesOf(roles, "tableau");
  const found = pilesOf(roles, "foundation");
  const { pad, gap: least, cw: most } = columnsAcross(10, W, H,
    { margin: 0.008, space: 0.007, least: 3, tall: 4.4, most: 118 });
  const place = (cw) => {
    const ch = Math.round(cw * RATIO);
    const gap = spread(10, cw, least, W, pad);
    const left = centred(10, cw, gap, W);
    // The stock and the completed runs need no more than a tenth of a tall table: on a
    // wide, low one they are drawn smaller, leaving the columns the height.
    const s = Math.min(1, Math.max(0.5, Math.round((H * 0.1 / ch) * 20) / 20));
    const piles = {};
    found.forEach((id, i) => { piles[id] = slot(left + i * (cw + gap) * s, pad, cw, ch, "stack", s); });
    const right = left + 9 * (cw + gap) + cw;
    piles.stock = slot(right - cw * s, pad, cw, ch, "stack", s);
    const y1 = pad + Math.round(ch * s) + Math.max(least * 2, Math.round(ch * 0.1 * s));
    columnRow(columns, left, y1, cw, gap, H, piles);
    const labels = { stock: { x: piles.stock.x + (cw * s) / 2, y: pad + (ch - cw * 0.58) * s, w: cw * s, s } };
    const out = { cw, ch, piles, labels };
    if (ctx.left) mirror(out, ["stock", ...found], (left + right) / 2, [found]);
    return out;
  };
  const out = fitted(ctx, place, most);
  return { ...out, nav: ["stock", ...columns], inert: found };
}

function klondike(ctx) {
  const { roles, W, H } = ctx;
  const columns = pilesOf(roles, "tableau");
  const found = pilesOf(roles, "foundation");
  const { pad, gap: least, cw: most } = columnsAcross(7, W, H,
    { margin: 0.01, space: 0.012, least: 4, tall: 4.3, most: 128 });
  const place = (cw) => {
    const ch = Math.round(cw * RATIO);
    const gap = spread(7, cw, least, W, pad);
    const left = centred(7, cw, gap, W);
    const col = (i) => left + i * (cw + gap);
    const piles = {};
    piles.stock = slot(col(0), pad, cw, ch);
    piles.waste = slot(col(1), pad, cw, ch, "waste");
    piles.waste.area.w += cw * 0.9;
    found.forEach((id, i) => { piles[id] = slot(col(3 + i), pad, cw, ch); });
    const y1 = pad + ch + Math.max(least * 2, Math.round(ch * 0.12));
    columnRow(columns, left, y1, cw, gap, H, piles);
    const labels = { stock: { x: col(0) + cw / 2, y: pad + ch / 2, w: cw } };
    const out = { cw, ch, piles, labels };
    if (ctx.left) mirror(out, ["stock", "waste", ...found], left + (7 * cw + 6 * gap) / 2, [found]);
    return out;
  };
  const out = fitted(ctx, place, most);
  return { ...out, nav: ["stock", "waste", ...found, ...columns], inert: [] };
}

function castle(ctx) {
  const { roles, W, H } = ctx;
  const rows = pilesOf(roles, "tableau");
  const found = pilesOf(roles, "foundation");
  const wide = W >= 640 && W > H * 1.05;
  if (!wide) {
    const pad = Math.max(4, Math.round(W * 0.01));
    const least = Math.max(3, Math.round(W * 0.01));
    const most = Math.floor(Math.min((W - 2 * pad - 7 * least) / 8, H / (RATIO * 4.2), 118));
    const place = (cw) => {
      const ch = Math.round(cw * RATIO);
      const gap = spread(8, cw, least, W, pad);
      const left = centred(8, cw, gap, W);
      const piles = {};
      found.forEach((id, i) => { piles[id] = slot(left + (2 + i) * (cw + gap), pad, cw, ch); });
      const y1 = pad + ch + Math.max(least * 2, Math.round(ch * 0.12));
      columnRow(rows, left, y1, cw, gap, H, piles);
      return { cw, ch, piles, labels: {} };
    };
    return { ...fitted(ctx, place, most), nav: [...found, ...rows], inert: [] };
  }
  const pad = Math.max(6, Math.round(H * 0.02));
  const vgap = Math.max(6, Math.round(H * 0.025));
  const most = Math.floor(Math.min((H - 2 * pad - 3 * vgap) / 4 / RATIO, (W - 2 * pad) / 9.5, 124));
  const place = (cw) => {
    const ch = Math.round(cw * RATIO);
    const hgap = Math.round(cw * 0.25);
    const top = Math.round((H - (4 * ch + 3 * vgap)) / 2);
    const cx = Math.round(W / 2 - cw / 2);
    const piles = {};
    found.forEach((id, i) => { piles[id] = slot(cx, top + i * (ch + vgap), cw, ch); });
    rows.forEach((id, i) => {
      const side = i < rows.length / 2 ? -1 : 1;
      const y = top + (i % (rows.length / 2)) * (ch + vgap);
      if (side < 0) {
        const x = cx - hgap - cw;
        const maxLen = x + cw - pad;
        piles[id] = pile(x, y, "left", maxLen, box(pad, y - vgap / 2, x + cw - pad + hgap / 2, ch + vgap));
      } else {
        const x = cx + cw + hgap;
        const maxLen = W - pad - x;
        piles[id] = pile(x, y, "right", maxLen, box(x - hgap / 2, y - vgap / 2, W - pad - x + hgap / 2, ch + vgap));
      }
    });
    return { cw, ch, piles, labels: {} };
  };
  const half = rows.length / 2;
  const nav = [];
  for (let i = 0; i < half; i++) nav.push(rows[i], found[i], rows[half + i]);
  return { ...fitted(ctx, place, most), nav, inert: [] };
}

function doublets(ctx) {
  // The arch of seven reserve cards around the foundation; stock and waste below it, or
  // beside it on a wide, low screen (a phone held sideways). Nothing here fans.
  const { W, H } = ctx;
  const side = ctx.left ? -1 : 1;
  const pad = Math.max(6, Math.round(H * 0.015));
  const vgap = Math.max(6, Math.round(H * 0.02));
  const beside = W > H * 1.25;
  const rows = beside ? 4 : 5;
  const across = beside ? 7.3 : 4.4; // card widths the layout needs across
  const cw = Math.floor(Math.min((H - 2 * pad - (rows - 1) * vgap) / (rows + 0.3) / RATIO,
    (W - 2 * pad) / across, 124));
  const ch = Math.round(cw * RATIO);
  const sx = Math.round(cw * 1.45);
  const shift = beside ? Math.round(cw * 1.3) : 0; // room on one side for stock and waste
  const cx = Math.round(W / 2 - cw / 2) - side * shift;
  const top = Math.max(pad, Math.round((H - (rows * ch + (rows - 1) * vgap + ch * 0.3)) / 2));
  const row = (k) => top + k * (ch + vgap);
  const at = { r3: [cx, 0], r2: [cx - sx, 1], r4: [cx + sx, 1], r1: [cx - sx, 2], r5: [cx + sx, 2],
    r0: [cx - sx, 3], r6: [cx + sx, 3], f0: [cx, 3] };
  const piles = {};
  for (const [id, [x, k]] of Object.entries(at)) piles[id] = slot(x, row(k), cw, ch);
  if (beside) {
    const x = cx + side * (sx + Math.round(cw * 1.6));
    piles.stock = slot(x, row(1), cw, ch);
    piles.waste = slot(x + side * Math.round(cw * 1.2), row(1), cw, ch);
  } else {
    const y4 = row(4) + Math.round(ch * 0.15);
    piles.stock = slot(cx - side * Math.round(cw * 0.65), y4, cw, ch);
    piles.waste = slot(cx + side * Math.round(cw * 0.65), y4, cw, ch);
  }
  const labels = {
    needs: { x: cx + cw / 2, y: row(2) + ch * 0.6, w: sx * 2 - cw },
    stock: { x: piles.stock.x + cw / 2, y: piles.stock.y + ch - cw * 0.58, w: cw },
  };
  const nav = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "f0", "stock", "waste"];
  return { cw, ch, piles, labels, nav, inert: [], fits: true };
}

const FAMILIES = { spider, klondike, castle, doublets };

// -- fitting the cards to the piles ----------------------------------------------------------

// The length a fanned pile of `cards` needs along its fan at the least steps of `m`.
function needed(geom, cards, m) {
  const vertical = geom.fan === "down";
  let n = vertical ? m.ch : m.cw;
  for (let i = 0; i < cards.length - 1; i++) {
    if (cards[i] === "down") n += vertical ? m.down : m.sideDown;
    else n += vertical ? m.up : m.side;
  }
  return n;
}

function fits(out, ctx) {
  const m = measures(out.cw, ctx.large, ctx.want);
  for (const [id, geom] of Object.entries(out.piles)) {
    if (geom.fan !== "down" && geom.fan !== "left" && geom.fan !== "right") continue;
    const cards = ctx.piles[id] || [];
    if (cards.length > 1 && needed(geom, cards, m) > geom.maxLen) return false;
  }
  return true;
}

// The placement of the widest card, at most `most`, with which every pile fits (larger
// cards fit fewer: a binary search); the narrowest allowed if none does (fans squeeze).
function fitted(ctx, place, most) {
  const top = Math.max(MIN_CW, most);
  const first = place(top);
  if (fits(first, ctx)) return { ...first, fits: true };
  let lo = MIN_CW;
  let hi = top - 1;
  let best = null;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const out = place(mid);
    if (fits(out, ctx)) {
      best = out;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return best ? { ...best, fits: true } : { ...place(MIN_CW), fits: false };
}

export function layout(family, roles, width, height, options = {}) {
  const ids = Object.keys(roles);
  const make = FAMILIES[family] || klondike;
  const ctx = { roles, W: Math.max(200, width), H: Math.max(160, height), piles: options.piles || {},
    large: false, left: !!options.left, want: 0 };
  let out = make(ctx);
  if (options.large) {
    // Large print: an index a quarter larger than this table's usual one (cards shrink
    // if they must, to show it on every covered card).
    ctx.large = true;
    ctx.want = Math.max(17, Math.round(measures(out.cw).ix * 1.25));
    out = make(ctx);
  }
  Object.assign(out, measures(out.cw, ctx.large, ctx.want));
  for (const id of ids) {
    if (!out.piles[id]) out.piles[id] = slot(0, 0, out.cw, out.ch); // unknown pile: still present
  }
  out.order = [...out.nav, ...ids.filter((id) => !out.nav.includes(id))];
  return out;
}

// Card offsets of one pile: [[dx, dy], ...] bottom to top, relative to the pile's origin.
// `table` is the layout (card size and least steps). Face-down cards overlap more than
// face-up ones; a pile longer than its room squeezes its overlap, face-down cards first,
// then face-up ones down to the step that still shows their index; only a pile that does
// not fit even then (the layout found no card small enough) squeezes further.
export function fanOffsets(geom, cards, table) {
  const { cw, ch } = table;
  const n = cards.length;
  const out = new Array(n);
  if (geom.fan === "stack" || n === 0) {
    for (let i = 0; i < n; i++) out[i] = [0, 0];
    return out;
  }
  if (geom.fan === "waste" || geom.fan === "waste-left") {
    const step = (geom.fan === "waste" ? 1 : -1) * Math.max(table.side, cw * 0.28);
    for (let i = 0; i < n; i++) out[i] = [Math.max(0, i - (n - 3)) * step, 0];
    return out;
  }
  const vertical = geom.fan === "down";
  const size = vertical ? ch : cw;
  const minDown = vertical ? table.down : table.sideDown;
  const minUp = vertical ? table.up : table.side;
  // Whole pixels, so a covered card shows no less than its least step.
  let dDown = Math.max(minDown, Math.floor(vertical ? ch * 0.1 : cw * 0.18));
  let dUp = Math.max(minUp, Math.floor(vertical ? ch * 0.3 : cw * 0.6));
  let downGaps = 0;
  let upGaps = 0;
  for (let i = 0; i < n - 1; i++) {
    if (cards[i] === "down") downGaps++;
    else upGaps++;
  }
  const room = geom.maxLen - size;
  const need = () => downGaps * dDown + upGaps * dUp;
  if (need() > room) {
    dDown = Math.max(minDown, downGaps ? Math.floor((room - upGaps * dUp) / downGaps) : dDown);
  }
  if (need() > room) {
    dUp = Math.max(minUp, upGaps ? Math.floor((room - downGaps * dDown) / upGaps) : dUp);
  }
  if (need() > room && need() > 0) {
    const k = Math.max(0, room) / need();
    dDown *= k;
    dUp *= k;
  }
  let pos = 0;
  const sign = geom.fan === "left" ? -1 : 1;
  for (let i = 0; i < n; i++) {
    const p = Math.floor(pos * 10) / 10;
    out[i] = vertical ? [0, p] : [sign * p, 0];
    pos += cards[i] === "down" ? dDown : dUp;
  }
  return out;
}
