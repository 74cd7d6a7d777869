/**
 * Keeping a table civil (protocol.md 2.14). A person in a room (seated, watching, or heard in
 * its chat; never the person at this page) is a name to click, which asks what to do about
 * them: mute or unmute, block or unblock (saying what a block does), report with a reason
 * typed in, and for the host, send a watcher out or, before the start, open a person's seat.
 * Each question has its safe answer in focus, so Enter changes nothing. Whom the player mutes
 * and blocks is the connection's (`muted`, `blocked`: from `welcome`, kept up to date on `ok`),
 * listed on the account screen to lift.
 */

import { openDialog } from "./dialogs.js";
import { button, element } from "./dom.js";
import { BLOCK_TEXT, fold, listText, title } from "./words.js";

const REASON_MOST = 500;
/** What a reason may not hold (protocol.md `str`): control, format and line-separator
 * characters, but the zero-width joiners. */
const NOT_IN_TEXT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const JOINERS = new Set(["\u200c", "\u200d"]);

/** Whether `list` (`{name, player}` each, as `welcome` lists them) names `person`: by player
 * id, or by name where one of the two is known by name alone (a guest, or a history entry's
 * chat line, which carries no id). */
export function listed(list, person) {
  const name = fold(person.name);
  return (list ?? []).some((each) => {
    if (each.player && person.player) return each.player === person.player;
    return fold(each.name) === name;
  });
}

/** How the player stands to `person`: `blocked`, `muted`, or null. */
export function standingOf(connection, person) {
  if (listed(connection.blocked, person)) return "blocked";
  if (listed(connection.muted, person)) return "muted";
  return null;
}

/** Whether the player keeps `person`'s chat from their sight: muted or blocked. */
export function hidesChat(connection, person) {
  return standingOf(connection, person) !== null;
}

/** Mute or block `person` (`kind`), or no longer (`on` false), and keep the list as the
 * server now has it. Refusals are thrown, for the room to say. */
export async function setStanding(connection, kind, person, on) {
  const message = { type: kind, name: person.name, on };
  if (person.player) message.player = person.player;
  await connection.request(message);
  const key = kind === "mute" ? "muted" : "blocked";
  const others = connection[key].filter((each) => !listed([each], person));
  connection[key] = on ? [...others, { name: person.name, ...(person.player ? { player: person.player } : {}) }] : others;
}

/** A reason as the server takes it: lines joined by spaces, no control characters, at most
 * 500 characters. */
export function cleanReason(typed) {
  const text = typed.replace(NOT_IN_TEXT, (char) => (JOINERS.has(char) ? char : " ")).replace(/\s+/gu, " ").trim();
  return [...text].slice(0, REASON_MOST).join("");
}

/** Where `person` is in the room, in a sentence: their seats, or watching. */
function whereText(person) {
  const seats = person.seats ?? [];
  if (seats.length) return `${person.name} plays ${listText(seats.map(title))}.`;
  if (person.watching) return `${person.name} is watching this room.`;
  return `${person.name} spoke in this room.`;
}

/** What the player's mute or block of them does now. */
function standingText(standing) {
  if (standing === "blocked") return `You block them. ${BLOCK_TEXT}`;
  if (standing === "muted") return "You mute them: you do not see their chat.";
  return null;
}

/**
 * Ask what to do about `person` (`{name, player, seats, watching}`), for `room` (the
 * RoomView, whose `host`, `view`, `request`, `refuse`, `tell` and `standingChanged` this
 * uses), and do it.
 */
export async function askAboutPerson(room, person) {
  const connection = room.connection;
  const standing = standingOf(connection, person);
  const view = room.view;
  const openable = room.host && view?.status === "waiting" ? (person.seats ?? []).filter((colour) => view.seats.find((seat) => seat.colour === colour)?.holder?.kind === "human") : [];
  const choices = [{ label: "Close", value: "close", primary: true }];
  if (standing !== "blocked") choices.push(standing === "muted" ? { label: "Unmute", value: "unmute" } : { label: "Mute", value: "mute" });
  choices.push(standing === "blocked" ? { label: "Unblock", value: "unblock" } : { label: "Block…", value: "block" });
  choices.push({ label: "Report…", value: "report" });
  if (room.host && person.watching) choices.push({ label: "Send out…", value: "send-out" });
  if (openable.length) choices.push({ label: "Open their seat…", value: "open-seat" });
  const said = standingText(standing);
  const { dialog, result } = openDialog(
    person.name,
    [element("p", {}, whereText(person)), said ? element("p", { class: "standing" }, said) : null].filter(Boolean),
    choices,
  );
  dialog.id = "person-dialog";
  const chosen = await result;
  try {
    switch (chosen) {
      case "mute":
      case "unmute":
        await setStanding(connection, "mute", person, chosen === "mute");
        room.tell(chosen === "mute" ? `You muted ${person.name}: you will not see their chat.` : `You unmuted ${person.name}.`);
        room.standingChanged();
        break;
      case "block":
        await block(room, person);
        break;
      case "unblock":
        await setStanding(connection, "block", person, false);
        room.tell(`You unblocked ${person.name}.`);
        room.standingChanged();
        break;
      case "report":
        await report(room, person);
        break;
      case "send-out":
        await sendOut(room, person);
        break;
      case "open-seat":
        await openSeat(room, person, openable[0]);
        break;
      default:
        break;
    }
  } catch (error) {
    room.refuse(error);
  }
}

