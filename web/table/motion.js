// Motion on the card table: cards fly from where they were to where they are, turn over,
// deal out and go home in a cascade; a hint lifts its cards and slides a ghost of them to
// where they would land.
//
// The DOM's logical state (the pile that holds a card, its face, its resting transform)
// changes at once; the motion is only Web Animations of transform and opacity, which the
// compositor can run while the main thread works, and nothing here reads layout: every
// position is a number from the layout. New input never waits: a pointer pressed or a key
// finishes whatever is flying (the finish's cascade is skipped), and a move made meanwhile
// lands the cards of the one before at once (the board finishes them first).
//
// How fast: <html data-speed="off" | "slow" | "normal" | "fast"> (the settings; missing
// means normal), and no motion at all when the player's system asks for reduced motion.

const REDUCED = window.matchMedia("(prefers-reduced-motion: reduce)");
// Whether the system asks for reduced motion, kept up to date by its change event: reading
// the query's `matches` may bring the page's style up to date first, inside the intent.
let reduced = REDUCED.matches;
REDUCED.addEventListener("change", (event) => { reduced = event.matches; });
const PACE = { off: 0, slow: 1.7, normal: 1, fast: 0.55 };
const EASE = "cubic-bezier(.2,.7,.3,1)";
// Milliseconds at normal speed.
const MS = {
  move: 190, // one card or group to its new pile
  turn: 240, // a card turning over in place
  many: 300, // each card of many leaving at once (a finish, its undo, a deal)
  lift: 140, // the hinted cards rising
  ghost: 560, // the hint's ghost sliding to the target
  rest: 1600, // the ghost resting at the target before it fades
  fade: 260,
};
// Many cards leave one after another: the whole cascade lasts about this long (the gap
// between two cards kept within GAP_MS).
const CASCADE_MS = { home: 1500, deal: 900 };
const GAP_MS = [12, 40];
// The cascade's cards leave in waves: the cards due within WAVE_MS of the first (at most
// WAVE_MAX) join their piles in one frame and fly with delays of their own, which the
// compositor runs; the cards landed since the wave before are put to rest (their marks
// taken off) in that frame too. The DOM changes in one frame of every few, and each such
// frame's fixed work (layout, paint, layers) is shared by several cards. (A slow frame
// stretches the cascade rather than doing the work of more cards at once.)
export const WAVE_MS = 100;
export const WAVE_MAX = 6;

/** The speed factor now: 0 for no motion, else a multiplier of the durations above. */
export function pace() {
  if (reduced) return 0;
  return PACE[document.documentElement.dataset.speed] ?? 1;
}

// Add and take off classes in one write, and none when nothing changes (classList writes
// the attribute, a mutation record, even then).
function classes(el, on, off) {
  const add = on.filter((c) => !el.classList.contains(c));
  const drop = off.filter((c) => el.classList.contains(c));
  if (add.length) el.classList.add(...add);
  if (drop.length) el.classList.remove(...drop);
}

const at = ([x, y], rest = "") => `translate(${x}px,${y}px)${rest}`;
const near = (a, b) => Math.abs(a[0] - b[0]) < 1 && Math.abs(a[1] - b[1]) < 1;

