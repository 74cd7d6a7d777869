/** The lobby (`/`): the public rooms, refreshed every few seconds, with their players'
 * ratings; a player's own games (rooms in play to go back to, finished games with their
 * results, rating changes and replays); the leaderboards; a game file to replay; and the
 * form that makes a new room: game, options, board number, public or private, rated or
 * not, and who sits where. */

import { showKeyDialog } from "./account.js";
import { BoardView } from "./boards/view.js";
import { button, element, rebuild } from "./dom.js";
import { callCoin, callsCoin, openDialog } from "./dialogs.js";
import { editPosition } from "./editor.js";
import { askGameFile } from "./files.js";
import { changeText, deltaText, outcomeText, ratingText, seatRating, whenText } from "./players.js";
import { rememberRecord } from "./replay.js";
import { forgetSeat, storedSeats, storeReplayFile, storeSeat } from "./storage.js";
import { defaultLevel, describeHolder, movedText, openSeats, peopleText, title } from "./words.js";

const REFRESH_MS = 3000;
/** How often "moved 3 min ago" is worked out again. */
const CLOCK_MS = 30000;
const YOU = "you";
const OPEN = "open";
const MINE_SHOWN = 10;
const THINK_SECONDS = [1, 2, 3, 5, 10];
const STANDIN_SECONDS = 60;
/** How often a player's own games are asked for again. */
const MY_GAMES_MS = 15000;
const FINISHED_SHOWN = 10;

