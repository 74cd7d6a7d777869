/**
 * The seats' clocks on a room's page (protocol.md 2.12): each seat's time by its seat, the
 * running one counting down from the last message that carried the clock (drawn again as
 * soon as it reads differently: ten times a second below ten seconds of a live clock, else
 * each second), never drifting, since every `room` view and `update` sets it anew. Low time
 * shows in its own colour; a seat out of time says so, and a seat whose player is on vacation
 * says till when its clock stands still (`held_until`). The person whose own live clock runs
 * below ten seconds hears a short beep, once a turn, and a screen reader is told.
 */

import { clockText, clocked, isLow, LOW_LIVE_MS, nextDrawIn, shown, startingClock } from "./clock.js";
import { dateText } from "./dates.js";
import { element } from "./dom.js";
import { title } from "./words.js";

const OUT_OF_TIME = "out of time";

export class SeatClocks {
  /**
   * `mine()` the seats the people at this page play; `lowTime()` called once a turn as one
   * of them runs low (to beep and tell); `now()` the page's clock in milliseconds.
   */
  constructor({ mine, lowTime, now = () => performance.now() }) {
    this.mine = mine;
    this.lowTime = lowTime;
    this.now = now;
    /** Each seat's clock element, kept while the seats' list is drawn anew. */
    this.nodes = new Map();
    this.clock = null;
    this.flagged = [];
    this.receivedAt = 0;
    this.turn = null;
    /** Whether this turn's own running clock may still beep (it was seen at ten seconds or
     * more); null until the turn's clock is first drawn. */
    this.armed = null;
    this.timer = null;
  }

  /** The clock element of seat `colour`, to put by the seat. */
  node(colour) {
    let node = this.nodes.get(colour);
    if (!node) {
      node = element("span", { class: "clock", role: "timer", "data-colour": colour, hidden: true });
      this.nodes.set(colour, node);
    }
    return node;
  }

  /**
   * Show the room `view` (a `room` view, or one an `update` changed): its `clock` as just
   * received, its seats out of time, and before the start each seat's whole time. A new
   * version is a new turn for the beep.
   */
  set(view) {
    const colours = view.seats.map((seat) => seat.colour);
    this.clock = view.clock ?? (view.status === "waiting" ? startingClock(view.time_control, colours) : null);
    this.flagged = view.flagged ?? [];
    this.receivedAt = this.now();
    const turn = `${view.room}|${view.version}|${this.clock?.running ?? ""}`;
    if (turn !== this.turn) {
      this.turn = turn;
      this.armed = null;
    }
    this.draw();
  }

  /** Draw every seat's clock as it reads now, and come back when the running one changes. */
  draw() {
    clearTimeout(this.timer);
    this.timer = null;
    const clock = this.clock;
    const control = clock?.control;
    if (!clock || !clocked(control)) {
      for (const node of this.nodes.values()) node.hidden = true;
      return;
    }
    const times = shown(clock, this.receivedAt, this.now());
    const held = clock.held_until ?? {};
    for (const [colour, node] of this.nodes) {
      const ms = times[colour];
      const out = this.flagged.includes(colour);
      const away = !out && typeof held[colour] === "number" ? held[colour] : null;
      node.hidden = ms === undefined && !out;
      if (node.hidden) continue;
      const running = colour === clock.running;
      let text = out ? OUT_OF_TIME : clockText(ms, control);
      if (away !== null) text = `on vacation until ${dateText(away, { year: false })}`;
      if (node.textContent !== text) node.textContent = text;
      node.classList.toggle("running", running && !out && away === null);
      node.classList.toggle("low", !out && away === null && isLow(ms, control));
      node.classList.toggle("out", out);
      node.classList.toggle("vacation", away !== null);
      if (out) node.title = `${title(colour)} ran out of time`;
      else if (away !== null) node.title = `${title(colour)} is on vacation: this clock stands still until ${dateText(away)}, with ${clockText(ms, control)} left`;
      else node.title = `${title(colour)}'s time${running ? ", running" : ""}`;
    }
    const running = clock.running;
    if (running === null || running === undefined || times[running] === undefined) return;
    this.watchLowTime(running, times[running], control);
    const wait = nextDrawIn(times[running], control);
    if (wait !== null) this.timer = setTimeout(() => this.draw(), wait);
  }

  /** Beep once a turn as the page's own running live clock passes ten seconds. */
  watchLowTime(colour, ms, control) {
    if (control.kind !== "live" || !this.mine().includes(colour)) return;
    if (this.armed === null) this.armed = ms >= LOW_LIVE_MS;
    if (this.armed && ms < LOW_LIVE_MS) {
      this.armed = false;
      this.lowTime(colour);
    }
  }

  destroy() {
    clearTimeout(this.timer);
    this.timer = null;
  }
}
