// Everything around the table: toolbar, status bar, live region, menu and dialogs.
// Text from outside (links, storage) only ever goes in through textContent.

function formatTime(ms) {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

import { DailyFinder } from "./daily-find.js";
import { pace } from "./motion.js";
import { download, localDay, openStats, shareDeal } from "./scores-view.js";

const $ = (sel, root = document) => root.querySelector(sel);

// The settings shown as checkboxes (#set-<name>), the ones chosen among radio buttons
// (name="<name>"), and the class each on/off one puts on <html> for the styles and the
// layout to follow (web/storage.py has their defaults and checks).
const FLAGS = ["four_colour", "large_print", "dark", "left_handed", "autofinish", "auto_move"];
const CHOICES = ["speed", "tap"];
const HTML_CLASSES = { four_colour: "four-colour", large_print: "large-print", dark: "dark",
  left_handed: "left-handed" };

// Put the settings on <html>: classes for the look, data-speed for the motion.
export function applySettings(settings) {
  const root = document.documentElement;
  for (const [flag, cls] of Object.entries(HTML_CLASSES)) root.classList.toggle(cls, !!settings[flag]);
  root.dataset.speed = settings.speed || "normal";
  // The browser's own bar (a phone's status bar, an installed app's title bar) goes dark
  // with the table: the colour of the dark header.
  // (Its colour is read from the style only when the table turns dark: reading it brings
  // the page's style up to date at once, and settings come with every new deal.)
  const meta = document.querySelector('meta[name="theme-color"]');
  if (meta && !!settings.dark !== (meta.dataset.dark === "1")) {
    meta.dataset.light ??= meta.content;
    const bar = settings.dark ? getComputedStyle(root).getPropertyValue("--felt-dark").trim() : "";
    meta.content = settings.dark && bar ? bar : meta.dataset.light;
    meta.dataset.dark = settings.dark && bar ? "1" : "0";
  }
}

// The address bar shows the deal in play (and the date of a daily deal), to copy or
// bookmark; a reload resumes the autosave of that deal rather than dealing it again
// (web/controller.py start).
function showDeal(variant, seed, daily = "") {
  const want = `?game=${encodeURIComponent(variant)}&deal=${seed}` + (daily ? `&daily=${daily}` : "");
  if (location.search !== want) history.replaceState(null, "", location.pathname + want);
}

export class Ui {
  constructor(handlers) {
    this.h = handlers;
    this.finder = new DailyFinder((kind, data) => handlers.ask(kind, data));
    this.clock = { ms: 0, running: false, at: 0 };
    this.status = "playing";
    this.endShownFor = "";
    this.toastTimer = 0;
    this.els = {
      title: $("#game-title"),
      moves: $("#st-moves"),
      time: $("#st-time"),
      progress: $("#st-progress"),
      extra: $("#st-extra"),
      announce: $("#announce"),
      toast: $("#toast"),
      menu: $("#menu"),
      variants: $("#menu-variants"),
      deal: $("#menu-deal"),
      confirm: $("#confirm"),
      end: $("#end"),
      info: $("#info"),
      settings: $("#settings"),
      lost: $("#lost"),
      verdict: $("#st-verdict"),
      verdictLive: $("#verdict-live"),
      rewind: $("#lost-rewind"),
      rewindBack: $("#lost-rewind-back"),
      winnable: $("#menu-winnable"),
      level: $("#menu-level"),
      winnableNote: $("#menu-winnable-note"),
    };
    // The result box is not modal (the toolbar stays usable): Escape closes it all the same.
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.els.end.open) this.closeEnd(true);
    });
    this.settings = {};
    this.notices = []; // messages waiting for the info dialog, shown one after another
    this.titles = {};
    this.winnableCounts = {};
    this.levelCounts = {};
    this.countsKnown = false;
    addEventListener("pp:solver", () => this.els.menu.open && this.askCounts());
    addEventListener("pp:solver-failed", () => this.els.menu.open && this.showWinnable());
    this.canUndo = false;
    this.playing = true;
    this.verdictSaid = ""; // the verdict last announced (an unchanged one is not repeated)
    document.addEventListener("click", (e) => this.onClick(e));
    this.els.info.addEventListener("close", () => this.nextNotice());
    this.els.confirm.addEventListener("close", () => {
      const otherwise = this.onDecline;
      this.onConfirm = this.onDecline = null;
      if (otherwise) otherwise();
      this.nextNotice();
    });
    this.els.menu.addEventListener("submit", (e) => e.preventDefault());
    for (const flag of FLAGS) {
      $(`#set-${flag}`).addEventListener("change", (e) => this.h.settings({ [flag]: e.target.checked }));
    }
    for (const name of CHOICES) {
      for (const r of document.querySelectorAll(`#settings input[name="${name}"]`)) {
        r.addEventListener("change", (e) => this.h.settings({ [name]: e.target.value }));
      }
    }
    this.els.settings.addEventListener("submit", (e) => e.preventDefault());
    // Back to the button that opened it (a screen reader's place is not lost).
    this.els.settings.addEventListener("close", () => this.settingsOpener?.focus());
    // "Winnable deals only" is per game: it follows the game chosen in the menu.
    this.els.variants.addEventListener("change", () => this.showWinnable());
    this.els.winnable.addEventListener("change", (e) => {
      const variant = this.menuVariant();
      if (variant) this.h.settings({ winnable: { [variant]: e.target.checked } });
    });
    // The difficulty of new deals, per game too (a level draws from the rated winnable deals).
    this.els.level.addEventListener("change", (e) => {
      const variant = this.menuVariant();
      if (variant) this.h.settings({ level: { [variant]: e.target.value || null } });
    });
    setInterval(() => this.tick(), 1000);
  }

  busy() {
    return !!document.querySelector("dialog[open]:modal");
  }

  onClick(e) {
    const el = e.target.closest("[data-action], [data-menu]");
    if (!el || el.disabled) return;
    const action = el.dataset.action || el.dataset.menu;
    switch (action) {
      case "new":
        this.openMenu();
        break;
      case "undo":
        this.closeEnd();
        this.setUnwinnable(false);
        this.h.undo();
        break;
      case "redo":
      case "hint":
      case "finish":
        this.h[action]();
        break;
      case "rewind":
        this.closeEnd();
        this.h.rewind();
        break;
      case "restart":
        this.els.menu.close();
        if (!this.canUndo && !this.canRedo) { // nothing played yet: nothing to lose
          this.h.restart();
          break;
        }
        this.confirm("Restart this deal?",
          "The cards go back to the start of this deal and your moves in it are lost." +
          (this.inProgress ? " This game counts as a loss in the statistics." : ""),
          "Restart", () => {
            this.closeEnd();
            this.h.restart();
          });
        break;
      case "confirm-yes": {
        const then = this.onConfirm;
        this.onConfirm = this.onDecline = null;
        this.els.confirm.close();
        if (then) then();
        break;
      }
      case "cancel":
        el.closest("dialog")?.close();
        break;
      case "deal":
        this.dealFromMenu();
        break;
      case "daily":
        this.dailyDeal();
        break;
      case "end-new":
        this.openMenu();
        break;
      case "end-close": // look at the table as it ended (Undo stays in the toolbar)
        this.closeEnd(true);
        break;
      case "end-next": // a won game is counted: nothing to confirm
        this.closeEnd();
        this.h.newGame(this.variant, null);
        break;
      case "end-again":
        this.closeEnd();
        this.h.restart();
        break;
      case "end-share":
        shareDeal({ say: (text) => this.say(text, true), showLink: (...box) => this.info(...box),
          result: true });
        break;
      case "damaged-download": {
        const { text, filename } = this.h.ask("damaged_export", { now: new Date().toISOString() });
        download(text, filename);
        this.say(`Saved as ${filename}.`);
        break;
      }
      case "damaged-clear":
        this.els.info.close();
        this.confirm("Delete the damaged data?",
          "The saved data that could not be read will be deleted. This cannot be undone.",
          "Delete", () => this.say(this.h.ask("damaged_clear").message, true));
        break;
      case "share":
        shareDeal({ say: (text) => this.say(text, true), showLink: (...box) => this.info(...box) });
        break;
      case "stats":
        openStats();
        break;
      case "settings":
        this.openSettings(el);
        break;
      case "copy-link":
        navigator.clipboard?.writeText($("#info-link").value).then(
          () => this.say("Link copied."),
          () => this.say("Select the link and copy it."),
        );
        break;
      default:
        return;
    }
  }

  // -- menu ---------------------------------------------------------------------------

  setVariants(list, current) {
    const box = this.els.variants;
    // The same list as before (every new deal sends it): only the choice changes.
    const key = JSON.stringify(list);
    if (key === this.variantsKey && box.children.length === list.length) {
      for (const input of box.querySelectorAll("input")) input.checked = input.value === current;
      return;
    }
    this.variantsKey = key;
    box.replaceChildren();
    for (const [id, title] of list) {
      this.titles[id] = title;
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "radio";
      input.name = "variant";
      input.value = id;
      input.checked = id === current;
      label.append(input, " ", title);
      box.append(label);
    }
  }

  setSettings(settings, winnableCounts) {
    this.settings = settings;
    if (winnableCounts) this.winnableCounts = winnableCounts;
    this.showWinnable();
    for (const flag of FLAGS) $(`#set-${flag}`).checked = !!settings[flag];
    for (const name of CHOICES) {
      for (const r of document.querySelectorAll(`#settings input[name="${name}"]`)) {
        r.checked = r.value === settings[name];
      }
    }
    applySettings(settings);
  }

  openSettings(opener) {
    this.settingsOpener = opener;
    this.els.settings.showModal();
  }

  // The winnable lists' sizes come with a settings answer once the solver's worker has
  // sent them (web/forward.py); the first table has none. Asked as the menu opens, and
  // again whenever the worker speaks while the menu is open, until they came.
  askCounts() {
    if (this.countsKnown) return;
    const answer = this.h.ask("settings", {});
    if (answer?.level_counts) {
      this.countsKnown = true;
      this.levelCounts = answer.level_counts;
      this.showWinnable();
    }
  }

  openMenu() {
    this.askCounts();
    const current = this.variant;
    for (const r of this.els.variants.querySelectorAll("input")) r.checked = r.value === current;
    this.els.deal.value = "";
    $("#menu-error").textContent = "";
    this.showWinnable();
    this.els.menu.showModal();
  }

  menuVariant() {
    return this.els.variants.querySelector("input:checked")?.value || this.variant;
  }

  // The "Winnable deals only" box for the game chosen in the menu: off and greyed out,
  // with the reason, for a game that has no list of proven-winnable deals.
  showWinnable() {
    const variant = this.menuVariant();
    if (!variant) return;
    const count = this.winnableCounts[variant] || 0;
    const title = this.titles[variant] || variant;
    const box = this.els.winnable;
    box.disabled = !count;
    box.checked = !!count && (this.settings.winnable || []).includes(variant);
    const levels = this.levelCounts[variant] || {};
    const rated = Object.values(levels).reduce((a, b) => a + b, 0);
    const level = this.els.level;
    level.disabled = !box.checked || !rated;
    level.value = (!level.disabled && (this.settings.level || {})[variant]) || "";
    const ratedText = !count ? "" : rated
      ? ` Their difficulty, from how long the solver searched to win them, is rated for ` +
        `${rated.toLocaleString("en")} of them: a third each Easy, Medium and Hard.`
      : ` No difficulty ratings are included for ${title} yet.`;
    const note = count
      ? `New deals of ${title} are drawn from ${count.toLocaleString("en")} deal numbers ` +
        "the solver has proved winnable (a deal number typed below is dealt as it is)." +
        ratedText
      : !this.countsKnown && window.ppSolver?.failed
        ? `Not available for ${title}: the solver could not start on this device ` +
          "(reloading the page tries again)."
      : !this.countsKnown
        ? `Not available for ${title} until the solver has started (in a moment).`
        : `Not available for ${title}: no deals proved winnable by the solver are ` +
          "included for it yet.";
    // (Written only when it changes: settings come with every new deal, and each write of
    // the text is a change of the document for the next frame to style.)
    if (this.els.winnableNote.textContent !== note) this.els.winnableNote.textContent = note;
  }

  // Today's daily deal of the game chosen in the menu (the page's local date). It is
  // found on the device first (web/table/daily-find.js): meanwhile the menu stays open and
  // its Daily button says so; closing the menu lets the search finish unseen.
  dailyDeal() {
    const variant = this.els.menu.open ? this.menuVariant() : this.variant;
    const date = localDay();
    const button = this.els.menu.querySelector('[data-action="daily"]');
    const finding = (on) => {
      button.textContent = on ? "Finding today\u2019s deal\u2026" : "Daily deal";
      button.setAttribute("aria-busy", String(on));
      button.classList.toggle("finding", on);
    };
    const deal = () => {
      this.closeEnd();
      this.h.ask("daily", { variant, date });
    };
    const found = (answer) => {
      finding(false);
      if (!answer) return this.say("The daily deal could not be found.", true);
      if (!this.els.menu.open) return; // the player went elsewhere meanwhile
      this.els.menu.close();
      if (this.inProgress) {
        this.confirm("Leave this game?", "The game you are playing counts as a loss in the statistics.",
          "Daily deal", deal);
      } else {
        deal();
      }
    };
    finding(true);
    this.say("Finding today\u2019s deal\u2026");
    this.finder.find(variant, date, { done: found });
  }

  // A link named a daily deal not yet known here: check it after the table is up.
  checkDaily(check) {
    if (!check || this.finder.busy) return;
    this.finder.find(check.variant, check.date, { background: true });
  }

  dealFromMenu() {
    const chosen = this.els.variants.querySelector("input:checked");
    const text = this.els.deal.value.trim();
    let seed = null;
    if (text) {
      const [low, high] = this.dealRange;
      if (!/^[0-9]+$/.test(text) || Number(text) < low || Number(text) > high) {
        $("#menu-error").textContent = `A deal number is a whole number from ${low} to ${high}.`;
        return;
      }
      seed = Number(text);
    }
    this.els.menu.close();
    const deal = () => {
      this.closeEnd();
      this.h.newGame(chosen ? chosen.value : this.variant, seed);
    };
    if (this.inProgress) {
      this.confirm("Leave this game?", "The game you are playing counts as a loss in the statistics.",
        "New game", deal);
    } else {
      deal();
    }
  }

  // Ask a yes/no question: `then` runs on yes, `otherwise` (if given) on any other close.
  confirm(title, text, yes, then, otherwise = null) {
    $("#confirm-title").textContent = title;
    $("#confirm-text").textContent = text;
    $("#confirm-yes").textContent = yes;
    this.onConfirm = then;
    this.onDecline = otherwise;
    this.els.confirm.showModal();
  }

  // -- dialogs --------------------------------------------------------------------------

  info(title, text, link = "", damaged = false) {
    $("#info-title").textContent = title;
    $("#info-text").textContent = text;
    const linkBox = $("#info-linkbox");
    linkBox.hidden = !link;
    $("#info-link").value = link;
    $("#info-damaged").hidden = !damaged;
    if (!this.els.info.open) this.els.info.showModal();
    if (link) $("#info-link").select();
  }

  // Notices (a bad link, damaged saved data, storage that will not save) each get the
  // info dialog in turn: none replaces another.
  notify(notices) {
    this.notices.push(...notices);
    this.nextNotice();
  }

  nextNotice() {
    if (this.els.info.open || this.els.confirm.open) return;
    const next = this.notices.shift();
    if (next) this.info(next.title, next.text, "", !!next.damaged);
  }

  // ``refocus``: the player closed it (button or Escape): focus goes back to the table.
  closeEnd(refocus = false) {
    if (!this.els.end.open) return;
    this.els.end.close();
    if (refocus) document.querySelector('#table [data-pile][tabindex="0"]')?.focus();
  }

  showEnd(payload) {
    const key = `${payload.variant}:${payload.seed}:${payload.move_count}:${payload.status}`;
    if (this.endShownFor === key) return;
    this.endShownFor = key;
    const won = payload.status === "won";
    this.els.end.dataset.result = won ? "won" : "lost";
    $("#end-title").textContent = won ? "You won!" : "No moves left";
    $("#end-text").textContent = won
      ? `${payload.move_count} ${payload.move_count === 1 ? "move" : "moves"} in ` +
        `${formatTime(payload.elapsed_ms)}.`
      : "There is no move left to play. Undo to try another way, or start a new game.";
    $("#end-record").textContent = won ? recordText(payload) : "";
    $("#end-undo").hidden = won;
    if (!this.els.end.open) this.els.end.show();
    this.h.placeEnd(this.els.end); // over no pile, where the table has room
    if (won) celebrate($("#end-burst"));
  }

  // -- status ---------------------------------------------------------------------------

  // The address bar for a render (the table calls it before it changes, or once a new
  // deal's cards have landed): the browser lays the page out for a same-document
  // navigation, which on a table just changed would be a whole restyle and layout inside
  // the player's intent instead of in the next frame.
  address(payload) {
    if (!payload.link) showDeal(payload.variant, payload.seed, payload.daily || "");
  }

  render(payload) {
    if (payload.deal_range) this.dealRange = payload.deal_range;
    this.variant = payload.variant;
    this.seed = payload.seed;
    const e = this.els;
    if (e.title.dataset.title !== payload.title) {
      // "Relaxed Spider · 4 suits": the name and its detail on lines of their own on a
      // phone, so a long name never hides the suit count.
      e.title.dataset.title = payload.title;
      const [name, ...detail] = payload.title.split(" · ");
      const part = (cls, text) => Object.assign(document.createElement("span"),
        { className: cls, textContent: text });
      e.title.replaceChildren(part("t-name", name));
      if (detail.length) e.title.append(part("t-sep", " · "), part("t-detail", detail.join(" · ")));
      document.title = `${payload.title} · Pocket Patience`;
    }
    e.moves.textContent = `Moves ${payload.move_count}`;
    e.progress.textContent = payload.progress;
    e.extra.replaceChildren(...extraParts(payload));
    this.daily = payload.daily || "";
    this.clock = { ms: payload.elapsed_ms, running: payload.clock_running, at: performance.now() };
    this.tick();
    for (const [action, ok] of [["undo", payload.can_undo], ["redo", payload.can_redo]]) {
      for (const b of document.querySelectorAll(`[data-action="${action}"]`)) b.disabled = !ok;
    }
    this.offerFinish(payload);
    // Refusals, hints and "changed in another tab" are shown as well as spoken.
    const shown = ["illegal", "sync", "hint"].includes(payload.event) || payload.hint_words;
    if (payload.announce) this.say(payload.announce, !!shown);
    this.shown = payload;
    if (payload.status === "playing") {
      this.endShownFor = "";
      this.closeEnd();
    } else {
      // Once the cards have landed: a finish's cascade is seen, not covered.
      this.h.settled(() => this.shown === payload && this.showEnd(payload));
    }
    this.inProgress = !!payload.in_progress;
    this.canUndo = !!payload.can_undo;
    this.canRedo = !!payload.can_redo;
    this.moveCount = payload.move_count;
    this.playing = payload.status === "playing";
    this.setVerdict(payload);
    this.checkDaily(payload.daily_check);
    if (payload.link) {
      // The link stays in the address bar until answered, so a reload asks again.
      const { variant, deal, daily, title } = payload.link;
      this.confirm("Open the shared deal?",
        `${title}, ${daily ? `the daily deal of ${daily}` : `deal ${deal}`}. ` +
        "The game you are playing now counts as a loss in the statistics.",
        "Open it", () => this.h.ask("new", { variant, seed: deal, daily }),
        () => showDeal(this.variant, this.seed, this.daily));
    } // (else the table sets the address: see address)
    if (payload.notices) this.notify(payload.notices);
  }

  // The Finish button while the rules say every card can go home by itself; with the
  // setting on, the game finishes itself after a move of the player's (not after an
  // undo, which would take the finish straight back).
  offerFinish(payload) {
    for (const b of document.querySelectorAll('[data-action="finish"]')) {
      b.hidden = !payload.can_finish;
      b.closest(".bar")?.classList.toggle("with-finish", !!payload.can_finish);
    }
    clearTimeout(this.finishTimer);
    if (payload.can_finish && this.settings.autofinish && ["move", "redo"].includes(payload.event)) {
      this.finishTimer = setTimeout(() => this.h.finish(), 300);
    }
  }

  // The solver's verdict on the position in play, from a render or a watch slice (the
  // controller's "verdict", "unwinnable" and "rewind"): the words at the end of the status
  // bar, said (politely, in a live region of its own) only when a settled verdict differs
  // from the last one said, so "Winnable" is not repeated after every move that keeps it.
  setVerdict({ verdict, unwinnable, rewind, done }) {
    const settled = this.playing ? verdict || "" : "";
    const [text, short] = this.playing ? VERDICT_WORDS[verdict] || ["Thinking…"] : [""];
    const el = this.els.verdict;
    if (el.dataset.text !== text) { // a narrow status bar shows the short words, if any
      el.dataset.text = text;
      const words = (cls, t) => Object.assign(document.createElement("span"), { className: cls, textContent: t });
      el.replaceChildren(...(short ? [words("v-short", short)] : []), ...(text ? [words("v-long", text)] : []));
    }
    el.dataset.verdict = settled;
    document.documentElement.dataset.verdict = settled || (this.playing && !done ? "searching" : "");
    if (settled && text !== this.verdictSaid) this.els.verdictLive.textContent = text;
    if (settled || !this.playing) this.verdictSaid = text;
    this.setUnwinnable(!!unwinnable, rewind);
  }

  // "This game can no longer be won": only ever shown on the solver's proof (the
  // controller's "unwinnable"), hidden again by anything that changes the position; with
  // "Back to winnable" once the walk back found a position the solver wins (disabled
  // while it looks, gone when it found none).
  setUnwinnable(on, rewind = null) {
    const el = this.els.lost;
    if (on) {
      $("#lost-text").textContent = this.moveCount
        ? "This game can no longer be won." : "This deal cannot be won.";
      $("#lost-undo").hidden = !this.canUndo;
      const back = rewind?.back || 0;
      const button = this.els.rewind;
      button.hidden = !back && !rewind?.looking;
      button.disabled = !back;
      const words = `· ${back ? `${back} ${back === 1 ? "move" : "moves"} back` : "looking…"}`;
      if (this.els.rewindBack.textContent !== words) this.els.rewindBack.textContent = words;
    }
    if (el.hidden === !on) return;
    el.hidden = !on;
  }

  thinking(on) {
    for (const b of document.querySelectorAll('[data-action="hint"]')) {
      if (on) b.setAttribute("aria-busy", "true");
      else b.removeAttribute("aria-busy");
    }
  }

  tick() {
    const c = this.clock;
    const ms = c.ms + (c.running ? performance.now() - c.at : 0);
    const text = formatTime(ms);
    if (this.els.time.textContent !== text) this.els.time.textContent = text;
  }

  say(text, toast = false) {
    // Re-set the text so that a repeated message is announced again.
    const live = this.els.announce;
    live.textContent = live.textContent === text ? `${text}\u00a0` : text;
    if (toast && text) {
      const t = this.els.toast;
      t.textContent = text;
      t.hidden = false;
      clearTimeout(this.toastTimer);
      this.toastTimer = setTimeout(() => { t.hidden = true; }, 1800);
    }
  }
}

