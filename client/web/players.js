/** Who a person is to the server (protocol.md 2.10): the player key made once and kept, read
 * back as typed, and ratings and their changes in words. Pure functions, no page. */

/** The codes' alphabet, Crockford's base 32: digits and capitals but I, L, O and U. */
export const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
export const KEY_SYMBOLS = 32;
const GROUP = 4;
const LOOK_ALIKES = { O: "0", I: "1", L: "1" };
/** A key as written: eight groups of four symbols joined by dashes. */
export const KEY_PATTERN = /^[0-9A-HJKMNP-TV-Z]{4}(?:-[0-9A-HJKMNP-TV-Z]{4}){7}$/;

/** Symbols as the server writes them: dash-separated groups of four. */
export function formatSymbols(symbols) {
  const groups = [];
  for (let at = 0; at < symbols.length; at += GROUP) groups.push(symbols.slice(at, at + GROUP));
  return groups.join("-");
}

/** A fresh key from the browser's random source: 32 symbols of 5 bits, 160 bits in all.
 * `random(bytes)` fills a Uint8Array (crypto.getRandomValues). */
export function newKey(random = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = random(new Uint8Array(KEY_SYMBOLS));
  // Each byte's low five bits: 256 is a multiple of 32, so every symbol is equally likely.
  const symbols = Array.from(bytes, (byte) => ALPHABET[byte & 31]).join("");
  return formatSymbols(symbols);
}

/** The key `typed` means (any case, dashes and spaces anywhere, O for 0, I or L for 1), as
 * written; null if it is not one. The server reads a key the same way. */
export function readKey(typed) {
  if (typeof typed !== "string" || typed.length > 128) return null;
  const symbols = typed
    .replace(/[-\s]/g, "")
    .toUpperCase()
    .replace(/[OIL]/g, (char) => LOOK_ALIKES[char]);
  if (symbols.length !== KEY_SYMBOLS) return null;
  for (const symbol of symbols) if (!ALPHABET.includes(symbol)) return null;
  return formatSymbols(symbols);
}

/** Why `typed` is not a key, for a person who pasted it; "" when it is one. */
export function keyProblem(typed) {
  if (readKey(typed) !== null) return "";
  const symbols = String(typed ?? "").replace(/[-\s]/g, "");
  if (symbols.length === 0) return "Paste or type a key first.";
  const strange = [...new Set(symbols.toUpperCase().replace(/[OIL]/g, "0"))].filter((c) => !ALPHABET.includes(c));
  if (strange.length) {
    return `That is not a player key: a key has only digits and the letters A to Z but U (found ${strange.slice(0, 5).map((c) => `“${c}”`).join(", ")}).`;
  }
  return `That is not a player key: a key has 32 letters and digits in eight groups of four, and this has ${symbols.length}.`;
}

/** A minus sign for numbers shown to people. */
const MINUS = "\u2212";

/** A signed change: "+12", "−7", "±0". */
export function signed(delta) {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `${MINUS}${-delta}`;
  return "\u00b10";
}

/** A rating as shown: "1532", with "?" while provisional (as lichess shows it). Accepts a
 * seat's `{value, provisional}` or a leaderboard line's `{rating, provisional}`. */
export function ratingText(rating) {
  if (!rating || typeof rating !== "object") return "";
  const value = Number.isFinite(rating.value) ? rating.value : rating.rating;
  if (!Number.isFinite(value)) return "";
  return `${value}${rating.provisional ? "?" : ""}`;
}

/** What a rating means, for a tooltip. */
export function ratingTitle(rating) {
  if (!rating) return "";
  const games = Number.isInteger(rating.games) ? rating.games : null;
  const played = games === null ? "" : `; ${games} rated game${games === 1 ? "" : "s"}`;
  return `rating ${ratingText(rating)}${rating.provisional ? " (provisional: too few games to be sure)" : ""}${played}`;
}

/** A rating change: "1500 → 1532 (+32)". */
export function changeText(change) {
  if (!change || !Number.isFinite(change.before) || !Number.isFinite(change.after)) return "";
  return `${change.before} \u2192 ${change.after} (${signed(change.after - change.before)})`;
}

/** Only the difference of a rating change: "+32". */
export function deltaText(change) {
  if (!change || !Number.isFinite(change.before) || !Number.isFinite(change.after)) return "";
  return signed(change.after - change.before);
}

/** A seat's rating wherever the server puts it: beside the holder (2.10), or in it. */
export function seatRating(seat) {
  const rating = seat?.rating ?? seat?.holder?.rating ?? null;
  return rating && typeof rating === "object" ? rating : null;
}

/** An outcome in words: win, loss, tie. */
export function outcomeText(outcome) {
  return { win: "Won", loss: "Lost", tie: "Tied" }[outcome] ?? "";
}

/** A date and time people read: today's games by the clock, older ones by the day. */
export function whenText(seconds, now = new Date()) {
  if (!Number.isFinite(seconds) || seconds <= 0) return "";
  const when = new Date(seconds * 1000);
  const sameDay = when.toDateString() === now.toDateString();
  const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  if (sameDay) return `today ${time}`;
  const day = when.toLocaleDateString([], { day: "numeric", month: "short", year: when.getFullYear() === now.getFullYear() ? undefined : "numeric" });
  return `${day} ${time}`;
}