export class Motion {
  constructor(root) {
    this.root = root;
    this.running = new Set(); // animations that new input finishes at once
    this.queue = []; // cascade cards still to leave: [{f, due, opts}], due first
    this.frame = 0; // the animation frame that lets the next of them go
    this.landed = []; // the cascade's flights ended but not yet put to rest
    this.waiting = []; // work to do once nothing flies (see settled)
    this.hintAnims = []; // the hint's lift and ghost: cancelled (not finished) when it goes
    this.ghost = null;
    this.ghostTimer = 0;
    const skip = () => {
      this.finishAll();
      this.clearHint();
    };
    document.addEventListener("pointerdown", skip, true);
    document.addEventListener("keydown", skip, true);
    // A page put away lands its cards first: what it saves (the table's picture) is the
    // table as it is, not half a cascade. (On the document: before the window hears it.)
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "hidden") this.finishAll();
    });
  }

  get busy() {
    return this.running.size > 0 || this.queue.length > 0;
  }

  /** Run `fn` once no card is flying (now if none is): work that can wait (saving the
   * table's picture, the solver's look at the position) keeps off the frames of a motion. */
  settled(fn) {
    if (this.busy) this.waiting.push(fn);
    else fn();
  }

  /** Land every card in flight where it belongs, now (and do the work that waited). */
  finishAll() {
    cancelAnimationFrame(this.frame);
    this.frame = 0;
    const queue = this.queue;
    this.queue = [];
    this.landed = [];
    for (const { f } of queue) f.attach();
    for (const anim of [...this.running]) {
      anim.finish();
      this.land(anim);
    }
    this.release();
  }

  // The work that waited for the cards, once none flies.
  release() {
    if (this.busy || !this.waiting.length) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const fn of waiting) fn();
  }

  // -- cards that moved ------------------------------------------------------------------

  /** Whether cards bound for these piles (ids, one per card) go one after another. */
  cascades(piles) {
    return pace() > 0 && new Set(piles).size > 2;
  }

  /**
   * Fly cards to their new places: [{el, from, to, index, order, turn, attach}], positions
   * in the pixels of the card's own pile (`turn`: "up" or "down" when it changed face on
   * the way; `attach`: for a card still where it was, what puts it in its new pile).
   * Cards bound for more than two piles at once (a finish, its undo, a Spider deal from the
   * stock) go one after another, lowest in their piles first, so a finish reads as the
   * cards going home in order; a card that left later lies over one that left sooner (it
   * lands on it), and every card of the cascade over the cards at rest until it is put to
   * rest itself. A card with `attach` waits where it lies until its wave, then joins its
   * pile and waits there, drawn where it was, until its turn; the others wait at their
   * start. `src`: the pile a card leaves (a wave takes no two cards from one pile unless
   * `alike`: both show their backs there, as a deal's cards on the stock).
   */
  flyAll(flights, kind = "home") {
    const k = pace();
    if (!k || !flights.length) {
      for (const f of flights) f.attach?.();
      return;
    }
    if (!this.cascades(flights.map((f) => f.order))) {
      for (const f of flights) {
        f.attach?.();
        this.fly(f.el, f.from, f.to, { turn: f.turn, k });
      }
      return;
    }
    flights.sort((a, b) => a.index - b.index || a.order - b.order);
    const gap = Math.max(GAP_MS[0], Math.min(GAP_MS[1], CASCADE_MS[kind] / flights.length));
    const start = performance.now();
    flights.forEach((f, i) => {
      const opts = { turn: f.turn, k, ms: MS.many, above: Math.min(i + 1, 99), cascade: true };
      if (f.attach) this.queue.push({ f, due: start + gap * i * k, opts });
      else this.fly(f.el, f.from, f.to, { ...opts, delay: gap * i });
    });
    // The intent sends off only the first card (the motion has begun: something flies);
    // the rest of its wave leaves in the next frame, so the frame that draws what the
    // intent changed (a new deal's stock, the piles a finish empties) has little of the
    // wave's work too.
    this.leave(start, 1);
  }

  // A wave of the cascade's cards (at most `most`), once the first of them is due: they
  // join their piles and fly, each after its own delay (a frame that came late shifts
  // every card still to leave by as much); the cards landed since the wave before are put
  // to rest.
  leave(now, most = WAVE_MAX) {
    this.frame = 0;
    const queue = this.queue;
    if (queue.length && queue[0].due <= now) {
      this.rest();
      const late = now - queue[0].due;
      for (const item of queue) item.due += late;
      const end = now + WAVE_MS * queue[0].opts.k;
      const shown = new Set(); // piles a card of the wave leaves with its face showing
      const wave = [];
      while (queue.length && wave.length < most && queue[0].due < end) {
        const { src, alike } = queue[0].f;
        if (src !== undefined && shown.has(src)) break;
        if (src !== undefined && !alike) shown.add(src);
        wave.push(queue.shift());
      }
      for (const { f } of wave) f.attach();
      for (const { f, opts, due } of wave) {
        this.fly(f.el, f.from, f.to, { ...opts, delay: (due - now) / opts.k });
      }
    }
    if (queue.length) this.frame = requestAnimationFrame((t) => this.leave(t));
    else this.release();
  }

  // The cascade's cards that have landed lose their marks, all in one go.
  rest() {
    const landed = this.landed;
    this.landed = [];
    for (const anim of landed) this.land(anim, true);
  }

  /** One card from `from` to `to` (pile pixels). `through`: presses pass through it on
   * the way (a stock pressed again at once deals again rather than catching this card). */
  fly(el, from, to, { turn = "", k = pace(), delay = 0, ms = MS.move, through = true,
    above = 0, cascade = false } = {}) {
    if (!k || (near(from, to) && !turn)) return;
    if (above) { // its own z-index, not an inherited custom property: nothing inside restyles
      if (el.ppZ === undefined) el.ppZ = el.style.zIndex;
      el.style.zIndex = String(500 + above);
    }
    // A cascade's card holds its last frame (its place) until it is put to rest: the end of
    // its animation changes nothing drawn until then.
    const timing = { duration: ms * k, delay: delay * k, fill: cascade ? "both" : "backwards",
      easing: EASE };
    let frames = [{ transform: at(from) }, { transform: at(to) }];
    const mid = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2];
    if (turn === "up") { // turned over, its back showing, until it stands edge on
      frames = [
        { transform: at(from, " rotateY(180deg)") },
        { transform: at(mid, " rotateY(90deg)") },
        { transform: at(to, " rotateY(0deg)") },
      ];
    } else if (turn) { // its new face is its back: it only narrows and widens again
      frames = [
        { transform: at(from, " scaleX(1)") },
        { transform: at(mid, " scaleX(0)") },
        { transform: at(to, " scaleX(1)") },
      ];
    }
    this.track(el.animate(frames, timing), el, { through, cascade, back: turn === "up" });
  }

  /** A card turning over where it lies: edge on halfway, its back showing until then. */
  turn(el, to, up) {
    const k = pace();
    if (!k) return;
    const timing = { duration: (up ? MS.turn : MS.turn / 2) * k, easing: "ease-in-out" };
    const frames = up
      ? [{ transform: at(to, " rotateY(180deg)") }, { transform: at(to, " rotateY(0deg)") }]
      : [{ transform: at(to, " scaleX(0)") }, { transform: at(to, " scaleX(1)") }];
    this.track(el.animate(frames, timing), el, { through: false, back: up });
  }

  // (The card's marks while it flies are classes, set and taken off in one write each:
  // every write to a card is a mutation record for the page's observers to go through.)
  // A cascade's flight that ends waits to be put to rest with others (see ended).
  // `back`: the card turns face up on the way. Its face is already the new one; a back
  // turned away from it (.card > .back) shows while the card's own transform has it turned
  // over: one animation, of the card, and nothing inside it animated or restyled on the
  // way. (A child element, not a pseudo-element: one of those made the browser work out
  // the styles at once, inside the input's handling.)
  track(anim, el, { through, cascade = false, back = false }) {
    anim.ppEl = el;
    anim.ppCascade = cascade;
    el.ppFlights = (el.ppFlights || 0) + 1;
    anim.ppThrough = through;
    el.ppThrough = (el.ppThrough || 0) + (through ? 1 : 0);
    if (back) {
      anim.ppBack = document.createElement("i");
      anim.ppBack.className = "back";
      el.append(anim.ppBack);
    }
    classes(el, ["flying", ...(through ? ["through"] : []), ...(back ? ["turning"] : [])], []);
    this.running.add(anim);
    anim.onfinish = cascade ? () => this.ended(anim) : () => this.land(anim, true);
    anim.oncancel = () => this.land(anim);
  }

  // A cascade's flight ran its course: its card holds its place, marked, and is put to rest
  // at the next wave, or with the others once nothing flies or waits to leave. (Each
  // animation that ends by itself changes what the compositor draws: a frame of layout
  // and layers for every card, were they put to rest one by one.)
  ended(anim) {
    if (!this.running.has(anim)) return;
    this.landed.push(anim);
    this.restIfDone();
  }

  restIfDone() {
    if (this.landed.length && !this.queue.length && this.landed.length === this.running.size) {
      this.rest();
    }
  }

  // `ended`: the motion ran its course. Its finish event comes inside a frame, the one
  // that draws the card landed: the waiting work (a win's dialog and burst, saving the
  // picture) runs in a task after it, so that frame stays short.
  land(anim, ended = false) {
    if (!this.running.delete(anim)) return;
    if (anim.ppCascade) anim.cancel(); // it held its last frame: the card's own place
    const el = anim.ppEl;
    el.ppFlights -= 1;
    if (anim.ppThrough) el.ppThrough -= 1;
    if (anim.ppBack) anim.ppBack.remove();
    if (el.ppFlights <= 0) {
      classes(el, [], ["flying", "through", "turning"]);
      if (el.ppZ !== undefined) el.style.zIndex = el.ppZ; // (a Spider run's own order)
      el.ppZ = undefined;
    } else if (el.ppThrough <= 0) classes(el, [], ["through"]);
    this.restIfDone();
    if (this.busy || !this.waiting.length) return;
    if (ended) setTimeout(() => this.release(), 0);
    else this.release();
  }

  // -- the hint --------------------------------------------------------------------------

  /**
   * Show a hinted move: `cards` [{el, rest, from, to}]: `rest` a card's place in its pile's
   * pixels, `from` the same place and `to` where it would land in table pixels; `lift` how
   * far the cards rise. The ghost is a
   * copy of the cards with no identity of its own (no data-card, hidden from assistive
   * technology: the words say the move).
   */
  showHint(cards, lift) {
    this.clearHint();
    if (!cards.length) return;
    const k = pace();
    const ghost = document.createElement("div");
    ghost.className = "ghost";
    ghost.setAttribute("aria-hidden", "true");
    for (const { el, rest, from, to } of cards) {
      const copy = el.cloneNode(true);
      for (const name of ["id", "role", "aria-label", "data-card", "data-hint", "data-held",
        "data-cursor", "style"]) copy.removeAttribute(name);
      copy.className = "card ghost-card";
      copy.style.transform = at(k ? from : to);
      ghost.append(copy);
      if (k) {
        this.hintAnims.push(copy.animate([{ transform: at(from) }, { transform: at(to) }],
          { duration: MS.ghost * k, delay: MS.lift * k, fill: "forwards", easing: EASE }));
        this.hintAnims.push(el.animate([{ transform: at(rest) }, { transform: at([rest[0], rest[1] - lift]) }],
          { duration: MS.lift * k, fill: "forwards", easing: "ease-out" }));
      }
    }
    this.root.append(ghost);
    this.ghost = ghost;
    const fadeAt = k ? (MS.lift + MS.ghost + MS.rest) * k : MS.rest * 1.5;
    this.ghostTimer = setTimeout(() => {
      if (this.ghost !== ghost) return;
      if (!k) return this.clearHint();
      const fade = ghost.animate({ opacity: 0 }, { duration: MS.fade * k, fill: "forwards" });
      fade.onfinish = () => { if (this.ghost === ghost) this.clearHint(); };
      this.hintAnims.push(fade);
    }, fadeAt);
  }

  /** The hint's motion goes: the lifted cards sink back to their places, the ghost goes. */
  clearHint() {
    clearTimeout(this.ghostTimer);
    for (const anim of this.hintAnims) anim.cancel();
    this.hintAnims = [];
    if (this.ghost) this.ghost.remove();
    this.ghost = null;
  }
}
