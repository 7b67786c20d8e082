// Where each game's piles sit on the table, how their cards fan, where they take drops.
//
// layout(family, roles, width, height) returns the card size and, for every pile id (the
// keys of roles, which says each pile's part: "tableau", "foundation", "stock", ...), its
// origin (x, y) in table pixels, its fan ("down", "left", "right", "waste" or "stack"),
// the room it has along the fan (maxLen, so long piles compress their overlap), and a
// forgiving drop area. fanOffsets() turns a pile's cards into card positions relative to
// the pile's origin. Pure functions of numbers: no DOM access here.

const RATIO = 1.4; // card height / width

function box(x, y, w, h) {
  return { x, y, w, h };
}

function pile(x, y, fan, maxLen, area) {
  return { x, y, fan, maxLen, area };
}

// The ids of the piles that play `role`, in the engine's order.
function pilesOf(roles, role) {
  return Object.keys(roles).filter((id) => roles[id] === role);
}

function columnRow(ids, left, y, cw, gap, height, into) {
  // A row of columns fanning down to the bottom of the table.
  ids.forEach((id, i) => {
    const x = left + i * (cw + gap);
    into[id] = pile(x, y, "down", height - y - 4, box(x - gap / 2, y - cw * 0.2, cw + gap, height - y + cw * 0.2));
  });
}

function slot(x, y, cw, ch, fan = "stack") {
  const m = cw * 0.3;
  return pile(x, y, fan, cw, box(x - m, y - m, cw + 2 * m, ch + 2 * m));
}

// A table of `n` columns across the width W: the margin and gap (fractions of W, the gap
// at least `least` px), the card size (at most `most` px wide, and `tall` cards high in H)
// and the left edge of the row.
function columnsAcross(n, W, H, { margin, space, least, tall, most }) {
  const pad = Math.max(4, Math.round(W * margin));
  const gap = Math.max(least, Math.round(W * space));
  const cw = Math.floor(Math.min((W - 2 * pad - (n - 1) * gap) / n, H / (RATIO * tall), most));
  const ch = Math.round(cw * RATIO);
  return { pad, gap, cw, ch, left: Math.round((W - (n * cw + (n - 1) * gap)) / 2) };
}

function spider(roles, W, H) {
  const columns = pilesOf(roles, "tableau");
  const found = pilesOf(roles, "foundation");
  const { pad, gap, cw, ch, left } = columnsAcross(10, W, H,
    { margin: 0.008, space: 0.007, least: 3, tall: 4.4, most: 118 });
  const piles = {};
  found.forEach((id, i) => { piles[id] = slot(left + i * (cw + gap), pad, cw, ch); });
  piles.stock = slot(left + 9 * (cw + gap), pad, cw, ch);
  const y1 = pad + ch + Math.max(gap * 2, Math.round(ch * 0.12));
  columnRow(columns, left, y1, cw, gap, H, piles);
  const labels = { stock: { x: piles.stock.x + cw / 2, y: pad + ch / 2, w: cw } };
  const nav = ["stock", ...columns];
  return { cw, ch, piles, labels, nav, inert: found };
}

function klondike(roles, W, H) {
  const columns = pilesOf(roles, "tableau");
  const found = pilesOf(roles, "foundation");
  const { pad, gap, cw, ch, left } = columnsAcross(7, W, H,
    { margin: 0.01, space: 0.012, least: 4, tall: 4.3, most: 128 });
  const col = (i) => left + i * (cw + gap);
  const piles = {};
  piles.stock = slot(col(0), pad, cw, ch);
  piles.waste = slot(col(1), pad, cw, ch, "waste");
  piles.waste.area.w += cw * 0.6;
  found.forEach((id, i) => { piles[id] = slot(col(3 + i), pad, cw, ch); });
  const y1 = pad + ch + Math.max(gap * 2, Math.round(ch * 0.15));
  columnRow(columns, left, y1, cw, gap, H, piles);
  const labels = { stock: { x: col(0) + cw / 2, y: pad + ch / 2, w: cw } };
  const nav = ["stock", "waste", ...found, ...columns];
  return { cw, ch, piles, labels, nav, inert: [] };
}

function castle(roles, W, H) {
  const rows = pilesOf(roles, "tableau");
  const found = pilesOf(roles, "foundation");
  const wide = W >= 640 && W > H * 1.05;
  const piles = {};
  if (!wide) {
    const pad = Math.max(4, Math.round(W * 0.01));
    const gap = Math.max(3, Math.round(W * 0.01));
    const cw = Math.floor(Math.min((W - 2 * pad - 7 * gap) / 8, H / (RATIO * 4.2), 118));
    const ch = Math.round(cw * RATIO);
    const left = Math.round((W - (8 * cw + 7 * gap)) / 2);
    found.forEach((id, i) => { piles[id] = slot(left + (2 + i) * (cw + gap), pad, cw, ch); });
    const y1 = pad + ch + Math.max(gap * 2, Math.round(ch * 0.15));
    columnRow(rows, left, y1, cw, gap, H, piles);
    return { cw, ch, piles, labels: {}, nav: [...found, ...rows], inert: [] };
  }
  const pad = Math.max(6, Math.round(H * 0.02));
  const vgap = Math.max(6, Math.round(H * 0.025));
  const cw = Math.floor(Math.min((H - 2 * pad - 3 * vgap) / 4 / RATIO, (W - 2 * pad) / 9.5, 124));
  const ch = Math.round(cw * RATIO);
  const hgap = Math.round(cw * 0.25);
  const top = Math.round((H - (4 * ch + 3 * vgap)) / 2);
  const cx = Math.round(W / 2 - cw / 2);
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
  const half = rows.length / 2;
  const nav = [];
  for (let i = 0; i < half; i++) nav.push(rows[i], found[i], rows[half + i]);
  return { cw, ch, piles, labels: {}, nav, inert: [] };
}

