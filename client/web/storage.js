/** What the browser keeps between visits: the player's name, seat tokens, the sound switch. */

const NAME_KEY = "parlour.name";
const SEATS_KEY = "parlour.seats";
const SOUND_KEY = "parlour.sound";
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
