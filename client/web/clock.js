/**
 * A game's clocks (protocol.md 2.12) in numbers and words: the time each seat has as the page
 * shows it at a moment, how that time is written, when it next needs drawing, whether it is
 * low, and a time control as players name it ("5+3", "3 days a move"). Pure: every time is
 * passed in, in milliseconds of the page's own clock, so a test gives them explicitly.
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Below this a live clock shows tenths, turns to its low-time colour, and beeps once a turn
 * for the player whose own time it is. */
export const LOW_LIVE_MS = 10 * SECOND;
/** Below this a days-per-move clock turns to its low-time colour (and shows m:ss). */
export const LOW_DAYS_MS = HOUR;
/** The longest a running clock waits between drawings: once a second at least. */
const MOST_WAIT_MS = SECOND;
/** A running live clock's drawing below `LOW_LIVE_MS`: each tenth, ten a second. */
const TENTH = 100;

/**
 * Each seat's time left as shown at `now`, for the `clock` of a message received at
 * `receivedAt`: the running seat's `left_ms` less the time since it came, the others' as
 * they came; never below zero. A map of colour to milliseconds; empty without a clock.
 */
export function shown(clock, receivedAt, now) {
  const times = {};
  if (!clock || typeof clock.left_ms !== "object" || clock.left_ms === null) return times;
  const since = Math.max(0, now - receivedAt);
  for (const [colour, left] of Object.entries(clock.left_ms)) {
    const ms = colour === clock.running ? left - since : left;
    times[colour] = Math.max(0, ms);
  }
  return times;
}

function pad(n) {
  return String(n).padStart(2, "0");
}

/**
 * `ms` as a clock shows it under `control`: live `m:ss`, `h:mm:ss` from an hour, and tenths
 * below ten seconds (`0:09.3`); days per move `2d 03h`, `5h 12m`, and `m:ss` below an hour.
 * Times are rounded down, so a clock reads zero only when none is left.
 */
export function clockText(ms, control) {
  const left = Math.max(0, Math.floor(ms));
  const days = control?.kind === "days";
  if (days && left >= DAY) return `${Math.floor(left / DAY)}d ${pad(Math.floor((left % DAY) / HOUR))}h`;
  if (days && left >= HOUR) return `${Math.floor(left / HOUR)}h ${pad(Math.floor((left % HOUR) / MINUTE))}m`;
  if (!days && left < LOW_LIVE_MS) return `0:${pad(Math.floor(left / SECOND))}.${Math.floor((left % SECOND) / TENTH)}`;
  const seconds = Math.floor(left / SECOND);
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return hours ? `${hours}:${pad(minutes)}:${pad(seconds % 60)}` : `${minutes}:${pad(seconds % 60)}`;
}

/** Whether `ms` is little enough time under `control` to warn of. */
export function isLow(ms, control) {
  if (control?.kind === "live") return ms < LOW_LIVE_MS;
  if (control?.kind === "days") return ms < LOW_DAYS_MS;
  return false;
}

/**
 * How long until a running clock showing `ms` under `control` reads differently: the next
 * tenth below ten seconds of a live clock (ten drawings a second), else the next second, at
 * most a second away. Null at zero, where it stays.
 */
export function nextDrawIn(ms, control) {
  const left = Math.floor(ms);
  if (left <= 0) return null;
  if (control?.kind !== "days" && left < LOW_LIVE_MS) return (left % TENTH) + 1;
  return Math.min(MOST_WAIT_MS, (left % SECOND) + 1);
}

/** Every seat's whole time at the start of a game under `control` (what a waiting room
 * shows), or null for no clock. */
export function startingClock(control, colours) {
  let full = null;
  if (control?.kind === "live") full = control.base_s * SECOND;
  else if (control?.kind === "days") full = control.days * DAY;
  if (full === null) return null;
  return { control, left_ms: Object.fromEntries(colours.map((colour) => [colour, full])), running: null };
}

/** Whether `control` is a clock at all. */
export function clocked(control) {
  return control?.kind === "live" || control?.kind === "days";
}

/**
 * A time control as players name it: live `5+3` (minutes, then seconds added a move; a base
 * that is not a whole half minute in seconds, `45s+0`), days `3 days a move` (`, bank 7`
 * with a bank), and `no clock`. As the server's `TimeControl.label()` writes it.
 */
export function controlLabel(control) {
  if (control?.kind === "live") {
    const base = control.base_s % 30 === 0 ? `${control.base_s / 60}` : `${control.base_s}s`;
    return `${base}+${control.increment_s ?? 0}`;
  }
  if (control?.kind === "days") {
    const days = `${control.days} day${control.days === 1 ? "" : "s"} a move`;
    return control.bank_days ? `${days}, bank ${control.bank_days}` : days;
  }
  return "no clock";
}