/** Block `person`, once asked (Enter keeps things as they are). */
async function block(room, person) {
  const { dialog, result } = openDialog(
    `Block ${person.name}?`,
    [element("p", {}, BLOCK_TEXT), element("p", {}, "You can unblock them later, by their name.")],
    [
      { label: "Don't block", value: "keep", primary: true },
      { label: "Block", value: "block" },
    ],
  );
  dialog.id = "block-dialog";
  if ((await result) !== "block") return;
  await setStanding(room.connection, "block", person, true);
  room.tell(`You blocked ${person.name}: they cannot sit at your tables, and you will not see their chat.`);
  room.standingChanged();
}

/** Report `person` to the server's operators with a reason typed in: Send is off until there
 * is one, and Enter in the box starts a new line, never sends. */
async function report(room, person) {
  const reason = element("textarea", { id: "report-reason", class: "reason", rows: 4, maxlength: REASON_MOST, autocomplete: "off" });
  const { dialog, result } = openDialog(
    `Report ${person.name}`,
    [
      element("p", {}, "Say what they did. The server's operators read it with this game and the room's last chat lines, the watchers' too."),
      element("label", { for: "report-reason" }, "Why (up to 500 characters)"),
      reason,
    ],
    [
      { label: "Cancel", value: "cancel", primary: true },
      { label: "Send the report", value: "send" },
    ],
  );
  dialog.id = "report-dialog";
  const send = dialog.querySelector("button[value=send]");
  const ready = () => {
    send.disabled = cleanReason(reason.value) === "";
  };
  reason.addEventListener("input", ready);
  ready();
  if ((await result) !== "send") return;
  const message = { type: "report", room: room.ref, name: person.name, reason: cleanReason(reason.value) };
  if (person.player) message.player = person.player;
  await room.request(message);
  room.tell(`Your report of ${person.name} went to the server's operators.`);
}

/** The host sends a watcher out of the room for its life, once asked. */
async function sendOut(room, person) {
  const { dialog, result } = openDialog(
    `Send ${person.name} out?`,
    [element("p", {}, `${person.name} stops watching this room, and may not watch it or sit in it again while it lasts.`)],
    [
      { label: "Let them watch", value: "keep", primary: true },
      { label: "Send out", value: "send" },
    ],
  );
  dialog.id = "send-out-dialog";
  if ((await result) !== "send") return;
  await room.request({ type: "remove_watcher", room: room.ref, name: person.name });
  room.tell(`You sent ${person.name} out of the room.`);
}

/** Before the start, the host takes `colour` back from `person` to open it, once asked. */
async function openSeat(room, person, colour) {
  const { dialog, result } = openDialog(
    `Open ${title(colour)}?`,
    [element("p", {}, `${person.name} leaves ${title(colour)} and watches; anyone may take the seat, ${person.name} too unless you block them.`)],
    [
      { label: "Leave it", value: "keep", primary: true },
      { label: "Open the seat", value: "open" },
    ],
  );
  dialog.id = "open-seat-dialog";
  if ((await result) !== "open") return;
  await room.request({ type: "set_seat", room: room.ref, seat: colour, holder: "open" });
}

/** The account screen's list of the people the player mutes and blocks, each with the button
 * that lifts it: the way back for someone no longer in any room with them. */
export class StandingSection {
  constructor(connection) {
    this.connection = connection;
    this.list = element("ul", { class: "standing-list", id: "standing-list" });
    this.note = element("p", { class: "note", id: "standing-none" }, "You mute and block nobody. A person's name in a room is a button to mute, block or report them.");
    this.error = element("p", { class: "error", role: "alert" });
    this.element = element(
      "section",
      { class: "account-part", id: "standing-box" },
      element("h2", {}, "People you mute or block"),
      element("p", { class: "note" }, `Muted: you do not see their chat. Blocked: ${BLOCK_TEXT.charAt(0).toLowerCase()}${BLOCK_TEXT.slice(1)}`),
      this.list,
      this.note,
      this.error,
    );
    this.show();
  }

  show() {
    const rows = [
      ...this.connection.blocked.map((person) => ["block", "blocked", "Unblock", person]),
      ...this.connection.muted.filter((person) => !listed(this.connection.blocked, person)).map((person) => ["mute", "muted", "Unmute", person]),
    ];
    this.list.replaceChildren(
      ...rows.map(([kind, word, label, person]) =>
        element(
          "li",
          { "data-person": person.name },
          element("strong", {}, person.name),
          ` ${word} `,
          button(label, () => this.lift(kind, person), { class: "quiet", "data-lift": kind }),
        ),
      ),
    );
    this.list.hidden = rows.length === 0;
    this.note.hidden = rows.length > 0;
  }

  async lift(kind, person) {
    this.error.textContent = "";
    try {
      await setStanding(this.connection, kind, person, false);
    } catch (error) {
      this.error.textContent = error.message;
    }
    this.show();
  }
}
