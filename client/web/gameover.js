/** The end of a game, beside the board and never over it (each seat's rating change is the
 * seat's): how it ended, in the turn line's words (words.js endingText), Rematch (every seat's holder
 * moves to the next seat, so the first move changes hands) and the replay; and, where a
 * person here just made the best score on this board's card, their initials asked in
 * place (as Tribolo did), once. */

import { button, element, rebuild } from "./dom.js";
import { inTextField } from "./typing.js";
import { endingText } from "./words.js";

/** The finished games whose initials were kept or skipped in this tab: never asked again. */
const ANSWERED = new Set();

/** The card of one room view; `room` its RoomView. */
export class GameOver {
  constructor(room) {
    this.room = room;
    this.initials = null;
    this.element = element("section", { class: "game-over", id: "game-over", "aria-labelledby": "game-over-heading", hidden: true });
  }

  /** Draw the card for `view`: shown once its game is over, gone when a new one starts. */
  show(view) {
    const finished = view.status === "finished" && Boolean(view.state);
    if (!finished) this.initials = null;
    const seated = this.room.playing().length > 0;
    const ending = finished ? endingText(view) : "";
    const key = JSON.stringify([finished, ending, view.rated, seated, this.initials?.asked ?? null]);
    rebuild(this.element, key, () => (finished ? this.parts(view, ending, seated) : []));
    this.element.hidden = !finished;
  }

  parts(view, ending, seated) {
    const parts = [element("h2", { id: "game-over-heading" }, "Game over"), element("p", { class: "ending", id: "ending" }, ending)];
    if (view.rated === false && view.ended !== "aborted") parts.push(element("p", { class: "note" }, "A friendly game: no rating changed."));
    if (this.initials) parts.push(this.initials.form);
    const buttons = [];
    if (seated) {
      buttons.push(
        button("Rematch", () => this.room.rematch(), {
          class: "primary",
          "data-action": "rematch",
          "data-key": "rematch",
          title: "Play again with every player moved to the next seat, so that another moves first",
        }),
      );
    }
    buttons.push(button("Replay this game", () => this.room.replay(), { "data-key": "replay-game", id: "replay-game", title: "Move by move, with who was winning" }));
    parts.push(element("div", { class: "over-buttons" }, ...buttons));
    return parts;
  }

  /** Ask for the initials of `best` (the card's new best score, made at `colour` of this
   * page), unless this game's were answered already. */
  ask(gameKey, best, colour) {
    if (ANSWERED.has(gameKey)) return;
    this.initials = { asked: gameKey, best, colour };
    // One form for as long as it is asked: the card drawn again keeps what is typed.
    this.initials.form = this.initialsForm();
    this.show(this.room.view);
    // Someone typing a message as the game ended goes on typing it.
    if (!inTextField(document.activeElement)) this.element.querySelector("#initials")?.focus({ preventScroll: true });
  }

  initialsForm() {
    const { best } = this.initials;
    const input = element("input", {
      id: "initials",
      maxlength: 3,
      size: 4,
      autocomplete: "off",
      pattern: "[A-Za-z0-9]{1,3}",
      required: true,
      "aria-describedby": "initials-words",
      "data-key": "initials",
    });
    const form = element(
      "form",
      { class: "initials", id: "initials-form" },
      element("p", { id: "initials-words" }, `New best score on this board: ${best.name}, ${best.score}. Initials for the score card:`),
      element(
        "div",
        { class: "initials-row" },
        input,
        element("button", { type: "submit", class: "primary", id: "initials-keep" }, "Keep them"),
        button("Skip", () => this.answered(), { id: "initials-skip" }),
      ),
    );
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const initials = input.value.trim();
      if (!initials) return;
      const { colour } = this.initials;
      if (await this.room.keepInitials(colour, initials)) this.answered();
    });
    return form;
  }

  /** The initials kept or skipped: the question goes for good. */
  answered() {
    if (this.initials) ANSWERED.add(this.initials.asked);
    this.initials = null;
    this.show(this.room.view);
  }
}
