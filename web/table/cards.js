// Card elements: faces drawn with CSS and SVG suit masks (no bitmaps), built from a
// fixed template per card text and cloned, so a card's text never goes through HTML.
//
// A face-up card is <div class="card" data-card="QH" data-suit="H" aria-label="Queen of
// hearts">; a face-down card is <div class="card" data-card="down" aria-label="face-down
// card"> with no trace of its identity (not in ids, classes or children).

const RANK_LABEL = { A: "A", T: "10", J: "J", Q: "Q", K: "K" };
const VALID = /^[A2-9TJQK][SHDC]$/;
const faces = new Map(); // card text -> template fragment
let serial = 0;
let names = {};

export function setCardNames(map) {
  names = map || {};
}

// The face's parts are held by one element that takes no box of its own (display:
// contents): a card turned face up gets one element, which every observer of the page
// (PyScript's looks through each element added) handles once, not once per part. The
// parts are few (the index's rank and suit, the centre pip, a court card's letter):
// every element of a card is styled, laid out and painted as the card joins a pile.
function faceTemplate(text) {
  let face = faces.get(text);
  if (face) return face;
  face = document.createElement("span");
  face.className = "face";
  // One corner index, which the pile's fan puts in the corner that shows (table.css).
  const ix = document.createElement("span");
  ix.className = "ix";
  const b = document.createElement("b");
  b.textContent = RANK_LABEL[text[0]] || text[0];
  ix.append(b, document.createElement("i"));
  face.append(ix);
  const centre = document.createElement("i");
  centre.className = "pip-c";
  face.append(centre);
  if ("JQK".includes(text[0])) {
    const court = document.createElement("b");
    court.className = "court";
    court.textContent = text[0];
    face.append(court);
  }
  faces.set(text, face);
  return face;
}

export function makeCard(text) {
  const el = document.createElement("div");
  el.className = "card";
  el.id = `c${++serial}`;
  el.setAttribute("role", "img");
  setFace(el, text);
  return el;
}

export function setFace(el, text) {
  if (text === "down" || !VALID.test(text)) {
    el.dataset.card = "down";
    delete el.dataset.suit;
    el.setAttribute("aria-label", "face-down card");
    el.replaceChildren();
    return;
  }
  el.dataset.card = text;
  el.dataset.suit = text[1];
  el.setAttribute("aria-label", names[text] || text);
  el.replaceChildren(faceTemplate(text).cloneNode(true));
}