// "Best time 2:31 · Streak 3 (best 5)" for the end of a won game.
function recordText(payload) {
  const r = payload.result;
  if (!r) return "";
  const best = r.best_time_ms === payload.elapsed_ms ? "New best time!" : `Best time ${formatTime(r.best_time_ms)}`;
  const parts = [best, `Streak ${r.streak} (best ${r.best_streak})`, `Won ${r.won} of ${r.played}`];
  if (r.daily_streak !== undefined) parts.push(`Daily streak ${r.daily_streak}`);
  return parts.map((part) => part.replaceAll(" ", "\u00a0")).join(" · "); // parts never break
}

// A short burst of colour behind the result; none for players who ask for less motion.
// Its 28 bits lie in two rings, and each ring is one Web Animation (scaled out from the
// middle, turned, faded), every value worked out here: the compositor runs them, and the
// page restyles two elements a frame (each animated element is restyled in every frame of
// its motion), not 28.
function celebrate(box) {
  box.replaceChildren();
  if (!pace()) return; // reduced motion, or the speed setting off
  const count = 28;
  for (let r = 0; r < 2; r++) {
    const ring = document.createElement("span");
    ring.className = "ring";
    for (let i = r; i < count; i += 2) {
      const bit = document.createElement("i");
      bit.style.background = `hsl(${(i * 47) % 360} 80% 55%)`;
      bit.style.transform = `rotate(${(i * 360) / count}deg) translateY(${-(80 + (i * 37) % 90)}px)`
        + ` rotate(${(i * 67) % 180}deg)`;
      ring.append(bit);
    }
    box.append(ring);
    const turn = r ? -50 : 50;
    ring.animate([
      { opacity: 1, transform: "scale(.08) rotate(0deg)" },
      { opacity: 1, offset: 0.55 },
      { opacity: 0, transform: `scale(1) rotate(${turn}deg)` },
    ], { duration: 1100 + 160 * r, easing: "cubic-bezier(.2,.7,.3,1)", fill: "forwards" });
  }
}

