// Loading screen: turns MicroPython's start-up events into text stages and a progress bar.
// It runs before web/start/micropython-loader.mjs (module scripts run in document order),
// so no event is missed.
// web/main.py sets <html data-app="ready"> when the table is interactive, which hides
// the loading screen through CSS.
//
// A start that cannot finish says so, with a "Try again" button: a failed script or module
// (nothing else would move the screen on), a style sheet that did not arrive (the table
// would be drawn unstyled), a file the loader fetches (`pp:missing`), any uncaught error.
// A start that has not moved for a while offers the button too, and goes on waiting.
// The game in progress is saved in the browser, so trying again loses nothing.

const bar = document.getElementById("loading-bar");
const stage = document.getElementById("loading-stage");

// web/start/micropython-loader.mjs dispatches `pp:progress` on window with these details,
// in order.
const STAGES = {
  "Loading MicroPython": [72, "Starting Python…"],
  "Loading files": [80, "Loading the rules engine…"],
  "Loaded files": [88, "Rules engine loaded"],
  "Running web/main.py": [95, "Dealing the cards…"],
};

let text = "";

function show(percent, words = text) {
  if (document.documentElement.dataset.app !== "loading") return;
  if (percent > bar.value) bar.value = percent;
  text = words;
  stage.textContent = words + amount();
}

// The runtime's bytes received so far (web/start/early.js counts them): " (120 of 446 kB)",
// or " (120 kB)" while the whole is not known; nothing before the first byte.
function amount() {
  const { received = 0, total = null, pending = 1 } = window.ppBytes ?? {};
  if (!received) return "";
  const kb = (n) => Math.round(n / 1e3);
  return total && !pending ? ` (${kb(received)} of ${kb(total)} kB)` : ` (${kb(received)} kB)`;
}

// While the runtime downloads, the bar moves with its bytes, from 10% to 70%: by the
// share received when the total is known, else on a curve that nears 70% as bytes come.
let drawing = false;
addEventListener("pp:bytes", () => {
  if (drawing) return;
  drawing = true;
  requestAnimationFrame(() => {
    drawing = false;
    const { received, total, pending } = window.ppBytes;
    const share = total && !pending ? received / total : received / (received + 2e5);
    show(10 + 60 * Math.min(1, share));
  });
});

function fail(message) {
  document.getElementById("loading-slow")?.remove();
  document.documentElement.dataset.app = "error";
  bar.removeAttribute("value");
  stage.textContent = `Pocket Patience could not start.\n${message}`;
}

// The app's root, which the paths in messages are relative to (this file is web/start/).
const ROOT = new URL("../../", import.meta.url).href;

// A file that did not arrive fails the start for good (web/table/table.js then draws no
// table); an error of another kind is shown, but a table that comes after it still plays.
function missing(url, why = "") {
  if (document.documentElement.dataset.app !== "loading") return;
  const path = url.startsWith(ROOT) ? url.slice(ROOT.length) : url;
  window.ppStartMissing = path;
  fail(`A file of the app did not arrive: ${path}${why ? ` (${why})` : ""}.\n`
    + "Check the connection, then try again.");
}

// A start that stops moving (a connection that hangs rather than drops: no byte and no
// stage for STALL_MS) says so and offers "Try again", yet goes on: once it moves again the
// note and the button go, and the table comes as it would have. While it is stalled,
// <html data-stalled> puts the loading screen above the last table's picture
// (web/start/picture.css), which would otherwise hide it.
const STALL_MS = 15000;
let stallTimer = 0;

function moving() {
  clearTimeout(stallTimer);
  if (document.documentElement.dataset.app !== "loading") return;
  if (document.getElementById("loading-slow")) unstall();
  stallTimer = setTimeout(stalled, STALL_MS);
}

// The stall's note and button gone, and the last table's picture back on top.
function unstall() {
  document.getElementById("loading-slow")?.remove();
  document.getElementById("loading-retry")?.remove();
  delete document.documentElement.dataset.stalled;
}

function stalled() {
  const root = document.documentElement;
  if (root.dataset.app !== "loading") return;
  root.dataset.stalled = "";
  const note = document.createElement("p");
  note.id = "loading-slow";
  note.textContent = "This is taking longer than usual. Check the connection, or try "
    + "again: nothing is lost.";
  stage.after(note);
  offerRetry();
}

// Once the start has failed (here or in web/main.py) or stalled: a button to load the page
// again, given the focus so that a keyboard or a screen reader finds it at once.
function offerRetry() {
  const there = document.getElementById("loading-retry");
  if (there) {
    there.focus();
    return;
  }
  const button = document.createElement("button");
  button.type = "button";
  button.id = "loading-retry";
  button.dataset.action = "retry";
  button.textContent = "Try again";
  button.addEventListener("click", () => location.reload());
  document.getElementById("loading").append(button);
  button.focus();
}
new MutationObserver(() => {
  const root = document.documentElement;
  if (root.dataset.app === "error") offerRetry();
  if (root.dataset.app !== "loading") {
    clearTimeout(stallTimer);
    delete root.dataset.stalled;
  }
  // (a stalled start that went on: its button, hidden now, must not keep the focus)
  if (root.dataset.app === "ready") unstall();
}).observe(document.documentElement, { attributes: true, attributeFilter: ["data-app"] });

show(10, "Loading Python…");
moving();
addEventListener("pp:bytes", moving);

addEventListener("pp:progress", (event) => {
  moving();
  const known = STAGES[event.detail];
  if (known) show(...known);
});

addEventListener("error", (event) => {
  if (document.documentElement.dataset.app === "loading") fail(event.message || "Error");
});
// A script, module or style sheet that failed to load: its element's error event, which
// does not bubble, seen on its way down (a module a script imports fails that script).
addEventListener("error", ({ target }) => {
  if (target instanceof HTMLScriptElement) missing(target.src);
  const link = target instanceof HTMLLinkElement;
  if (link && /\b(modulepreload|stylesheet)\b/.test(target.rel)) missing(target.href);
}, true);
// Style sheets in the head have loaded or failed before any module script runs. One that
// failed has no sheet, or (Chromium) an empty one whose rules cannot be read; the app's own
// sheets are same-origin, so theirs always can.
function arrived(link) {
  try {
    return link.sheet !== null && link.sheet.cssRules !== null;
  } catch {
    return false;
  }
}
for (const link of document.querySelectorAll('link[rel="stylesheet"]')) {
  if (!arrived(link)) missing(link.href);
}
addEventListener("pp:missing", ({ detail }) => missing(detail.url, detail.why));
addEventListener("unhandledrejection", (event) => {
  if (document.documentElement.dataset.app === "loading") fail(String(event.reason));
});