function doublets(roles, W, H) {
  // The arch of seven reserve cards around the foundation; stock and waste below it, or
  // beside it on a wide, low screen (a phone held sideways).
  const pad = Math.max(6, Math.round(H * 0.015));
  const vgap = Math.max(6, Math.round(H * 0.02));
  const beside = W > H * 1.25;
  const rows = beside ? 4 : 5;
  const across = beside ? 7.3 : 4.4; // card widths the layout needs across
  const cw = Math.floor(Math.min((H - 2 * pad - (rows - 1) * vgap) / (rows + 0.3) / RATIO,
    (W - 2 * pad) / across, 124));
  const ch = Math.round(cw * RATIO);
  const sx = Math.round(cw * 1.45);
  const shift = beside ? Math.round(cw * 1.3) : 0; // room on the right for stock and waste
  const cx = Math.round(W / 2 - cw / 2) - shift;
  const top = Math.max(pad, Math.round((H - (rows * ch + (rows - 1) * vgap + ch * 0.3)) / 2));
  const row = (k) => top + k * (ch + vgap);
  const at = { r3: [cx, 0], r2: [cx - sx, 1], r4: [cx + sx, 1], r1: [cx - sx, 2], r5: [cx + sx, 2],
    r0: [cx - sx, 3], r6: [cx + sx, 3], f0: [cx, 3] };
  const piles = {};
  for (const [id, [x, k]] of Object.entries(at)) piles[id] = slot(x, row(k), cw, ch);
  if (beside) {
    const x = cx + sx + Math.round(cw * 1.6);
    piles.stock = slot(x, row(1), cw, ch);
    piles.waste = slot(x + Math.round(cw * 1.2), row(1), cw, ch);
  } else {
    const y4 = row(4) + Math.round(ch * 0.15);
    piles.stock = slot(cx - Math.round(cw * 0.65), y4, cw, ch);
    piles.waste = slot(cx + Math.round(cw * 0.65), y4, cw, ch);
  }
  const labels = {
    needs: { x: cx + cw / 2, y: row(2) + ch * 0.6, w: sx * 2 - cw },
    stock: { x: piles.stock.x + cw / 2, y: piles.stock.y + ch / 2, w: cw },
  };
  const nav = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "f0", "stock", "waste"];
  return { cw, ch, piles, labels, nav, inert: [] };
}

const FAMILIES = { spider, klondike, castle, doublets };

export function layout(family, roles, width, height) {
  const ids = Object.keys(roles);
  const make = FAMILIES[family] || klondike;
  const out = make(roles, Math.max(200, width), Math.max(160, height));
  for (const id of ids) {
    if (!out.piles[id]) out.piles[id] = slot(0, 0, out.cw, out.ch); // unknown pile: still present
  }
  out.order = [...out.nav, ...ids.filter((id) => !out.nav.includes(id))];
  return out;
}

// Card offsets of one pile: [[dx, dy], ...] bottom to top, relative to the pile's origin.
// Face-down cards overlap more than face-up ones; a pile longer than its room squeezes its
// overlap (face-down first, then face-up, then both) so that it always fits.
export function fanOffsets(geom, cards, cw, ch) {
  const n = cards.length;
  const out = new Array(n);
  if (geom.fan === "stack" || n === 0) {
    for (let i = 0; i < n; i++) out[i] = [0, 0];
    return out;
  }
  if (geom.fan === "waste") {
    const step = cw * 0.28;
    for (let i = 0; i < n; i++) out[i] = [Math.max(0, i - (n - 3)) * step, 0];
    return out;
  }
  const vertical = geom.fan === "down";
  const size = vertical ? ch : cw;
  let dDown = vertical ? ch * 0.1 : cw * 0.18;
  let dUp = vertical ? ch * 0.32 : cw * 0.6;
  const minDown = vertical ? ch * 0.045 : cw * 0.1;
  const minUp = vertical ? ch * 0.19 : cw * 0.42; // sideways: a rank with its suit below
  let downGaps = 0;
  let upGaps = 0;
  for (let i = 0; i < n - 1; i++) {
    if (cards[i] === "down") downGaps++;
    else upGaps++;
  }
  const room = geom.maxLen - size;
  const need = () => downGaps * dDown + upGaps * dUp;
  if (need() > room) {
    dDown = Math.max(minDown, downGaps ? (room - upGaps * dUp) / downGaps : dDown);
  }
  if (need() > room) {
    dUp = Math.max(minUp, upGaps ? (room - downGaps * dDown) / upGaps : dUp);
  }
  if (need() > room && need() > 0) {
    const k = Math.max(0, room) / need();
    dDown *= k;
    dUp *= k;
  }
  let pos = 0;
  const sign = geom.fan === "left" ? -1 : 1;
  for (let i = 0; i < n; i++) {
    const p = Math.round(pos * 10) / 10;
    out[i] = vertical ? [0, p] : [sign * p, 0];
    pos += cards[i] === "down" ? dDown : dUp;
  }
  return out;
}
