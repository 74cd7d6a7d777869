/**
 * A room's history (protocol.md 2.11) as the lines of the room's log: what a person who joins
 * or comes back reads of what happened before. Pure: entries in, words out, in the words the
 * live log uses for the messages the entries mirror (words.js). The terminal client's
 * client/terminal/history.py says the same.
 */

import { coinText, passText, proposalEndedText, seatText, title } from "./words.js";

const DASH = "\u2013";
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The log's lines for `entries`, oldest first: only those numbered above `since` (the last
 * one already shown), each after `stamp(at)` where a stamp is given. An entry of a kind this
 * page does not know, or that it cannot read, is left out.
 */
export function historyLines(entries, { since = 0, stamp = null } = {}) {
  const lines = [];
  for (const entry of entries ?? []) {
    if (!entry || !Number.isInteger(entry.n) || entry.n <= since) continue;
    let said;
    try {
      said = entryLines(entry);
    } catch {
      continue;
    }
    for (const line of said) lines.push(stamp ? `${stamp(entry.at)} ${line}` : line);
  }
  return lines;
}

/** The fields an entry needs, or an error for `historyLines` to leave it out. */
function need(entry, ...fields) {
  for (const field of fields) {
    if (entry[field] === undefined) throw new Error(`a ${entry.kind} entry without ${field}`);
  }
}

/** One entry in words: a line, two where a coin was tossed, none for an unknown kind.
 * `room` (`{seats}`, the number of seats) words a draw offer as its room's. */
export function entryLines(entry, room = {}) {
  switch (entry.kind) {
    case "move":
      need(entry, "seat", "move");
      return [moveLine(entry)];
    case "seat":
      need(entry, "seat", "holder");
      return [seatText({ seat: entry.seat, holder: entry.holder, by: entry.by ?? null })];
    case "chat":
      need(entry, "name", "text");
      return [`${entry.seat ? `${entry.name} (${title(entry.seat)})` : entry.name}: ${entry.text}`];
    case "started":
      need(entry, "first");
      return [...tossed(entry), `The game has started: ${title(entry.first)} moves first.`];
    case "over":
      need(entry, "winners", "scores");
      return [overLine(entry)];
    case "new_game": {
      need(entry, "first");
      const rotated = entry.rotated ? " with everyone one seat on" : "";
      return [...tossed(entry), `A new game began${rotated}: ${title(entry.first)} moves first.`];
    }
    case "undo":
      need(entry, "moves");
      return [`${entry.moves} move${entry.moves === 1 ? "" : "s"} taken back.`];
    case "loaded":
      return ["Another game was put on the board (loaded or imported)."];
    case "proposal":
      need(entry, "proposal", "outcome");
      return [proposalEndedText({ kind: entry.proposal, outcome: entry.outcome, by: entry.by ?? null, seat: entry.seat ?? null }, room)];
    case "flagged": {
      need(entry, "seat", "ends");
      const who = entry.name ? `${entry.name} (${title(entry.seat)})` : title(entry.seat);
      return [`${who} ran out of time${entry.ends ? "." : "; the computer plays on."}`];
    }
    case "resigned": {
      need(entry, "seat", "ends");
      const who = entry.name ? `${entry.name} (${title(entry.seat)})` : title(entry.seat);
      return [`${who} resigned${entry.ends ? "." : "; the computer plays on."}`];
    }
    case "claimed": {
      need(entry, "seat");
      const who = entry.name ? `${entry.name} (${title(entry.seat)})` : title(entry.seat);
      return [`${who} claimed the game while everyone else was away.`];
    }
    case "aborted": {
      need(entry, "seat");
      const who = entry.name ? `${entry.name} (${title(entry.seat)})` : title(entry.seat);
      if (entry.late) return [`${who} made no first move in time: the game is aborted and counts for nobody.`];
      return [`${who} aborted the game: it counts for nobody.`];
    }
    case "clock_paused":
      need(entry, "seat", "given_ms");
      if (!Number.isInteger(entry.given_ms)) throw new Error("a clock_paused entry's given_ms is not a number");
      return [`The server was away: ${title(entry.seat)} was given back ${spanText(entry.given_ms)}.`];
    default:
      return [];
  }
}

/** A move and any seats passed over after it: `Ann (Blue) played d3.` */
export function moveLine(entry) {
  let who = entry.name;
  if (entry.level !== null && entry.level !== undefined) {
    who = entry.name ? `The computer for ${entry.name}` : "The computer";
  }
  const passes = (entry.passed ?? []).map(passText);
  return [`${who} (${title(entry.seat)}) played ${entry.move}.`, ...passes].join(" ");
}

/** A game's end with the winners' names and the scores: `Game over: Ann won 34–30–0.` */
export function overLine(entry) {
  const scores = Object.values(entry.scores);
  const standing = scores.join(DASH);
  const winners = entry.winners;
  const who = winners.map((colour) => entry.names?.[colour] || title(colour));
  if (winners.length === 0 || winners.length === scores.length) return `Game over: a draw, ${standing}.`;
  if (who.length === 1) return `Game over: ${who[0]} won ${standing}.`;
  return `Game over: ${who.join(" and ")} share the win, ${standing}.`;
}

/** A longer time as a days-per-move clock shows it: `2d 03h`, `5h 12m`, `4:59`. */
export function spanText(ms) {
  const left = Math.max(0, ms);
  const two = (value) => String(value).padStart(2, "0");
  if (left >= DAY_MS) return `${Math.floor(left / DAY_MS)}d ${two(Math.floor((left % DAY_MS) / HOUR_MS))}h`;
  if (left >= HOUR_MS) return `${Math.floor(left / HOUR_MS)}h ${two(Math.floor((left % HOUR_MS) / MINUTE_MS))}m`;
  return `${Math.floor(left / MINUTE_MS)}:${two(Math.floor((left % MINUTE_MS) / 1000))}`;
}

/** The coin tossed for who moves first, if one was. */
function tossed(entry) {
  return entry.coin ? [coinText(entry.coin)] : [];
}

/** A Unix time as the hour and minute here: a `stamp` for `historyLines`. */
export function timeOfDay(at) {
  return new Date(at * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}
