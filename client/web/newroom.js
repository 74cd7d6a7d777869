/** The lobby's New room form: the game, who sits where, the clock and Create first, with a
 * line that says before creation whether the game will be rated and, if not, why (protocol.md
 * 2.10); the board's options, a start of one's own and the computers' pace folded below. */

import { BoardView } from "./boards/view.js";
import { controlLabel } from "./clock.js";
import { callCoin, callsCoin, openDialog } from "./dialogs.js";
import { button, element } from "./dom.js";
import { editPosition } from "./editor.js";
import { storeSeat } from "./storage.js";
import { defaultLevel, listText, title } from "./words.js";

const YOU = "you";
const OPEN = "open";
const BOT = "bot:";
const THINK_SECONDS = [1, 2, 3, 5, 10];
const STANDIN_SECONDS = 60;
const FLANK_GAMES = new Set(["tribolo", "numlo", "doublolo", "othello"]);
/** Live time controls as players ask for them: minutes each, seconds added a move. */
const LIVE_PRESETS = [
  [1, 0],
  [3, 2],
  [5, 3],
  [10, 5],
  [15, 10],
  [30, 0],
];
const NO_CLOCK = "none";
const CUSTOM_LIVE = "live-custom";
const DAYS = "days";
const MOST_DAYS = 14;
const DEFAULT_DAYS = 3;

/**
 * Whether a room made with these choices would rate its game, by the rules of protocol.md
 * 2.10 that can be known before it starts: `rated` the form's box, `position` a start of
 * one's own, `seats` each seat's `{colour, choice, name}` (`you`, `open`, `bot:LEVEL`),
 * `guest` whether this page plays without a player key. Returns `{rated, reasons, notes}`:
 * why the game will be friendly, and what could still make a rated one friendly.
 */
export function ratedOutlook({ rated, position, seats, guest }) {
  const reasons = [];
  const people = seats.filter((seat) => seat.choice === YOU);
  const open = seats.filter((seat) => seat.choice === OPEN);
  if (!rated) reasons.push("the Rated box is not ticked");
  if (position) reasons.push("it starts from a position of your own, not a dealt board");
  if (people.length === 0 && open.length === 0) reasons.push("no person plays: games of computers alone are never rated");
  if (guest && people.length > 0) reasons.push("you play as a guest: this browser has no player key the server knows");
  if (people.length > 1) {
    const others = people.slice(1).map((seat, index) => `${seat.name || `Player ${index + 2}`} (${title(seat.colour)})`);
    const verb = others.length === 1 ? "plays" : "play";
    reasons.push(`${listText(others)} ${verb} at this screen as ${others.length === 1 ? "a guest" : "guests"}: a game shared at one screen is a friendly game`);
  }
  const notes = [];
  if (reasons.length === 0) {
    if (open.length > 0) {
      const seatsWord = open.length === 1 ? "The open seat counts if whoever takes it" : "Open seats count if whoever takes them";
      notes.push(`${seatsWord} comes with a player key (every Parlour page and terminal makes one); a guest makes the game friendly.`);
    }
    notes.push("Best, Suggest, Undo or a seat changing hands during the game would make it friendly: the room asks first.");
  }
  return { rated: reasons.length === 0, reasons, notes };
}

/** How a start of one's own is written in a game, for the person typing one. */
function positionHelp(game) {
  if (FLANK_GAMES.has(game)) {
    const values = game === "numlo" ? " Numlo adds a space and each square's value, rows again joined by “/”." : "";
    return `The rows from the top, joined by “/”: “.” an empty square, “#” a blocked one, a seat's initial its piece; then a space and the initial of the seat that moves first.${values}`;
  }
  if (game === "tripppin") {
    return "The tile rows (two hex digits a tile) joined by “/”, each piece as square:targets reached, the initial of the seat to move, the plies played and the ply limit (0: none).";
  }
  if (game === "oubliette") {
    return "Easiest with Set up the board. As text: the rows from the top joined by “/” (“G” and “R” pieces, “.” empty, “*” a hole, “#” a block), the seat to move, the pieces each side pushed off, the most pieces a move may push, the pushes that win, the plies played and the ply limit.";
  }
  return "";
}

