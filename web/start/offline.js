// Offline support on the page side: registers the service worker, says "Ready to play
// offline" once its first install has cached everything, and, when a new version
// has installed in the background, shows a small "Update ready — Reload" notice. It never
// reloads by itself: only the player's click does, and the game in progress is autosaved
// after every action, so it is there again after the reload.
//
// Plain JavaScript that runs before Python, so even a version whose Python fails to start
// can still receive the update that fixes it.

const sw = navigator.serviceWorker;

function showUpdate(worker) {
  if (document.querySelector('[data-notice="update"]')) return;
  const box = document.createElement("div");
  box.className = "update-notice";
  box.dataset.notice = "update";
  box.setAttribute("role", "status");
  const text = document.createElement("span");
  text.textContent = "Update ready";
  const button = document.createElement("button");
  button.type = "button";
  button.dataset.action = "update-reload";
  button.textContent = "Reload";
  button.addEventListener("click", () => {
    button.disabled = true;
    // The page reloads when the new worker takes control (controllerchange below).
    wanted = true;
    worker.postMessage({ type: "skip-waiting" });
  });
  box.append(text, " — ", button);
  document.body.append(box);
  document.body.classList.add("with-notice");
}

let wanted = false;

// The first install has finished: every file is cached, so the app starts with no
// network from now on. Said once (a later install is an update, said as such above).
function showOfflineReady() {
  if (document.querySelector('[data-notice="offline-ready"]')) return;
  const box = document.createElement("div");
  box.className = "update-notice";
  box.dataset.notice = "offline-ready";
  box.setAttribute("role", "status");
  box.textContent = "Ready to play offline";
  document.body.append(box);
  document.body.classList.add("with-notice");
  setTimeout(() => {
    box.remove();
    document.body.classList.toggle("with-notice", !!document.querySelector(".update-notice"));
  }, 6000);
}

function watch(registration) {
  if (!registration) return; // service workers blocked (some browser settings, tests)
  if (registration.waiting && sw.controller) showUpdate(registration.waiting);
  // The page was not served by a worker when it registered: a first install.
  const controlled = !!sw.controller;
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    if (!worker) return;
    worker.addEventListener("statechange", () => {
      // With no controller this is the first install: nothing to update, but the app
      // now works offline.
      if (worker.state === "installed" && sw.controller) showUpdate(worker);
      if (worker.state === "activated" && !controlled) showOfflineReady();
    });
  });
  // An installed app can stay open for days: look for a new version when it comes back.
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
}

function register() {
  sw.register("./service-worker.js").then(watch, (error) => {
    console.warn("Pocket Patience: offline mode unavailable:", error);
  });
}

if (sw) {
  let refreshing = false;
  sw.addEventListener("controllerchange", () => {
    if (wanted && !refreshing) {
      refreshing = true;
      location.reload();
    }
  });
  // Register once the table is up (or failed), so that on a first visit the precache
  // downloads do not compete with the page's own; later visits are served by the worker.
  const root = document.documentElement;
  if (root.dataset.app && root.dataset.app !== "loading") {
    register();
  } else {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      observer.disconnect();
      register();
    };
    const observer = new MutationObserver(() => {
      if (root.dataset.app !== "loading") once();
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
    setTimeout(once, 60000); // a start that hangs (not one that fails) still gets updates
  }
}
