/** Rooms waiting on this player's move (protocol.md 2.10): their count in the page's title,
 * "(2) Parlour", kept from `my_games` and `your_turn` and from the rooms the page is in;
 * and, with the person's leave (asked on a click, never on load), a browser notification
 * when a room starts waiting while the tab is hidden, which opens that room. */

import { element } from "./dom.js";
import { listText, title } from "./words.js";

/** How often the rooms waiting are asked for again while some are counted: a move made
 * from another device tells this page nothing. */
const RECHECK_MS = 60000;

let shownTitle = document.title;
let waitingCount = 0;

/** Set the page's title, with the count of rooms waiting on this player in front. */
export function setTitle(text) {
  shownTitle = text;
  showTitle();
}

function showTitle() {
  document.title = waitingCount > 0 ? `(${waitingCount}) ${shownTitle}` : shownTitle;
}

/** Whether this browser can show notifications at all. */
function notificationsExist() {
  return typeof window.Notification === "function";
}

/** The rooms waiting on this player, as the server and the rooms' messages tell them.
 * Event: `yourturn` (detail: the `your_turn` message) when a room starts waiting. */
export class TurnNotices extends EventTarget {
  constructor(connection, navigate) {
    super();
    this.connection = connection;
    this.navigate = navigate;
    /** The rooms waiting on this player, by id: `{room, ref, game, seats}`. */
    this.waiting = new Map();
    /** The colours this player plays as a person in each room in play they sit in. */
    this.mine = new Map();
    this.recheck = null;
    connection.addEventListener("message", (event) => this.heard(event.detail));
    connection.addEventListener("reconnected", () => this.refresh());
  }

  get count() {
    return this.waiting.size;
  }

  /** Ask the server which rooms wait on this player (a player with a key only). */
  async refresh() {
    if (!this.connection.player) return;
    try {
      this.fromMyGames(await this.connection.request({ type: "my_games" }));
    } catch {
      // Asked again with the next `my_games`.
    }
  }

  /** `my_games` as the server answered it: the rooms marked `turn` wait, no others. */
  fromMyGames(reply) {
    const playing = Array.isArray(reply?.playing) ? reply.playing : [];
    this.waiting = new Map(playing.filter((entry) => entry.turn === true).map((entry) => [entry.room, entry]));
    for (const entry of playing) if (!this.mine.has(entry.room)) this.mine.set(entry.room, entry.seats ?? []);
    this.changed();
  }

  heard(message) {
    if (message?.type === "your_turn") this.yourTurn(message);
    else if (message?.type === "room") this.shown(message.room);
    else if (message?.type === "update") this.moved(message.room, message.state);
  }

  /** A room started waiting on this player: counted, and told if the tab is hidden. */
  yourTurn(message) {
    if (typeof message.room !== "string" || typeof message.ref !== "string") return;
    this.waiting.set(message.room, message);
    this.changed();
    this.dispatchEvent(new CustomEvent("yourturn", { detail: message }));
    this.notify(message);
  }

  /** A room's view: whether its seat to move is this player's, played by them. */
  shown(view) {
    const me = this.connection.player?.id;
    if (!me || !view || typeof view.room !== "string") return;
    const persons = (view.seats ?? []).filter((seat) => seat.holder?.kind === "human" && seat.holder?.player === me);
    this.mine.set(view.room, persons.map((seat) => seat.colour));
    this.moved(view.room, view.status === "playing" ? view.state : null);
  }

  /** A move (or a view) in a room: it waits on this player if a seat they play is to move. */
  moved(room, state) {
    const seats = this.mine.get(room);
    if (!seats) return;
    const waits = Boolean(state && !state.over && seats.includes(state.to_move));
    if (waits === this.waiting.has(room)) return;
    if (waits) this.waiting.set(room, { room, seats });
    else this.waiting.delete(room);
    this.changed();
  }

  changed() {
    waitingCount = this.count;
    showTitle();
    if (this.count > 0 && this.recheck === null) this.recheck = setInterval(() => this.refresh(), RECHECK_MS);
    if (this.count === 0 && this.recheck !== null) {
      clearInterval(this.recheck);
      this.recheck = null;
    }
  }

  /** A browser notification of a room waiting, when the page is out of sight and the
   * person allowed them; a click on it brings the tab forward and opens the room. */
  notify(message) {
    if (!notificationsExist() || Notification.permission !== "granted") return;
    if (document.visibilityState !== "hidden") return;
    const game = this.connection.games.find((each) => each.name === message.game);
    const seats = Array.isArray(message.seats) ? message.seats : [];
    const note = new Notification(`Your turn: ${game?.title ?? title(message.game)}`, {
      body: `You play ${listText(seats.map(title))} in room ${message.ref}. Click to go there.`,
      tag: `parlour-turn-${message.room}`,
    });
    note.addEventListener("click", () => {
      window.focus();
      note.close();
      this.navigate(`/r/${message.ref}`);
    });
  }

  /** A button that asks the browser's leave to tell this person of rooms waiting on them
   * while the page is hidden, or words that say how it stands; null where the browser has
   * no notifications or the person plays as a guest. */
  permissionControl() {
    if (!notificationsExist() || !this.connection.player) return null;
    const box = element("p", { class: "note turn-notices", id: "turn-notices" });
    const show = () => {
      if (Notification.permission === "granted") {
        box.replaceChildren("This page tells you when a game waits on your move, while it is in the background.");
      } else if (Notification.permission === "denied") {
        box.replaceChildren("Your browser does not let this page tell you when it is your turn: allow notifications for it in the browser's settings.");
      } else {
        const ask = element("button", { type: "button", class: "quiet", id: "ask-notices" }, "Tell me when it's my turn");
        ask.addEventListener("click", async () => {
          await Notification.requestPermission();
          show();
        });
        box.replaceChildren(ask, " while this page is in the background");
      }
    };
    show();
    return box;
  }
}
