// Loading screen: turns PyScript's start-up events into text stages and a progress bar.
// It runs before PyScript (module scripts run in document order), so no event is missed.
// web/main.py sets <html data-app="ready"> when the table is interactive, which hides
// the loading screen through CSS.

const bar = document.getElementById("loading-bar");
const stage = document.getElementById("loading-stage");

// PyScript (polyscript) dispatches `py:progress` on window with these details, in order.
const STAGES = {
  "Loading Pyodide": [15, "Starting Python…"],
  "Loading Storage": [20, "Starting Python…"],
  "Loading interpreter": [25, "Loading the Python runtime…"],
  "Loaded interpreter": [75, "Python is running"],
  "Loading files": [80, "Loading the rules engine…"],
  "Loaded files": [88, "Rules engine loaded"],
  "Loaded Pyodide": [90, "Starting the game…"],
};

let text = "";

function show(percent, words = text) {
  if (document.documentElement.dataset.app !== "loading") return;
  if (percent > bar.value) bar.value = percent;
  text = words;
  stage.textContent = words + amount();
}

// The runtime's bytes received so far (web/start/early.js counts them): " (1.2 of 4.3 MB)",
// or " (1.2 MB)" while the whole is not known; nothing before the first byte.
function amount() {
  const { received = 0, total = null, pending = 1 } = window.ppBytes ?? {};
  if (!received) return "";
  const mb = (n) => (n / 1e6).toFixed(1);
  return total && !pending ? ` (${mb(received)} of ${mb(total)} MB)` : ` (${mb(received)} MB)`;
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
    const share = total && !pending ? received / total : received / (received + 4e6);
    show(10 + 60 * Math.min(1, share));
  });
});

function fail(message) {
  document.documentElement.dataset.app = "error";
  bar.removeAttribute("value");
  stage.textContent = `Pocket Patience could not start.\n${message}`;
}

show(10, "Loading PyScript…");

addEventListener("py:progress", (event) => {
  const known = STAGES[event.detail];
  if (known) show(...known);
});

const script = document.querySelector('script[type="py"]');
script.addEventListener("py:ready", () => show(95, "Dealing the cards…"), { once: true });

addEventListener("error", (event) => {
  if (document.documentElement.dataset.app === "loading") fail(event.message || "Error");
});
addEventListener("unhandledrejection", (event) => {
  if (document.documentElement.dataset.app === "loading") fail(String(event.reason));
});