/** One option of a game as a labelled form control. */
function optionControl(option) {
  const id = `option-${option.name}`;
  let control;
  if (option.kind === "choice") {
    control = element(
      "select",
      { id, name: option.name },
      ...option.choices.map((choice) => element("option", { value: choice, selected: choice === option.default }, choice)),
    );
  } else {
    control = element("input", {
      id,
      name: option.name,
      type: "number",
      min: option.minimum,
      max: option.maximum,
      step: 1,
      value: option.default,
      required: true,
    });
  }
  control.dataset.kind = option.kind;
  return element(
    "div",
    { class: "field" },
    element("label", { for: id }, option.name.replace(/_/g, " ")),
    control,
    element("small", {}, option.help ?? ""),
  );
}

/** A labelled field. */
function field(id, label, control, help = null) {
  return element("div", { class: "field" }, element("label", { for: id }, label), control, help ? element("small", {}, help) : null);
}

/** The form, ready to put in the lobby as `element`. */
export class NewRoomForm {
  constructor(connection, navigate) {
    this.connection = connection;
    this.navigate = navigate;
    this.error = element("p", { class: "error", role: "alert" });
    this.element = element("div", { class: "new-room" }, element("h2", {}, "New room"), this.build(), this.error);
  }

  get games() {
    return this.connection.games;
  }

