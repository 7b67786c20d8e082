// Loading screen: turns MicroPython's start-up events into text stages and a progress bar.
// It runs before web/start/micropython-loader.mjs (module scripts run in document order),
// so no event is missed.
// web/main.py sets <html data-app="ready"> when the table is interactive, which hides
// the loading screen through CSS.

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
  document.documentElement.dataset.app = "error";
  bar.removeAttribute("value");
  stage.textContent = `Pocket Patience could not start.\n${message}`;
}

show(10, "Loading Python…");

addEventListener("pp:progress", (event) => {
  const known = STAGES[event.detail];
  if (known) show(...known);
});

addEventListener("error", (event) => {
  if (document.documentElement.dataset.app === "loading") fail(event.message || "Error");
});
addEventListener("unhandledrejection", (event) => {
  if (document.documentElement.dataset.app === "loading") fail(String(event.reason));
});
