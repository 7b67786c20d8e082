// The page side of statistics, sharing and "leave this game?" questions.
//
// Python decides (web/scores.py: counts, checks, builds links and the chart); this
// module only shows the answers and asks the player. It talks to Python through
// window.ppTable.act(kind, data), the table's one way into Python. Every text goes in with
// textContent; the one piece of markup, the chart, is an SVG that Python built from
// validated numbers.

const ask = (kind, data = {}) => window.ppTable.act(kind, data);

// The page's local date as YYYY-MM-DD: the daily deal and its streak go by the player's
// own calendar, not by UTC.
export function localDay(now = new Date()) {
  const two = (n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "data") Object.assign(node.dataset, value);
    else if (key in node) node[key] = value;
    else node.setAttribute(key, value);
  }
  node.append(...children);
  return node;
}

// -- asking before leaving a game ------------------------------------------------------

let leaveDialog = null;

// Resolves true when the player agrees. `text` says what will happen.
export function confirmLeave(title, text, yes = "Leave this game") {
  if (!leaveDialog) {
    leaveDialog = el("dialog", { id: "leave", "aria-labelledby": "leave-title" },
      el("h2", { id: "leave-title" }),
      el("p", { id: "leave-text" }),
      el("div", { className: "buttons" },
        el("button", { type: "button", className: "primary", data: { view: "leave-yes" } }),
        el("button", { type: "button", data: { view: "leave-no" } }, "Keep playing")));
    document.body.append(leaveDialog);
  }
  leaveDialog.querySelector("#leave-title").textContent = title;
  leaveDialog.querySelector("#leave-text").textContent = text;
  leaveDialog.querySelector('[data-view="leave-yes"]').textContent = yes;
  return new Promise((resolve) => {
    const done = (answer) => {
      leaveDialog.removeEventListener("click", onClick);
      leaveDialog.removeEventListener("cancel", onCancel);
      if (leaveDialog.open) leaveDialog.close();
      resolve(answer);
    };
    const onClick = (event) => {
      const which = event.target.closest("[data-view]")?.dataset.view;
      if (which === "leave-yes") done(true);
      else if (which === "leave-no") done(false);
    };
    const onCancel = () => done(false);
    leaveDialog.addEventListener("click", onClick);
    leaveDialog.addEventListener("cancel", onCancel);
    leaveDialog.showModal();
  });
}

export const LOSS_TEXT = "The game in progress has moves in it: leaving it counts as a loss "
  + "in your statistics.";

// -- sharing --------------------------------------------------------------------------

// Shares the deal on the table: the device's share sheet, else the clipboard, else the
// link shown to copy. `say(text)` tells the player which; `showLink(title, text, url)`
// opens the dialog with the link. Returns what happened: "shared", "cancelled", "copied"
// or "shown".
export async function shareDeal({ say, showLink, result = false }) {
  const { url, title, text } = ask("share", { page: location.href, result });
  if (navigator.share) {
    try {
      await navigator.share({ title, text, url });
      say("Share sheet opened: the link is on its way.");
      return "shared";
    } catch (error) {
      if (error && error.name === "AbortError") {
        say("Sharing cancelled.");
        return "cancelled";
      }
      // Not allowed here (no user gesture, unsupported data): fall through to the clipboard.
    }
  }
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await navigator.clipboard.writeText(url);
      say("Link copied to the clipboard.");
      return "copied";
    } catch {
      // Clipboard refused: show the link instead.
    }
  }
  showLink("Share this deal", "Copy this link: anyone who opens it gets the same deal.", url);
  say("Here is the link to copy.");
  return "shown";
}

// -- the statistics view ----------------------------------------------------------------

let statsDialog = null;

function statsView() {
  if (statsDialog) return statsDialog;
  const fileInput = el("input", { type: "file", accept: ".json,application/json", hidden: true,
    data: { view: "stats-file" } });
  statsDialog = el("dialog", { id: "stats", "aria-labelledby": "stats-title" },
    el("h2", { id: "stats-title" }, "Statistics"),
    el("label", { className: "stats-variant" }, "Game ",
      el("select", { id: "stats-variant", data: { view: "stats-variant" } })),
    el("table", { id: "stats-table", className: "stats-table" }),
    el("figure", { id: "stats-chart", className: "stats-chart" }),
    el("p", { id: "stats-message", role: "status", className: "stats-message" }),
    el("p", { id: "stats-damaged", className: "stats-message", hidden: true },
      el("span", { id: "stats-damaged-text" }), " ",
      el("button", { type: "button", data: { view: "damaged-download" } }, "Download"), " ",
      el("button", { type: "button", data: { view: "damaged-clear" } }, "Delete")),
    el("div", { className: "buttons" },
      el("button", { type: "button", data: { view: "stats-export" } }, "Export"),
      el("button", { type: "button", data: { view: "stats-import" } }, "Import…"),
      el("button", { type: "button", data: { view: "stats-reset" } }, "Reset this game"),
      el("button", { type: "button", data: { view: "stats-reset-all" } }, "Reset all"),
      el("button", { type: "button", className: "primary", data: { view: "stats-close" } },
        "Close")),
    fileInput);
  statsDialog.addEventListener("click", onStatsClick);
  statsDialog.querySelector("#stats-variant").addEventListener("change", (event) => {
    showStats(ask("stats", { variant: event.target.value, today: localDay() }));
  });
  fileInput.addEventListener("change", importFile);
  document.body.append(statsDialog);
  return statsDialog;
}