  build() {
    this.gameSelect = element("select", { id: "game", name: "game" }, ...this.games.map((game) => element("option", { value: game.name }, game.title)));
    this.seatsBox = element("fieldset", { class: "seats-choice" });
    this.optionsBox = element("fieldset", { class: "options" });
    this.board = element("input", { id: "board", name: "board", type: "number", min: 0, step: 1, placeholder: "any" });
    this.isPublic = element("input", { id: "public", name: "public", type: "checkbox", checked: true });
    this.rated = element("input", { id: "rated", name: "rated", type: "checkbox", checked: true });
    this.outlook = element("div", { class: "rated-outlook", id: "rated-outlook", role: "status" });
    const clock = this.clockBox();
    this.standin = element("input", { id: "standin", name: "standin", type: "number", min: 0, max: 3600, step: 1, value: STANDIN_SECONDS, required: true });
    this.leftSeats = element(
      "select",
      { id: "left-seats", name: "left_seats" },
      element("option", { value: "bot" }, "goes to the computer"),
      element("option", { value: "open" }, "opens for someone else"),
    );
    this.think = element("select", { id: "think", name: "think" }, ...THINK_SECONDS.map((s) => element("option", { value: s * 1000 }, `${s} s`)));
    this.more = element(
      "details",
      { class: "more-options", id: "more-options" },
      element("summary", {}, "Board and more options"),
      element(
        "div",
        { class: "more-fields" },
        this.optionsBox,
        field("board", "Board number", this.board, "the same number deals the same board; empty for a new one"),
        this.positionBox(),
        field("think", "Computer thinking time a move", this.think),
        field("standin", "Seconds before the computer plays for someone who dropped out", this.standin, "until they come back; 0: never"),
        field("left-seats", "A seat given up during the game", this.leftSeats),
      ),
    );
    const form = element(
      "form",
      { class: "create" },
      field("game", "Game", this.gameSelect),
      this.seatsBox,
      clock,
      element("div", { class: "field check" }, this.rated, element("label", { for: "rated" }, "Rated: the game counts for the players' ratings")),
      element("div", { class: "field check" }, this.isPublic, element("label", { for: "public" }, "Listed in Open rooms for anyone to join (else only by its link)")),
      this.outlook,
      element(
        "div",
        { class: "form-buttons" },
        element("button", { type: "submit", class: "primary", id: "create-room" }, "Create room"),
        button("See the board", () => this.see(), { id: "see-board" }),
      ),
      this.more,
    );
    this.gameSelect.addEventListener("change", () => this.gameChosen());
    for (const control of [this.rated, this.position]) control.addEventListener("input", () => this.tellOutlook());
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const submit = form.querySelector("button[type=submit]");
      if (submit.disabled) return;
      submit.disabled = true;
      try {
        await this.create();
      } finally {
        submit.disabled = false;
      }
    });
    this.form = form;
    this.gameChosen();
    return form;
  }

  /** The clock (protocol.md 2.12): none, live (a preset or minutes and seconds of one's own)
   * or days per move with a bank; only the fields of the kind chosen are shown and checked. */
  clockBox() {
    this.clockKind = element(
      "select",
      { id: "time-control", name: "time_control" },
      element("option", { value: NO_CLOCK }, "No clock: take your time"),
      element(
        "optgroup",
        { label: "Live: minutes each + seconds added a move" },
        ...LIVE_PRESETS.map(([minutes, increment]) => {
          const control = { kind: "live", base_s: minutes * 60, increment_s: increment };
          return element("option", { value: `live:${control.base_s}:${increment}` }, controlLabel(control));
        }),
        element("option", { value: CUSTOM_LIVE }, "Live, your own minutes and seconds…"),
      ),
      element("optgroup", { label: "Over days" }, element("option", { value: DAYS }, "Days per move…")),
    );
    this.clockMinutes = element("input", { id: "clock-minutes", type: "number", min: 0.25, max: 180, step: 0.25, value: 5, required: true });
    this.clockIncrement = element("input", { id: "clock-increment", type: "number", min: 0, max: 180, step: 1, value: 3, required: true });
    this.clockDays = element(
      "select",
      { id: "clock-days" },
      ...Array.from({ length: MOST_DAYS }, (_, i) => element("option", { value: i + 1, selected: i + 1 === DEFAULT_DAYS }, `${i + 1} day${i ? "s" : ""}`)),
    );
    this.clockBank = element("input", { id: "clock-bank", type: "number", min: 0, max: 28, step: 1, value: 0, required: true });
    this.customClock = element(
      "div",
      { class: "clock-fields", id: "clock-custom" },
      field("clock-minutes", "Minutes each", this.clockMinutes),
      field("clock-increment", "Seconds added a move", this.clockIncrement),
    );
    this.daysClock = element(
      "div",
      { class: "clock-fields", id: "clock-days-fields" },
      field("clock-days", "Each move within", this.clockDays),
      field("clock-bank", "Bank, in days", this.clockBank, "time a move leaves unused is kept for later moves, up to this; 0: none"),
    );
    this.clockKind.addEventListener("change", () => this.clockChosen());
    this.clockChosen();
    return element(
      "fieldset",
      { class: "clock-choice" },
      element("legend", {}, "Clock"),
      field("time-control", "Time for each player", this.clockKind),
      this.customClock,
      this.daysClock,
    );
  }

  /** Show (and check) only the fields of the kind of clock chosen. */
  clockChosen() {
    const kind = this.clockKind.value;
    this.customClock.hidden = kind !== CUSTOM_LIVE;
    this.daysClock.hidden = kind !== DAYS;
    for (const input of [this.clockMinutes, this.clockIncrement]) input.disabled = kind !== CUSTOM_LIVE;
    for (const input of [this.clockDays, this.clockBank]) input.disabled = kind !== DAYS;
  }

  /** The chosen clock as `create_room`'s `time_control`. */
  timeControl() {
    const kind = this.clockKind.value;
    if (kind === CUSTOM_LIVE) {
      return { kind: "live", base_s: Math.round(Number(this.clockMinutes.value) * 60), increment_s: Number(this.clockIncrement.value) };
    }
    if (kind === DAYS) return { kind: "days", days: Number(this.clockDays.value), bank_days: Number(this.clockBank.value) };
    if (kind.startsWith("live:")) {
      const [, base, increment] = kind.split(":");
      return { kind: "live", base_s: Number(base), increment_s: Number(increment) };
    }
    return { kind: NO_CLOCK };
  }

  /** Show the board these choices start from, as Tribolo's "See": a board number drawn
   * for it goes into the form, so that the room made next is the board seen. */
  async see() {
    this.error.textContent = "";
    const request = { type: "see", game: this.game().name, options: this.options() };
    const position = this.position.value.trim();
    if (position) request.position = position;
    else if (this.board.value !== "") request.board = Number(this.board.value);
    let seen;
    try {
      seen = await this.connection.request(request);
    } catch (error) {
      this.error.textContent = error.message;
      return;
    }
    if (!position) this.board.value = String(seen.board);
    const holder = element("div", { class: "board preview", id: "preview" });
    const named = seen.state.game && typeof request.options.board === "string" && request.options.board !== "random";
    const which = named ? `The ${request.options.board} board` : `Board ${seen.board}`;
    const heading = `${which}: ${title(seen.state.to_move)} moves first`;
    const { result } = openDialog(heading, [holder], [{ label: "Close", value: "close", primary: true }]);
    const view = new BoardView(holder);
    view.show(seen.state, { animate: false });
    await result;
    view.destroy();
  }

  /** A start of one's own in the game's position notation, in place of a dealt board: how
   * it is written, the board's own start to edit, and for Oubliette the board editor. */
  positionBox() {
    this.position = element("textarea", {
      id: "position",
      name: "position",
      rows: 2,
      maxlength: 4096,
      placeholder: "empty: deal a board",
      spellcheck: "false",
      "aria-describedby": "position-help",
    });
    this.positionHelp = element("small", { id: "position-help" });
    const copyStart = button("Use this board's start", () => this.fillStart(), { id: "start-position" });
    this.editButton = button("Set up the board", () => this.edit(), { id: "edit-board" });
    return element(
      "div",
      { class: "field" },
      element("label", { for: "position" }, "Start from a position of your own"),
      this.position,
      this.positionHelp,
      element("div", { class: "form-buttons" }, copyStart, this.editButton),
    );
  }

  /** The start the options and board number deal, in the notation, to change by hand. */
  async fillStart() {
    this.error.textContent = "";
    const request = { type: "see", game: this.game().name, options: this.options() };
    if (this.board.value !== "") request.board = Number(this.board.value);
    try {
      const seen = await this.connection.request(request);
      this.position.value = seen.state.position;
      this.board.value = "";
      this.tellOutlook();
    } catch (error) {
      this.error.textContent = error.message;
    }
  }

  async edit() {
    let start = this.position.value.trim();
    if (!start) {
      try {
        const seen = await this.connection.request({ type: "see", game: "oubliette", options: this.options(), board: 0 });
        start = seen.state.position;
      } catch (error) {
        this.error.textContent = error.message;
        return;
      }
    }
    const edited = await editPosition(this.connection, start);
    if (edited !== null) {
      this.position.value = edited;
      this.board.value = "";
      this.tellOutlook();
    }
  }

  game() {
    return this.games.find((game) => game.name === this.gameSelect.value) ?? this.games[0];
  }

  /** Rebuild the options and seats for the game now chosen. */
  gameChosen() {
    const game = this.game();
    if (!game) return;
    this.editButton.hidden = game.name !== "oubliette";
    this.position.value = "";
    this.positionHelp.textContent = positionHelp(game.name);
    this.optionsBox.replaceChildren(element("legend", {}, "Options"), ...game.options.map(optionControl));
    const levels = game.levels ?? [];
    const level = defaultLevel(game);
    const rows = game.seats.map((colour, index) => {
      const id = `seat-${colour}`;
      const select = element(
        "select",
        { id, name: id, "data-colour": colour },
        element("option", { value: YOU, selected: index === 0 }, "A person at this screen"),
        element("option", { value: OPEN }, "Open, for a friend"),
        ...levels.map((each) => element("option", { value: `${BOT}${each}`, selected: index !== 0 && each === level }, `Computer, level ${each}`)),
      );
      const name = element("input", {
        id: `name-${colour}`,
        "data-colour": colour,
        maxlength: 32,
        placeholder: "their name",
        "aria-label": `Name of the person playing ${title(colour)}`,
        hidden: true,
      });
      select.addEventListener("change", () => this.seatsChanged());
      name.addEventListener("input", () => this.tellOutlook());
      return element("div", { class: "seat-choice" }, element("label", { for: id }, title(colour)), select, name);
    });
    this.seatsBox.replaceChildren(
      element("legend", {}, "Who plays"),
      ...rows,
      element("small", { id: "seats-note" }, "Several people at this screen take turns at one keyboard."),
    );
    this.seatsChanged();
  }

  /** A name field for each person at this screen but the first, and the outlook again. */
  seatsChanged() {
    const people = this.seatChoices().filter((seat) => seat.choice === YOU);
    for (const input of this.seatsBox.querySelectorAll("input[data-colour]")) {
      input.hidden = !people.slice(1).some((seat) => seat.colour === input.dataset.colour);
    }
    this.tellOutlook();
  }

  /** Say whether the game will count, live as the choices change. */
  tellOutlook() {
    const outlook = ratedOutlook({
      rated: this.rated.checked,
      position: this.position.value.trim(),
      seats: this.seatChoices(),
      guest: !this.connection.player,
    });
    const parts = [];
    if (outlook.rated) {
      parts.push(element("p", { class: "outlook-head" }, "Rated: the game will count for the players' ratings."));
    } else {
      const why = outlook.reasons.map((reason) => element("li", {}, `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`));
      parts.push(element("p", { class: "outlook-head" }, "A friendly game: it will not count for ratings, because"), element("ul", {}, ...why));
    }
    parts.push(...outlook.notes.map((note) => element("p", { class: "note" }, note)));
    this.outlook.replaceChildren(...parts);
    this.outlook.dataset.rated = String(outlook.rated);
  }

  /** Each seat's colour, who is to hold it, and the name typed for a person at this screen. */
  seatChoices() {
    return [...this.seatsBox.querySelectorAll("select")].map((select) => ({
      colour: select.dataset.colour,
      choice: select.value,
      name: this.seatsBox.querySelector(`input[data-colour="${select.dataset.colour}"]`)?.value.trim() ?? "",
    }));
  }

  options() {
    const options = {};
    for (const control of this.optionsBox.querySelectorAll("input, select")) {
      options[control.name] = control.dataset.kind === "int" ? Number(control.value) : control.value;
    }
    return options;
  }

  async create() {
    this.error.textContent = "";
    const game = this.game();
    const choices = this.seatChoices();
    const people = choices.filter((seat) => seat.choice === YOU);
    const position = this.position.value.trim();
    const request = {
      type: "create_room",
      game: game.name,
      options: this.options(),
      public: this.isPublic.checked,
      rated: this.rated.checked,
      seat: people[0]?.colour ?? null,
      bot_think_ms: Number(this.think.value),
      standin_after: Number(this.standin.value),
      left_seats: this.leftSeats.value,
      time_control: this.timeControl(),
    };
    if (position) request.position = position;
    else if (this.board.value !== "") request.board = Number(this.board.value);
    let joined;
    try {
      joined = await this.connection.request(request);
    } catch (error) {
      this.error.textContent = error.message;
      return;
    }
    const ref = joined.code ?? joined.room.room;
    storeSeat(ref, { token: joined.token });
    try {
      for (const [index, { colour, name }] of people.slice(1).entries()) {
        const person = name || `Player ${index + 2}`;
        await this.connection.request({ type: "join", room: ref, seat: colour, name: person });
      }
      for (const { colour, choice } of choices) {
        if (choice.startsWith(BOT)) {
          await this.connection.request({ type: "set_seat", room: ref, seat: colour, holder: "bot", level: choice.slice(BOT.length) });
        }
      }
      if (!choices.some((seat) => seat.choice === OPEN)) {
        const start = { type: "start", room: ref };
        if (callsCoin(game, joined.room, people)) {
          const call = await callCoin();
          if (call) start.call = call;
        }
        await this.connection.request(start);
      }
    } catch {
      // The room is made and ours: its page shows the seats as they are, to set by hand.
    }
    this.navigate(`/r/${ref}`);
  }
}
