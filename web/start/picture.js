// The last table, on screen at once on a reload or in the installed app, while Python
// starts: a picture of the table's markup as it was drawn, saved next to the autosave.
//
// No rules here: the picture is only the DOM the table last drew (the #app element, as a
// tree of tags, attributes, inline styles and text), saved in localStorage under
// pp:v1:<scope>picture together with the key of the game it shows: the autosave head's
// "id", "count" and "cursor" (web/saves.py writes the head, pp:v1:<scope>game, before the
// table draws a move, so the two agree) and the window's size. A start paints it only
// when the head still has that id, count and cursor, a deal link in the address names
// that same deal, and the window has the same size; otherwise it shows nothing and the
// loading screen stays. The picture is inert (no click, key or focus acts on it) and goes
// when the table is ready (data-app="ready") or the start fails.
//
// Saving: web/table/table.js calls window.ppPicture.saveSoon() after each render; the
// save runs when the page has been still for a moment, and at once when it is hidden.
// Built with createElement and CSSOM (never innerHTML), so the page's
// Content-Security-Policy, which forbids inline style attributes, holds.

// Every localStorage key of this copy of the app starts so (web/storage.py: the app's
// folder scopes them).
export const STORAGE_PREFIX = `pp:v1:${new URL("./", location.href).pathname}`;
const HEAD_KEY = `${STORAGE_PREFIX}game`;
const PICTURE_KEY = `${STORAGE_PREFIX}picture`;
const QUIET_MS = 400;
const SVG = "http://www.w3.org/2000/svg";

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

// The saved game's key, or null when there is none.
function headKey() {
  const head = read(HEAD_KEY);
  if (!head || typeof head.id !== "string") return null;
  return { id: head.id, count: head.count, cursor: head.cursor, variant: head.variant,
           seed: head.seed };
}

function sameKey(a, b) {
  return a.id === b.id && a.count === b.count && a.cursor === b.cursor;
}

// A node as plain data: [tag, namespace is SVG, attributes, style text, children], or text.
function capture(node) {
  if (node.nodeType === Node.TEXT_NODE) return node.data;
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  const attrs = {};
  for (const { name, value } of node.attributes) {
    if (name !== "style") attrs[name] = value;
  }
  const style = node.getAttribute("style") || "";
  const kids = [];
  for (const child of node.childNodes) {
    const kept = capture(child);
    if (kept !== null) kids.push(kept);
  }
  return [node.localName, node.namespaceURI === SVG ? 1 : 0, attrs, style, kids];
}

function build(data) {
  if (typeof data === "string") return document.createTextNode(data);
  const [tag, svg, attrs, style, kids] = data;
  const el = svg ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    // Ids stay only on the table itself (its styles are keyed to #table); the live page
    // has every other one, once.
    if (name === "id" && value !== "table") continue;
    el.setAttribute(name, value);
  }
  if (style) el.style.cssText = style;
  for (const kid of kids) el.append(build(kid));
  return el;
}

// The saved game's key when the table last drew: a tab that another tab has moved past
// since (it will follow at its next intent) must not save its old table under the new key.
let drawn = null;

function save() {
  const app = document.getElementById("app");
  const key = headKey();
  if (!app || !key || !drawn || !sameKey(key, drawn)) return;
  if (document.documentElement.dataset.app !== "ready") return;
  try {
    localStorage.setItem(PICTURE_KEY, JSON.stringify({
      ...key, width: innerWidth, height: innerHeight, app: capture(app),
      classes: [...document.documentElement.classList], // the deck's colours
    }));
  } catch {
    /* storage full or forbidden: no picture next time, nothing else changes */
  }
}

let timer = 0;
// Called by the table after each render (the autosave head is already written then).
export function saveSoon() {
  drawn = headKey();
  clearTimeout(timer);
  timer = setTimeout(save, QUIET_MS);
}

window.ppPicture = { saveSoon }; // also tells the tests that this script has run
addEventListener("visibilitychange", () => {
  if (document.visibilityState === "hidden") {
    clearTimeout(timer);
    save();
  }
});

// Whether the saved picture shows the game this start will resume.
function wanted(picture) {
  const key = headKey();
  if (!picture?.app || !key || !sameKey(picture, key)) return false;
  if (picture.width !== innerWidth || picture.height !== innerHeight) return false;
  const query = new URLSearchParams(location.search);
  if (query.has("game") || query.has("deal")) {
    return query.get("game") === key.variant && query.get("deal") === String(key.seed);
  }
  return true;
}

function paint() {
  const root = document.documentElement;
  if (root.dataset.app !== "loading") return;
  const picture = read(PICTURE_KEY);
  if (!wanted(picture)) return;
  const shown = build(picture.app);
  shown.id = "picture";
  shown.inert = true;
  shown.setAttribute("aria-hidden", "true");
  document.body.append(shown);
  root.classList.add(...(picture.classes || []));
  root.dataset.picture = "shown";
  performance.mark("pp:picture");
  const observer = new MutationObserver(() => {
    if (root.dataset.app === "loading") return;
    observer.disconnect();
    shown.remove();
    delete root.dataset.picture;
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
}

paint();