/** One option of a game as a labelled form control. */
function optionControl(option) {
  const id = `option-${option.name}`;
  let control;
  if (option.kind === "choice") {
    control = element(
      "select",
      { id, name: option.name },
      ...option.choices.map((choice) =>
        element("option", { value: choice, selected: choice === option.default }, choice),
      ),
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

/** The lobby view. */
export class LobbyView {
  constructor(root, connection, navigate) {
    this.root = root;
    this.connection = connection;
    this.navigate = navigate;
    this.timer = null;
    this.clock = null;
    this.gamesTimer = null;
    this.finishedShown = FINISHED_SHOWN;
    this.onReconnect = () => {
      if (this.gameSelect.options.length === 0) this.show();
      else {
        this.refresh();
        this.showMyGames();
      }
    };
  }

  get games() {
    return this.connection.games;
  }

  show() {
    this.destroy();
    this.left = false;
    document.title = "Parlour";
    this.roomsBody = element("tbody", {});
    this.roomsNote = element("p", { class: "note" }, "Looking for rooms…");
    this.error = element("p", { class: "error", role: "alert" });
    this.form = this.buildForm();
    this.mine = element("ul", { class: "my-rooms", id: "my-rooms" });
    this.tokenRooms = [];
    this.finishedBody = element("tbody", {});
    this.finishedMore = element("p", {});
    this.myGamesNote = element("p", { class: "note", id: "my-games-note" });
    this.playingBox = element("div", { hidden: true }, element("h3", {}, "Rooms to go back to"), this.mine);
    this.finishedBox = element(
      "div",
      { hidden: true },
      element("h3", {}, "Finished games"),
      element(
        "table",
        { class: "finished-list", id: "my-finished" },
        element("thead", {}, element("tr", {}, ...["Game", "When", "Result", "Rating", ""].map((h) => element("th", { scope: "col" }, h)))),
        this.finishedBody,
      ),
      this.finishedMore,
    );
    this.myGames = element(
      "div",
      { class: "my-games", id: "my-games", hidden: true },
      element("h2", {}, "My games"),
      this.playingBox,
      this.finishedBox,
      this.myGamesNote,
    );
    this.root.replaceChildren(
      element(
        "section",
        { class: "lobby" },
        element(
          "div",
          { class: "rooms" },
          this.newPlayerNote(),
          this.myGames,
          element("h1", {}, "Open rooms"),
          element(
            "table",
            { class: "room-list" },
            element(
              "thead",
              {},
              element(
                "tr",
                {},
                ...["Game", "Host", "Seats", "Status", ""].map((h) => element("th", {}, h)),
              ),
            ),
            this.roomsBody,
          ),
          this.roomsNote,
          this.playersBox(),
        ),
        element("div", { class: "new-room" }, element("h2", {}, "New room"), this.form, this.error),
      ),
    );
    this.connection.addEventListener("reconnected", this.onReconnect);
    this.refresh();
    this.showMyGames();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.clock = setInterval(() => this.tellTimes(), CLOCK_MS);
    this.gamesTimer = setInterval(() => this.showMyGames({ rooms: false }), MY_GAMES_MS);
  }

  /** The first time a key says hello: what it is, and where to find it. */
  newPlayerNote() {
    if (!this.connection.player?.new || !this.connection.key) return null;
    return element(
      "p",
      { class: "note new-player", id: "new-player" },
      "This browser made you a player key: it keeps your name, your games and your ratings. To play as yourself elsewhere, copy it from ",
      button("Your key", () => showKeyDialog(this.connection), { class: "quiet" }),
      ".",
    );
  }

  /** The leaderboards, one link a game, and a game file to step through. */
  playersBox() {
    const links = this.games.map((game) => {
      const link = element("a", { href: `/#leaderboard/${game.name}`, "data-game": game.name }, game.title);
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.navigate(`/#leaderboard/${game.name}`);
      });
      return link;
    });
    const nav = element("nav", { class: "game-tabs", id: "leaderboards", "aria-label": "Leaderboards" });
    links.forEach((link, i) => nav.append(...(i ? [" ", link] : [link])));
    return element(
      "div",
      { class: "players-box" },
      element("h2", {}, "Leaderboards"),
      nav,
      element("h2", {}, "Replays"),
      element(
        "p",
        {},
        button("Replay a game file", () => this.replayFile(), { id: "replay-file" }),
        " ",
        element("small", { class: "note" }, "step through a game exported from a room, with the computer's view of who was winning"),
      ),
    );
  }

  /** A game file chosen or pasted, to step through at `/#replay/file`. */
  async replayFile() {
    const text = await askGameFile("Replay a game file", "replay", "Replay");
    if (text === null) return;
    storeReplayFile(text);
    this.navigate("/#replay/file");
  }

  /** My games: the rooms to go back to (those the server knows the player sits in, then
   * those this browser holds a seat token for) and the player's finished games. A guest
   * has only the rooms of the tokens. */
  async showMyGames({ rooms = true } = {}) {
    let reply = null;
    if (this.connection.player) {
      try {
        reply = await this.connection.request({ type: "my_games" });
      } catch {
        reply = null;
      }
    }
    if (this.left) return;
    const playing = reply?.playing ?? [];
    const finished = reply?.finished ?? [];
    const listed = new Set(playing.flatMap((entry) => [entry.room, entry.ref]));
    if (rooms) {
      const found = await this.roomsOfTokens();
      if (this.left) return;
      this.tokenRooms = found;
    }
    const others = this.tokenRooms.filter(({ ref, room }) => !listed.has(ref) && !listed.has(room.room));
    const key = JSON.stringify([playing, others.map(({ ref, room }) => [ref, room.status, room.state?.to_move, room.public])]);
    rebuild(this.mine, key, () => [
      ...playing.map((entry) => this.playingItem(entry)),
      ...others.map(({ ref, room }) => this.tokenItem(ref, room)),
    ]);
    this.finishedRows(finished);
    const inPlay = playing.length + others.length;
    this.playingBox.hidden = inPlay === 0;
    this.finishedBox.hidden = finished.length === 0;
    this.myGamesNote.textContent = reply && !inPlay && !finished.length ? "Your games show here: the rooms you sit in, and the games you finished, to replay." : "";
    this.myGames.hidden = !reply && inPlay === 0;
    this.tellTimes();
  }

  /** A room the server says the player sits in, not finished: a link back to it (a page
   * proving the key takes the seat back without a token). */
  playingItem(entry) {
    const game = this.games.find((each) => each.name === entry.game);
    const link = this.roomLink(entry.ref, game?.title ?? title(entry.game));
    const seats = (entry.seats ?? []).map(title).join(" and ");
    const parts = [link, ` · you play ${seats} · ${entry.status}${entry.ref !== entry.room ? " · private" : ""}`];
    if (Number.isFinite(entry.moved_at) && entry.moved_at > 0) {
      parts.push(" · ", element("span", { class: "moved", "data-at": entry.moved_at }, movedText(entry.moved_at)));
    }
    return element("li", { "data-room": entry.room }, ...parts);
  }

  /** A room this browser holds a seat token for. */
  tokenItem(ref, room) {
    const game = this.games.find((each) => each.name === room.game);
    const state = room.state;
    const status = room.status === "playing" && state ? `${title(state.to_move)} to move` : room.status;
    return element("li", { "data-room": room.room }, this.roomLink(ref, game?.title ?? room.game), ` · ${status}${room.public ? "" : " · private"}`);
  }

  roomLink(ref, text) {
    const link = element("a", { href: `/r/${ref}`, "data-ref": ref, "data-key": ref }, text);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.navigate(`/r/${ref}`);
    });
    return link;
  }

  /** The player's finished games, newest first: the game, when, the result, the rating
   * change, and a link to step through it. */
  finishedRows(finished) {
    const me = this.connection.player?.id;
    const shown = finished.slice(0, this.finishedShown);
    for (const entry of finished) rememberRecord(entry);
    rebuild(this.finishedBody, JSON.stringify([shown, me]), () =>
      shown.map((entry) => {
        const game = this.games.find((each) => each.name === entry.game);
        const seats = entry.seats ?? [];
        const mine = seats.find((seat) => seat.player === me) ?? null;
        const scores = seats.map((seat) => `${seat.player === me ? "you" : seat.name ?? title(seat.colour)} ${seat.score}`).join(", ");
        const outcome = mine ? outcomeText(mine.outcome) : "";
        const rating = mine?.rating
          ? element("span", { class: `rating-change ${mine.rating.after >= mine.rating.before ? "up" : "down"}`, title: changeText(mine.rating) }, deltaText(mine.rating))
          : element("span", { class: "note" }, entry.rated ? "" : "unrated");
        const replay = element("a", { href: `/#replay/${encodeURIComponent(entry.record)}`, class: "replay-link", "data-record": entry.record }, "Replay");
        replay.addEventListener("click", (event) => {
          event.preventDefault();
          this.navigate(`/#replay/${encodeURIComponent(entry.record)}`);
        });
        const preset = entry.preset && entry.preset !== "standard" ? element("small", { class: "note" }, ` ${entry.preset}`) : null;
        return element(
          "tr",
          { "data-record": entry.record },
          element("td", {}, game?.title ?? title(entry.game), preset),
          element("td", {}, whenText(entry.finished_at), element("br"), element("small", { class: "note" }, `${entry.moves} moves`)),
          element("td", { class: `outcome ${mine?.outcome ?? ""}`.trim() }, outcome ? element("strong", {}, outcome) : null, outcome ? element("br") : null, element("small", {}, scores)),
          element("td", { class: "rating" }, rating),
          element("td", {}, replay),
        );
      }),
    );
    const more = finished.length - shown.length;
    if (more > 0) {
      const all = element("button", { type: "button", class: "quiet", id: "more-finished" }, `Show ${more} more`);
      all.addEventListener("click", () => {
        this.finishedShown = finished.length;
        this.finishedRows(finished);
      });
      this.finishedMore.replaceChildren(all);
    } else {
      this.finishedMore.replaceChildren();
    }
  }

  /** Say again how long ago each listed room's last move was. */
  tellTimes() {
    for (const moved of this.root.querySelectorAll(".lobby .moved[data-at]")) {
      moved.textContent = movedText(Number(moved.dataset.at));
    }
  }

  /** The rooms this browser holds seats in, as they are now: [{ref, room}]; rooms that
   * have closed are forgotten. */
  async roomsOfTokens() {
    const found = [];
    for (const [ref] of storedSeats().slice(0, MINE_SHOWN)) {
      try {
        found.push({ ref, room: (await this.connection.request({ type: "get_room", room: ref })).room });
      } catch (error) {
        if (error.code === "no_such_room") forgetSeat(ref);
      }
    }
    return found;
  }

  destroy() {
    this.left = true;
    clearInterval(this.timer);
    clearInterval(this.clock);
    clearInterval(this.gamesTimer);
    this.connection.removeEventListener("reconnected", this.onReconnect);
  }

  async refresh() {
    let reply;
    try {
      reply = await this.connection.request({ type: "list_rooms" });
    } catch {
      return;
    }
    rebuild(this.roomsBody, JSON.stringify(reply.rooms), () => this.roomRows(reply.rooms));
    this.tellTimes();
    this.roomsNote.textContent = reply.rooms.length ? "" : "No public rooms yet: make one.";
  }

  roomRows(rooms) {
    const titles = Object.fromEntries(this.games.map((game) => [game.name, game.title]));
    return rooms.map((room) => {
      const free = openSeats(room.seats);
      const seats = room.seats
        .map((seat) => {
          const rating = ratingText(seatRating(seat));
          return `${title(seat.colour)}: ${describeHolder(seat.holder)}${rating ? ` (${rating})` : ""}`;
        })
        .join("; ");
      const link = element(
        "a",
        { href: `/r/${room.room}`, class: "join", "data-key": room.room },
        free.length ? "Join" : "Watch",
      );
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.navigate(`/r/${room.room}`);
      });
      return element(
        "tr",
        { "data-room": room.room },
        element("td", {}, titles[room.game] ?? room.game),
        element("td", {}, room.host),
        element("td", {}, seats),
        element("td", { class: "status" }, free.length ? `${room.status}, ${free.length} free` : room.status, ...this.activity(room)),
        element("td", {}, link),
      );
    });
  }

  /** Who is in a room and when it last moved, where the server says (older servers do not). */
  activity(room) {
    const parts = [];
    if (Number.isInteger(room.people) && room.people >= 0) {
      parts.push(element("span", { class: "people" }, peopleText(room.people)));
    }
    if (typeof room.moved_at === "number" && Number.isFinite(room.moved_at) && room.moved_at > 0) {
      parts.push(element("span", { class: "moved", "data-at": room.moved_at }, movedText(room.moved_at)));
    }
    if (parts.length === 0) return [];
    const line = element("small", { class: "activity" });
    parts.forEach((part, i) => line.append(...(i ? [" · ", part] : [part])));
    return [element("br"), line];
  }

  buildForm() {
    const gameSelect = element(
      "select",
      { id: "game", name: "game" },
      ...this.games.map((game) => element("option", { value: game.name }, game.title)),
    );
    this.gameSelect = gameSelect;
    this.optionsBox = element("fieldset", { class: "options" });
    this.seatsBox = element("fieldset", { class: "seats-choice" });
    const board = element("input", {
      id: "board",
      name: "board",
      type: "number",
      min: 0,
      step: 1,
      placeholder: "any",
    });
    const isPublic = element("input", { id: "public", name: "public", type: "checkbox", checked: true });
    const rated = element("input", { id: "rated", name: "rated", type: "checkbox", checked: true });
    const standin = element("input", {
      id: "standin",
      name: "standin",
      type: "number",
      min: 0,
      max: 3600,
      step: 1,
      value: STANDIN_SECONDS,
      required: true,
    });
    const leftSeats = element(
      "select",
      { id: "left-seats", name: "left_seats" },
      element("option", { value: "bot" }, "goes to the computer"),
      element("option", { value: "open" }, "opens for someone else"),
    );
    const think = element(
      "select",
      { id: "think", name: "think" },
      ...THINK_SECONDS.map((s) => element("option", { value: s * 1000 }, `${s} s`)),
    );
    const form = element(
      "form",
      { class: "create" },
      element("div", { class: "field" }, element("label", { for: "game" }, "Game"), gameSelect),
      this.optionsBox,
      element(
        "div",
        { class: "field" },
        element("label", { for: "board" }, "Board number"),
        board,
        element("small", {}, "the same number deals the same board; empty for a new one"),
      ),
      this.positionBox(board),
      this.seatsBox,
      element(
        "div",
        { class: "field" },
        element("label", { for: "think" }, "Computer thinking time a move"),
        think,
      ),
      element(
        "div",
        { class: "field" },
        element("label", { for: "standin" }, "Seconds before the computer plays for someone who dropped out"),
        standin,
        element("small", {}, "until they come back; 0: never"),
      ),
      element(
        "div",
        { class: "field" },
        element("label", { for: "left-seats" }, "A seat given up during the game"),
        leftSeats,
      ),
      element(
        "div",
        { class: "field check" },
        isPublic,
        element("label", { for: "public" }, "Listed here for anyone to join (else only by its link)"),
      ),
      element(
        "div",
        { class: "field check" },
        rated,
        element("label", { for: "rated" }, "Rated: the game counts for the players' ratings (unless someone asks for the best move or a suggestion, or takes a move back)"),
      ),
      element(
        "div",
        { class: "dialog-buttons" },
        element("button", { type: "button", id: "see-board" }, "See the board"),
        element("button", { type: "submit", class: "primary" }, "Create room"),
      ),
    );
    gameSelect.addEventListener("change", () => this.gameChosen());
    rated.title = "A game from a position, or one where a seat changes hands, is never rated.";
    form.querySelector("#see-board").addEventListener("click", () => this.see(board));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const submit = form.querySelector("button[type=submit]");
      if (submit.disabled) return;
      submit.disabled = true;
      try {
        await this.create({
          board: board.value,
          isPublic: isPublic.checked,
          rated: rated.checked,
          thinkMs: Number(think.value),
          standinAfter: Number(standin.value),
          position: this.position.value.trim(),
          leftSeats: leftSeats.value,
        });
      } finally {
        submit.disabled = false;
      }
    });
    this.gameChosen();
    return form;
  }

  /** Show the board these choices start from, as Tribolo's "See": a board number drawn
   * for it goes into the form, so that the room made next is the board seen. */
  async see(boardField) {
    this.error.textContent = "";
    const request = { type: "see", game: this.game().name, options: this.options() };
    const position = this.position.value.trim();
    if (position) request.position = position;
    else if (boardField.value !== "") request.board = Number(boardField.value);
    let seen;
    try {
      seen = await this.connection.request(request);
    } catch (error) {
      this.error.textContent = error.message;
      return;
    }
    if (!position) boardField.value = String(seen.board);
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

  /** A start of one's own in the game's position notation, in place of a dealt board; for
   * Oubliette, set up in the board editor. */
  positionBox(boardField) {
    this.position = element("textarea", {
      id: "position",
      name: "position",
      rows: 2,
      maxlength: 4096,
      placeholder: "empty: deal a board",
      spellcheck: "false",
    });
    this.editButton = element("button", { type: "button", id: "edit-board" }, "Set up the board");
    this.editButton.addEventListener("click", async () => {
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
        boardField.value = "";
      }
    });
    return element(
      "div",
      { class: "field" },
      element("label", { for: "position" }, "Start from a position"),
      this.position,
      this.editButton,
      element("small", {}, "in the game's notation (the README shows it); a board number is then not used"),
    );
  }

  game() {
    return this.games.find((game) => game.name === this.gameSelect.value) ?? this.games[0];
  }

  /** Rebuild the options and seats for the game now chosen. */
  gameChosen() {
    const game = this.game();
    if (!game) return;
    if (this.editButton) this.editButton.hidden = game.name !== "oubliette";
    if (this.position) this.position.value = "";
    this.optionsBox.replaceChildren(
      element("legend", {}, "Options"),
      ...game.options.map(optionControl),
    );
    const levels = game.levels ?? [];
    const level = defaultLevel(game);
    const rows = game.seats.map((colour, index) => {
      const id = `seat-${colour}`;
      const choices = [
        element("option", { value: YOU, selected: index === 0 }, "A person at this screen"),
        element("option", { value: OPEN }, "Open, for a friend"),
        ...levels.map((each) =>
          element(
            "option",
            { value: `bot:${each}`, selected: index !== 0 && each === level },
            `Computer, level ${each}`,
          ),
        ),
      ];
      const select = element("select", { id, name: id, "data-colour": colour }, ...choices);
      const name = element("input", {
        id: `name-${colour}`,
        "data-colour": colour,
        maxlength: 32,
        placeholder: "their name",
        "aria-label": `Name of the person playing ${title(colour)}`,
      });
      const showName = () => {
        const yours = this.seatChoices().filter((seat) => seat.choice === YOU);
        for (const input of this.seatsBox.querySelectorAll("input[data-colour]")) {
          input.hidden = !yours.slice(1).some((seat) => seat.colour === input.dataset.colour);
        }
      };
      select.addEventListener("change", showName);
      name.hidden = true;
      return element(
        "div",
        { class: "field" },
        element("label", { for: id }, title(colour)),
        select,
        name,
      );
    });
    this.seatsBox.replaceChildren(
      element("legend", {}, "Seats"),
      ...rows,
      element("small", {}, "Several people at this screen take turns at one keyboard."),
    );
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

  async create({ board, isPublic, rated = true, thinkMs, standinAfter, position, leftSeats }) {
    this.error.textContent = "";
    const game = this.game();
    const choices = this.seatChoices();
    const people = choices.filter((seat) => seat.choice === YOU);
    const mine = people[0]?.colour ?? null;
    const request = {
      type: "create_room",
      game: game.name,
      options: this.options(),
      public: isPublic,
      rated,
      seat: mine,
      bot_think_ms: thinkMs,
      standin_after: standinAfter,
      left_seats: leftSeats,
    };
    if (position) request.position = position;
    else if (board !== "") request.board = Number(board);
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
        if (choice.startsWith("bot:")) {
          const level = choice.slice(4);
          await this.connection.request({ type: "set_seat", room: ref, seat: colour, holder: "bot", level });
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
