// The search for a daily deal (web/dailies.py "daily_find"), one short slice a task.
//
// A daily deal is found on the device: the solver tries the date's candidate deals until it
// wins one within a fixed number of positions. That takes from a few to some thousands of
// positions, so it runs as the hint does: one slice per call, each in its own task, so
// input and painting get in between and no task is long. One search at a time: asking for
// another date or game replaces it; asking again for the same one only changes who hears.

const SLICE_MS = 8; // solver time a task (web/dailies.py caps it too)

const task = (fn, priority) => window.scheduler?.postTask
  ? window.scheduler.postTask(fn, { priority })
  : setTimeout(fn, 0);

export class DailyFinder {
  constructor(ask) {
    this.ask = ask; // (kind, data) => the controller's answer (render payloads applied)
    this.job = null;
  }

  // Find the daily of `variant` on `date`; `progress(answer)` after each slice, then
  // `done(answer)` once found (answer.deal) or failed (answer null). `background` runs
  // it at the lowest priority (a link's check), else at the priority of what the player
  // waits for.
  find(variant, date, { progress = () => {}, done = () => {}, background = false } = {}) {
    const key = `${variant}|${date}`;
    if (this.job?.key === key) {
      Object.assign(this.job, { progress, done, background: this.job.background && background });
      return;
    }
    const job = this.job = { key, variant, date, progress, done, background };
    const step = () => {
      if (this.job !== job) return; // replaced
      const answer = this.ask("daily_find", { variant, date, ms: SLICE_MS });
      const failed = !answer || answer.error || answer.event === "error";
      if (failed || answer.found) {
        this.job = null;
        job.done(failed ? null : answer);
        return;
      }
      job.progress(answer);
      task(step, job.background ? "background" : "user-visible");
    };
    task(step, background ? "background" : "user-visible");
  }

  get busy() {
    return this.job !== null;
  }
}
