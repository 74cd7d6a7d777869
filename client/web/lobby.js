/** The lobby (`/`): the public rooms, refreshed every few seconds, each with who is in it
 * (names, computer levels, ratings), its clock ("5+3", "3 days a move") and when it was made
 * and last moved; a player's own games (rooms in play to go back to, those waiting on their
 * move first and marked, with the time left on their clock, told apart the same way;
 * finished games with their results, rating changes and replays; and the button that lets
 * the page tell them when it is their turn); the leaderboards; a game file to replay; and
 * the New room form (newroom.js). */

import { showKeyDialog } from "./account.js";
import { SEAT_COLOURS } from "./boards/view.js";
import { clocked, clockText, controlLabel } from "./clock.js";
import { announce, button, element, rebuild, takeTold } from "./dom.js";
import { askGameFile } from "./files.js";
import { NewRoomForm } from "./newroom.js";
import { changeText, deltaText, outcomeText, ratingText, seatRating, whenText } from "./players.js";
import { rememberRecord } from "./replay.js";
import { forgetSeat, storedSeats, storeReplayFile } from "./storage.js";
import { setTitle } from "./turns.js";
import { count, describeHolder, isTime, listText, madeText, movedText, openSeats, peopleText, title } from "./words.js";

const REFRESH_MS = 3000;
/** How often "moved 3 min ago" is worked out again. */
const CLOCK_MS = 30000;
const MINE_SHOWN = 10;
/** How often a player's own games are asked for again. */
const MY_GAMES_MS = 15000;
const FINISHED_SHOWN = 10;