// The verdict's words in the status bar (and a shorter form for a narrow one).
const VERDICT_WORDS = {
  won: ["Winnable"],
  lost: ["Can't be won from here", "Can't be won"],
  unknown: ["Not sure yet"],
};

// The daily's date and the game's counters. On a narrow status bar the counters of Spider
// and Doublets give way (the stock shows them) and the date takes its short form, so the
// daily is still named there.
function extraParts(payload) {
  const info = payload.info || {};
  const span = (cls, text) => Object.assign(document.createElement("span"),
    { className: cls, textContent: text });
  const counts = [];
  if (info.deals_left !== undefined) counts.push(`Deals left ${info.deals_left}`);
  if (info.needs !== undefined) counts.push(`Needs ${info.needs === "T" ? "10" : info.needs}`);
  if (info.redeals_left !== undefined) counts.push(`Redeals left ${info.redeals_left}`);
  const parts = [];
  if (payload.daily) {
    const day = new Date(`${payload.daily}T12:00`);
    const short = day.toLocaleDateString(undefined, { month: "short", day: "numeric" });
    const daily = span("x-daily", "Daily ");
    daily.append(span("x-long", payload.daily), span("x-short", short));
    parts.push(daily);
  }
  if (counts.length) {
    if (parts.length) parts.push(span("x-sep", " \u00b7 "));
    parts.push(span("x-counts", counts.join(" \u00b7 ")));
  }
  return parts;
}

export { formatTime };
