/**
 * Handing a seat to the computer (protocol.md 2.7 `hand_over`): in a room with a clock, while
 * its game is played, a person seated here may ask that the computer play the seat of a person
 * who is away (their time runs on otherwise). The others seated are asked as for an undo.
 */

import { clocked } from "./clock.js";
import { openDialog } from "./dialogs.js";
import { button, element } from "./dom.js";
import { title } from "./words.js";

/** The colours a person seated at this page (`playing`: their seats) may ask the computer to
 * play in `view` now: held by a person whose connection is gone, in a clocked game in play. */
export function handOverSeats(view, playing) {
  if (!view || view.status !== "playing" || !clocked(view.time_control) || playing.length === 0) return [];
  return view.seats
    .filter((seat) => seat.holder?.kind === "human" && seat.holder.connected === false && !playing.includes(seat.colour))
    .map((seat) => seat.colour);
}

/** The button, by the seat, that asks for it. */
export function handOverButton(colour, ask) {
  return button(`Let the computer play ${title(colour)}`, ask, {
    class: "hand-over",
    "data-colour": colour,
    "data-key": `hand-over-${colour}`,
    title: `${title(colour)}'s player is away and their time runs on: the computer plays for them, at the room's level, until they come back. The game stays rated: if they are still away at the end, they finish last. The other players are asked first.`,
  });
}

/** Ask, for `room` (the RoomView), that the computer play `colour`, once the person has
 * read what it does (Enter keeps waiting). Refusals are said as the room says them. */
export async function askHandOver(room, colour) {
  const { dialog, result } = openDialog(
    `Let the computer play ${title(colour)}?`,
    [
      element(
        "p",
        {},
        `The computer plays ${title(colour)} while its player is away; they take the seat back when they come back. The game stays rated: if they are still away at the end, they finish last.`,
      ),
    ],
    [
      { label: "Keep waiting", value: "wait", primary: true },
      { label: "Let the computer play", value: "hand" },
    ],
  );
  dialog.id = "hand-over-dialog";
  if ((await result) !== "hand") return;
  try {
    await room.request({ type: "hand_over", room: room.ref, seat: colour, version: room.view.version });
  } catch (error) {
    room.refuse(error);
  }
}