/** The lobby view. */
export class LobbyView {
  constructor(root, connection, navigate, turns = null) {
    this.root = root;
    this.connection = connection;
    this.navigate = navigate;
    /** The rooms waiting on this player (turns.js), told of every `my_games` read here. */
    this.turns = turns;
    this.onYourTurn = () => this.showMyGames({ rooms: false });
    this.timer = null;
    this.clock = null;
    this.gamesTimer = null;
    this.finishedShown = FINISHED_SHOWN;
    /** The rooms of My games as last read (`get_room`), by ref: who sits in them. */
    this.details = new Map();
    this.onReconnect = () => {
      if (this.newRoom.gameSelect.options.length === 0) this.show();
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
    setTitle("Parlour");
    this.roomsBody = element("tbody", {});
    this.roomsNote = element("p", { class: "note" }, "Looking for rooms…");
    this.newRoom = new NewRoomForm(this.connection, this.navigate);
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
      this.turns?.permissionControl() ?? null,
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
          this.toldNote(),
          this.newPlayerNote(),
          this.myGames,
          element("h1", {}, "Open rooms"),
          element(
            "table",
            { class: "room-list" },
            element(
              "thead",
              {},
              element("tr", {}, ...["Game", "Host", "Who plays", "Status", ""].map((h) => element("th", { scope: "col" }, h))),
            ),
            this.roomsBody,
          ),
          this.roomsNote,
          this.playersBox(),
        ),
        this.newRoom.element,
      ),
    );
    this.connection.addEventListener("reconnected", this.onReconnect);
    this.turns?.addEventListener("yourturn", this.onYourTurn);
    this.refresh();
    this.showMyGames();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.clock = setInterval(() => this.tellTimes(), CLOCK_MS);
    this.gamesTimer = setInterval(() => this.showMyGames({ rooms: false }), MY_GAMES_MS);
  }

  /** Why the page came back here, where a room sent it (the host sent this person out). */
  toldNote() {
    const told = takeTold();
    if (!told) return null;
    announce(told);
    return element("p", { class: "told", id: "told", role: "status" }, told);
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
    if (reply) this.turns?.fromMyGames(reply);
    const playing = waitingFirst(reply?.playing ?? []);
    const finished = reply?.finished ?? [];
    const listed = new Set(playing.flatMap((entry) => [entry.room, entry.ref]));
    if (rooms) {
      const found = await this.roomsOfTokens();
      if (this.left) return;
      this.tokenRooms = found;
    }
    await this.readDetails(playing);
    if (this.left) return;
    const others = this.tokenRooms.filter(({ ref, room }) => !listed.has(ref) && !listed.has(room.room));
    const shown = (room) => room && [room.status, room.state?.to_move, room.seats, room.created_at];
    const key = JSON.stringify([
      playing.map((entry) => [entry, shown(this.details.get(entry.ref))]),
      others.map(({ ref, room }) => [ref, room.public, shown(room)]),
    ]);
    rebuild(this.mine, key, () => [
      ...playing.map((entry) => this.playingItem(entry, this.details.get(entry.ref))),
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

  /** Who sits in each room of My games and how it stands, read with `get_room`; a room
   * that cannot be read is shown from what `my_games` says. */
  async readDetails(playing) {
    const refs = new Set(playing.slice(0, MINE_SHOWN).map((entry) => entry.ref));
    for (const ref of this.details.keys()) if (!refs.has(ref)) this.details.delete(ref);
    for (const ref of refs) {
      try {
        this.details.set(ref, (await this.connection.request({ type: "get_room", room: ref })).room);
      } catch {
        this.details.delete(ref);
      }
    }
  }

  /** A room the server says the player sits in, not finished: marked if it waits on their
   * move, a link back to it (a page proving the key takes the seat back without a token),
   * the seats the player plays, who else is there, how it stands, and when it was made and
   * last moved. */
  playingItem(entry, room = null) {
    const game = this.games.find((each) => each.name === entry.game);
    const mine = entry.seats ?? [];
    const waits = entry.turn === true;
    const parts = [this.roomLink(entry.ref, game?.title ?? title(entry.game)), ...controlTag(room?.time_control), ` · you play ${listText(mine.map(title))}`];
    if (waits) parts.unshift(element("strong", { class: "turn-mark" }, "Your turn"), " ");
    if (room) {
      const others = room.seats.filter((seat) => !mine.includes(seat.colour));
      if (others.length) parts.push(" with ", element("span", { class: "seat-tags" }, ...seatTags(others)));
    }
    let status = waits ? "your move" : room ? standing(room, mine) : entry.status;
    if (waits && Number.isInteger(entry.time_left_ms) && clocked(room?.time_control)) {
      status += `, ${clockText(entry.time_left_ms, room.time_control)} left`;
    }
    parts.push(element("br"), element("small", { class: "activity" }, ...joined([status, entry.ref !== entry.room ? "private" : null, ...times(entry.created_at ?? room?.created_at, entry.moved_at)])));
    return element("li", { "data-room": entry.room, class: waits ? "your-turn" : null }, ...parts);
  }

  /** A room this browser holds a seat token for. */
  tokenItem(ref, room) {
    const game = this.games.find((each) => each.name === room.game);
    return element(
      "li",
      { "data-room": room.room },
      this.roomLink(ref, game?.title ?? room.game),
      ...controlTag(room.time_control),
      " · ",
      element("span", { class: "seat-tags" }, ...seatTags(room.seats)),
      element("br"),
      element("small", { class: "activity" }, ...joined([standing(room, []), room.public ? null : "private", ...times(room.created_at, room.moved_at)])),
    );
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
          element("td", {}, whenText(entry.finished_at), element("br"), element("small", { class: "note" }, count(entry.moves, "move"))),
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
    for (const made of this.root.querySelectorAll(".lobby .made[data-at]")) {
      made.textContent = madeText(Number(made.dataset.at));
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
    this.turns?.removeEventListener("yourturn", this.onYourTurn);
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
      const link = element("a", { href: `/r/${room.room}`, class: "join", "data-key": room.room }, free.length ? "Join" : "Watch");
      link.addEventListener("click", (event) => {
        event.preventDefault();
        this.navigate(`/r/${room.room}`);
      });
      const board = typeof room.options?.board === "string" && room.options.board !== "random" ? `${room.options.board} board` : null;
      return element(
        "tr",
        { "data-room": room.room },
        element("td", { class: "game" }, titles[room.game] ?? room.game, board ? element("small", { class: "note" }, ` ${board}`) : null, ...controlTag(room.time_control)),
        element("td", { class: "host" }, room.host),
        element("td", { class: "who" }, element("div", { class: "seat-tags" }, ...seatTags(room.seats))),
        element("td", { class: "status" }, free.length ? `${room.status}, ${free.length} free` : room.status, ...this.activity(room)),
        element("td", {}, link),
      );
    });
  }

  /** How many are in a room, and when it was made and last moved, where the server says
   * (older servers do not). */
  activity(room) {
    const parts = [];
    if (Number.isInteger(room.people) && room.people >= 0) parts.push(element("span", { class: "people" }, peopleText(room.people)));
    parts.push(...times(room.created_at, room.moved_at));
    if (parts.length === 0) return [];
    return [element("br"), element("small", { class: "activity" }, ...joined(parts))];
  }
}

/** A room's clock after its game's name, where it has one: ` · 5+3`. */
function controlTag(control) {
  if (!clocked(control)) return [];
  return [element("small", { class: "time-control", title: "time control" }, ` · ${controlLabel(control)}`)];
}

/** Each seat as a tag: its colour's disc (named for screen readers), who holds it, and
 * their rating: `● Ann (1532)`, `● computer, level easy (1490?)`, `● open`. */
function seatTags(seats) {
  return seats.map((seat) => {
    const swatch = element("span", { class: "swatch", role: "img", "aria-label": `${title(seat.colour)}:` });
    swatch.style.background = SEAT_COLOURS[seat.colour] ?? "#888";
    const rating = ratingText(seatRating(seat));
    return element(
      "span",
      { class: `seat-tag${seat.holder?.kind === "open" ? " open" : ""}`, "data-colour": seat.colour, title: title(seat.colour) },
      swatch,
      `${describeHolder(seat.holder)}${rating ? ` (${rating})` : ""}`,
    );
  });
}

/** How a room stands for someone who plays `mine` there. */
function standing(room, mine) {
  const state = room.state;
  if (room.status === "waiting") {
    const free = openSeats(room.seats).length;
    return free ? `waiting for ${count(free, "player")}` : "waiting for the start";
  }
  if (room.status !== "playing" || !state) return room.status;
  if (!mine.includes(state.to_move)) return `${title(state.to_move)} to move`;
  const seat = room.seats.find((each) => each.colour === state.to_move);
  return seat?.holder?.kind === "human" ? "your move" : `${title(state.to_move)} to move (the computer plays it for you)`;
}

/** Rooms in play, those waiting on the player's move first, each part in the server's order. */
function waitingFirst(playing) {
  return [...playing.filter((entry) => entry.turn === true), ...playing.filter((entry) => entry.turn !== true)];
}

/** When a room was made and last moved, as spans the lobby's clock says again; a room
 * nobody has moved in yet (its `moved_at` its making) only when it was made. */
function times(created, moved) {
  const parts = [];
  if (isTime(created)) parts.push(element("span", { class: "made", "data-at": created }, madeText(created)));
  if (isTime(moved) && !(isTime(created) && moved <= created)) {
    parts.push(element("span", { class: "moved", "data-at": moved }, movedText(moved)));
  }
  return parts;
}

/** Parts joined by " · ", the empty ones left out. */
function joined(parts) {
  const kept = parts.filter((part) => part !== null && part !== undefined && part !== "");
  return kept.flatMap((part, i) => (i ? [" · ", part] : [part]));
}
