/** What the browser keeps between visits: the player's name and key, seat tokens, the sound
 * switch; and for this tab, a game file opened for a replay and whether a player shows the
 * watchers' chat. */

import { newKey, readKey } from "./players.js";

const NAME_KEY = "parlour.name";
const PLAYER_KEY = "parlour.key";
const PREVIOUS_KEY = "parlour.key.previous";
const REPLAY_FILE = "parlour.replay.file";
const SEATS_KEY = "parlour.seats";
const SOUND_KEY = "parlour.sound";
const WATCHERS_CHAT = "parlour.watchers-chat";
const MOST_SEATS = 50;

function read(key, fallback) {
  try {
    const text = window.localStorage.getItem(key);
    return text === null ? fallback : JSON.parse(text);
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Storage full or switched off: the page still works, only without remembering.
  }
}

/** The player's name, or "" before they gave one. */
export function storedName() {
  const name = read(NAME_KEY, "");
  return typeof name === "string" ? name : "";
}

export function storeName(name) {
  write(NAME_KEY, name);
}

/** The player key this browser proves itself with (protocol.md 2.10), made the first time
 * it is asked for and kept from then on. Null only where the browser keeps nothing (the
 * page then plays as a guest rather than as a new player at every load). */
export function playerKey() {
  const kept = readKey(read(PLAYER_KEY, ""));
  if (kept) return kept;
  const made = newKey();
  write(PLAYER_KEY, made);
  return readKey(read(PLAYER_KEY, "")) === made ? made : null;
}

/** Use `key` (as `readKey` writes it) from now on; the one it replaces is kept as the
 * previous key, so that an import by mistake loses nothing. */
export function storeKey(key) {
  const old = readKey(read(PLAYER_KEY, ""));
  if (old && old !== key) write(PREVIOUS_KEY, old);
  write(PLAYER_KEY, key);
}

/** The key used before the last import, or null. */
export function previousKey() {
  return readKey(read(PREVIOUS_KEY, ""));
}

/** A game file opened to replay, kept for this tab so that a reload shows it again. */
export function storeReplayFile(text) {
  try {
    window.sessionStorage.setItem(REPLAY_FILE, text);
  } catch {
    // Too big or switched off: the replay shows, only not after a reload.
  }
}

export function storedReplayFile() {
  try {
    return window.sessionStorage.getItem(REPLAY_FILE);
  } catch {
    return null;
  }
}

/** The seat this browser holds in room `ref`: {token}, or null. */
export function storedSeat(ref) {
  const seats = read(SEATS_KEY, {});
  const kept = seats && typeof seats === "object" ? seats[ref] : null;
  return kept && typeof kept.token === "string" ? kept : null;
}

/** Keep the seat token for room `ref` (its id, or a private room's code); the newest kept. */
export function storeSeat(ref, seat) {
  const seats = read(SEATS_KEY, {});
  const kept = seats && typeof seats === "object" ? seats : {};
  delete kept[ref];
  kept[ref] = { ...seat, at: Date.now() };
  const newest = Object.entries(kept)
    .sort((a, b) => (b[1].at ?? 0) - (a[1].at ?? 0))
    .slice(0, MOST_SEATS);
  write(SEATS_KEY, Object.fromEntries(newest));
}

/** Every room this browser holds seats in, newest first: [ref, {token, at}]. */
export function storedSeats() {
  const seats = read(SEATS_KEY, {});
  if (!seats || typeof seats !== "object") return [];
  return Object.entries(seats)
    .filter(([, seat]) => seat && typeof seat.token === "string")
    .sort((a, b) => (b[1].at ?? 0) - (a[1].at ?? 0));
}

/** Forget the seat in room `ref` (its token no longer works). */
export function forgetSeat(ref) {
  const seats = read(SEATS_KEY, {});
  if (seats && typeof seats === "object" && ref in seats) {
    delete seats[ref];
    write(SEATS_KEY, seats);
  }
}

export function soundOn() {
  return read(SOUND_KEY, true) !== false;
}

export function storeSound(on) {
  write(SOUND_KEY, on);
}

/** Whether a player chose to see the watchers' chat: off until they do, remembered for the
 * tab (protocol.md 2.14). */
export function watchersChatShown() {
  try {
    return window.sessionStorage.getItem(WATCHERS_CHAT) === "on";
  } catch {
    return false;
  }
}

export function storeWatchersChat(on) {
  try {
    window.sessionStorage.setItem(WATCHERS_CHAT, on ? "on" : "off");
  } catch {
    // Storage switched off: the choice lasts as long as the page.
  }
}