function showStats(answer, message = "") {
  const view = statsView();
  view.dataset.variant = answer.variant;
  const select = view.querySelector("#stats-variant");
  if (select.options.length !== answer.variants.length) {
    select.replaceChildren(...answer.variants.map(([id, title]) => el("option", { value: id },
      title)));
  }
  select.value = answer.variant;
  view.querySelector("#stats-table").replaceChildren(...answer.rows.map(([label, value]) =>
    el("tr", { data: { stat: label } }, el("th", { scope: "row" }, label), el("td", {}, value))));
  // The chart is markup that Python built from numbers only (web/stats.py chart_svg).
  const chart = view.querySelector("#stats-chart");
  chart.innerHTML = answer.chart;
  // The chart's title (how many games, won and lost) in words under it, for everyone,
  // unless the chart already shows those words (no games yet: said once, not twice).
  const caption = chart.querySelector("title")?.textContent || "";
  const shown = [...chart.querySelectorAll("svg > text")].some((t) => t.textContent === caption);
  if (!shown) chart.append(el("figcaption", {}, caption));
  const note = answer.saving ? "" : " This browser does not let the game save statistics.";
  view.querySelector("#stats-message").textContent = (message || answer.message || "") + note;
  // Saved data that could not be read is kept aside until the player deletes it.
  view.querySelector("#stats-damaged").hidden = !answer.damaged;
  view.querySelector("#stats-damaged-text").textContent = answer.damaged
    ? `${answer.damaged} damaged saved value${answer.damaged === 1 ? " is" : "s are"} kept aside.`
    : "";
}

export function openStats(variant) {
  const view = statsView();
  showStats(ask("stats", variant ? { variant, today: localDay() } : { today: localDay() }));
  if (!view.open) view.showModal();
}

async function onStatsClick(event) {
  const which = event.target.closest("[data-view]")?.dataset.view;
  const variant = statsDialog.dataset.variant;
  const title = statsDialog.querySelector("#stats-variant").selectedOptions[0]?.textContent;
  switch (which) {
    case "stats-close":
      statsDialog.close();
      break;
    case "stats-export": {
      const { text, filename } = ask("stats_export", { now: new Date().toISOString() });
      download(text, filename);
      showStats(ask("stats", { variant, today: localDay() }), `Exported to ${filename}.`);
      break;
    }
    case "damaged-download": {
      const { text, filename } = ask("damaged_export", { now: new Date().toISOString() });
      download(text, filename);
      showStats(ask("stats", { variant, today: localDay() }), `Saved as ${filename}.`);
      break;
    }
    case "damaged-clear":
      if (await confirmLeave("Delete the damaged data?",
        "The saved data that could not be read will be deleted. This cannot be undone.",
        "Delete")) {
        const { message } = ask("damaged_clear");
        showStats(ask("stats", { variant, today: localDay() }), message);
      }
      if (!statsDialog.open) statsDialog.showModal();
      break;
    case "stats-import":
      statsDialog.querySelector('[data-view="stats-file"]').click();
      break;
    case "stats-reset":
      if (await confirmLeave("Reset statistics?",
        `The statistics of ${title} will be set back to zero. This cannot be undone.`,
        "Reset")) {
        showStats(ask("stats_reset", { variant, today: localDay() }));
      }
      if (!statsDialog.open) statsDialog.showModal();
      break;
    case "stats-reset-all":
      if (await confirmLeave("Reset all statistics?",
        "The statistics of every game will be set back to zero. This cannot be undone.",
        "Reset all")) {
        showStats(ask("stats_reset", { variant, everything: true, today: localDay() }));
      }
      if (!statsDialog.open) statsDialog.showModal();
      break;
    default:
  }
}

async function importFile(event) {
  const input = event.target;
  const file = input.files && input.files[0];
  input.value = "";
  if (!file) return;
  const variant = statsDialog.dataset.variant;
  if (file.size > 1_000_000) {
    showStats(ask("stats", { variant, today: localDay() }), "Nothing was imported: the file is too large.");
    return;
  }
  const text = await file.text();
  const agreed = await confirmLeave("Import statistics?",
    `The statistics in “${file.name}” will replace the ones kept here, if the file is valid.`,
    "Import");
  if (!statsDialog.open) statsDialog.showModal();
  if (agreed) showStats(ask("stats_import", { text, variant, today: localDay() }));
}

// Offer `text` to the player as a file called `filename` (statistics, damaged data).
export function download(text, filename) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = el("a", { href: url, download: filename, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}
