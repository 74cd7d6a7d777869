/** A room (`/r/CODE`): the board with whose turn it is, the seats with their scores and
 * ratings, whether the game is rated, the room's commands as grouped buttons (controls.js),
 * the hints and the thinking, chat and the move list; at the end, the result and rating
 * changes beside the board (gameover.js); with a time control, each seat's clock by its seat
 * (clocks.js), and for a person away the ask that the computer play their seat
 * (handover.js). Typing anywhere is chat, never a command (typing.js). Watchers are told
 * they watch and are listed by the seats; their chat is kept apart from the players' (a
 * player sees it once they choose to). A person's name is a button for muting, blocking,
 * reporting, or the host sending them out (conduct.js); the one who stayed may claim a game
 * the others are away from. `/r/CODE#replay` steps through the room's game so far in place
 * of the room, which goes on meanwhile. */

import { BoardView, SEAT_COLOURS } from "./boards/view.js";
import { clocked, controlLabel } from "./clock.js";
import { SeatClocks } from "./clocks.js";
import { ConnectionLost } from "./connection.js";
import { RoomControls } from "./controls.js";
import { askAboutPerson, hidesChat, standingOf } from "./conduct.js";
import { callCoin, callsCoin, openDialog } from "./dialogs.js";
import { announce, button, copyButton, element, rebuild, tellNext } from "./dom.js";
import { presetOf, RoomFiles } from "./files.js";
import { GameOver } from "./gameover.js";
import { askHandOver, handOverButton, handOverSeats } from "./handover.js";
import { entryLines } from "./history.js";
import { changeText, ratingText, ratingTitle, seatRating } from "./players.js";
import { ReplayView } from "./replay.js";
import * as sound from "./sound.js";
import { forgetSeat, soundOn, storedSeat, storeSeat, storeSound, storeWatchersChat, watchersChatShown } from "./storage.js";
import { setTitle } from "./turns.js";
import { TypingToChat } from "./typing.js";
import {
  claimText,
  coinText,
  count,
  defaultLevel,
  describeHolder,
  endingText,
  fold,
  holderText,
  listText,
  moveText,
  openSeats,
  passText,
  proposalEndedText,
  proposalMadeText,
  proposalQuestion,
  readGameFile,
  refusalText,
  REMOVED_TEXT,
  resignText,
  searchText,
  seatAndHolder,
  seatLabel,
  seatText,
  skipped,
  title,
  turnText,
  watchingText,
} from "./words.js";

const SUGGEST_MS = 2000;
const LOG_LINES = 200;
const GONE = "no_such_room";
const REMOVED = "removed";
const UNAVAILABLE = "unavailable";
const ENTER_AGAIN_MS = 1000;
const ARROWS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]);
/** Games whose moves take several clicks: Possible marks the pieces that can move. */
const PICKED_MOVES = new Set(["oubliette"]);
const NOT_STARTED = "The game has not started yet.";
const ABORTED = "The game ends now and counts for nobody.";
const REPLAY_HASH = "#replay";
const CHAT_HINT = "Typing anywhere goes here: Enter sends, Esc leaves.";
const WATCHER_HINT = "You are watching: what you say goes to the watchers' chat, which the players see only if they choose to.";

/** How to play a square without the mouse, for the line under the board. */
function boardHelp(game) {
  if (PICKED_MOVES.has(game)) {
    return "Click the pieces of the line, then the cell the last one moves to (Esc drops them); or the arrow keys and Enter on the board.";
  }
  return "Click a square to play it, or move over the board with the arrow keys and press Enter.";
}

/** A disc of a seat's colour, before its name. */
function seatSwatch(colour) {
  const swatch = element("span", { class: "swatch", "aria-hidden": "true" });
  swatch.style.background = SEAT_COLOURS[colour] ?? "#888";
  return swatch;
}

/** The room view: everything the room page shows and does. */
export class RoomView {
  constructor(root, connection, ref, navigate) {
    this.root = root;
    this.connection = connection;
    this.ref = ref;
    this.navigate = navigate;
    this.view = null;
    this.seat = null;
    this.host = false;
    this.thinkingOn = false;
    this.proposalDialog = null;
    /** The open proposals' words' context, by id: the room as it was when each was made. */
    this.proposals = new Map();
    this.moving = false;
    /** Each move as it was played: its text, seat, who held the seat, the seats passed over. */
    this.played = [];
    this.playedFor = null;
    this.historyAsked = null;
    /** The position the hints shown belong to, and whether the line under the board shows
     * a hint (or a suggestion) rather than the computer's thinking. */
    this.hintsFor = null;
    this.hintShown = false;
    /** A waiting room's board, as `see` deals it: {key, seen}. */
    this.waitingBoard = null;
    /** Whether the seats show who may change hands: null follows the room (open while it
     * waits), else the person's choice. */
    this.changingSeats = null;
    /** Whether a player here shows the watchers' chat: their choice, for the tab. */
    this.watchersShown = watchersChatShown();
    /** Whether the game could be claimed when last drawn: told once as it becomes so. */
    this.claimWas = false;
    this.files = new RoomFiles(this);
    this.over = new GameOver(this);
    this.clocks = new SeatClocks({ mine: () => this.playing(), lowTime: (colour) => this.lowTime(colour) });
    this.onMessage = (event) => this.receive(event.detail);
    this.onReconnect = () => {
      this.proposalId = null;
      this.proposals.clear();
      this.proposalDialog?.close();
      this.say("");
      this.enter();
    };
    this.onArrow = (event) => this.arrow(event);
  }

  // The page.

  show() {
    this.heading = element("h1", {}, "Room");
    this.turn = element("p", { class: "turn", id: "turn" });
    this.watchingNote = element("p", { class: "watching-note", id: "watching-note", hidden: true });
    this.ratedLine = element("p", { class: "rated-line", id: "rated", hidden: true });
    this.controlLine = element("p", { class: "control-line", id: "room-clock", hidden: true });
    this.notice = element("p", { class: "notice", id: "notice" });
    this.caption = element("p", { class: "board-caption", id: "board-caption", hidden: true });
    this.rulesLink = element("a", { id: "rules-link", target: "_blank", rel: "noopener" });
    this.error = element("p", { class: "error", role: "alert", id: "error" });
    this.boardBox = element("div", { class: "board", id: "board" });
    this.board = new BoardView(this.boardBox, { onMove: (move) => this.play(move) });
    this.seatsList = element("ul", { class: "seats", id: "seats" });
    this.watchersLine = element("p", { class: "watchers", id: "watchers", hidden: true });
    this.seatsButton = button("Change who plays", () => this.toggleSeats(), { class: "quiet", id: "change-seats", "aria-expanded": "false", "aria-controls": "seats" });
    this.share = element("div", { class: "share", id: "share" });
    this.thinking = element("p", { class: "thinking", id: "thinking" });
    this.boardHelp = element("p", { class: "board-help", id: "board-help" });
    this.movesList = element("ol", { class: "log moves", "aria-label": "Moves" });
    this.log = element("ul", { class: "log talk", "aria-label": "Chat and news" });
    this.fillLevel = element("select", { "aria-label": "Level for the open seats", "data-key": "fill-level", class: "fill-level" });
    this.controls = new RoomControls(
      (action, pressed) => this.command(action, pressed),
      (reason) => this.say(reason),
      { beside: { fill: [this.fillLevel] } },
    );
    this.soundButton = button("Sound", () => this.toggleSound(), { "data-action": "sound", "aria-pressed": String(soundOn()), class: "quiet-toggle", title: "A sound on your turn, on a refused move and when your clock runs low" });
    const chat = this.chatBox();
    this.typing = new TypingToChat(this.chatInput, {
      active: () => Boolean(this.view) && !this.replayView,
      board: this.boardBox,
      reveal: () => this.showTab("chat-tab"),
    });
    const head = element("header", { class: "room-head" }, element("div", { class: "title-line" }, this.heading, this.controlLine, this.ratedLine), this.turn, this.watchingNote, this.notice, this.error);
    const seats = element(
      "section",
      { class: "seats-box", "aria-labelledby": "seats-heading" },
      element("div", { class: "box-head" }, element("h2", { id: "seats-heading" }, "Players"), this.seatsButton),
      this.seatsList,
      this.watchersLine,
      this.controls.setup,
    );
    const footer = element(
      "div",
      { class: "room-footer" },
      button("Invite friends", () => this.invite(), { "data-action": "invite" }),
      this.soundButton,
      this.rulesLink,
      button("Give up my seat", () => this.giveUp(), { "data-action": "give-up", class: "quiet", title: "Leave the room for good: your seat goes to the computer or opens" }),
      this.lobbyLink(),
    );
    this.root.replaceChildren(
      element(
        "section",
        { class: "room" },
        head,
        element("div", { class: "play" }, this.caption, this.boardBox, this.thinking, this.boardHelp),
        element("div", { class: "side" }, this.over.element, seats, this.share, this.controls.element, chat, footer),
      ),
    );
    // The newest news stays in view as the log's box grows or shrinks beside the board.
    this.logSizes = new ResizeObserver(() => {
      this.log.scrollTop = this.log.scrollHeight;
    });
    this.logSizes.observe(this.log);
    this.connection.addEventListener("message", this.onMessage);
    this.connection.addEventListener("reconnected", this.onReconnect);
    this.typing.install();
    document.addEventListener("keydown", this.onArrow);
    this.enter();
  }

  /** Leaving the page leaves the room: the seat stays ours, to come back to by its token. */
  destroy() {
    this.left = true;
    if (this.view) this.connection.request({ type: "leave", room: this.ref }).catch(() => {});
    this.connection.removeEventListener("message", this.onMessage);
    this.connection.removeEventListener("reconnected", this.onReconnect);
    this.typing?.remove();
    this.logSizes?.disconnect();
    document.removeEventListener("keydown", this.onArrow);
    this.board.destroy();
    this.clocks.destroy();
    this.proposalDialog?.close();
    this.closeReplay();
  }

  /** An arrow with nothing focused goes to the board, which takes the focus. */
  arrow(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || !this.view || this.replayView) return;
    if (!ARROWS.has(event.key) || document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target === document.body || target === document.documentElement) this.board.press(event);
  }

  // The replay of the room's game, in place of the room.

  /** The address changed after its #: open or close the replay. */
  hashChanged() {
    if (window.location.hash === REPLAY_HASH) this.openReplay();
    else this.closeReplay();
  }

  /** Ask for the room's game so far and show it over the room; the room goes on under it. */
  async openReplay() {
    if (this.replayView || this.replayAsked || !this.view) return;
    this.replayAsked = true;
    let reply;
    try {
      reply = await this.request({ type: "replay", room: this.ref });
    } catch (error) {
      this.refuse(error);
      if (window.location.hash === REPLAY_HASH) this.navigate(`/r/${this.ref}`, { replace: true });
      return;
    } finally {
      this.replayAsked = false;
    }
    if (this.left || window.location.hash !== REPLAY_HASH) return;
    const section = this.root.querySelector("section.room");
    if (section) section.hidden = true;
    this.replayBox = element("div", { class: "replay-box" });
    this.root.append(this.replayBox);
    const changes = this.view?.rating_changes ?? null;
    this.replayView = new ReplayView(this.replayBox, reply, {
      back: { label: "Back to the room", action: () => this.navigate(`/r/${this.ref}`) },
      ratings: changes,
      gameTitle: this.gameTitle(),
    });
    this.replayView.show();
    setTitle(`Replay · ${this.gameTitle()} · Parlour`);
  }

  closeReplay() {
    if (!this.replayView) return;
    this.replayView.destroy();
    this.replayView = null;
    this.replayBox?.remove();
    this.replayBox = null;
    const section = this.root.querySelector("section.room");
    if (section) section.hidden = false;
    if (this.view && !this.left) this.render();
  }

  /** Step through this room's game, in place of the room. */
  replay() {
    this.navigate(`/r/${this.ref}${REPLAY_HASH}`);
  }

  lobbyLink() {
    const link = element("a", { href: "/" }, "Back to the lobby");
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.navigate("/");
    });
    return link;
  }

  /** Take the seat this browser holds back with its token, else watch. */
  async enter() {
    const kept = storedSeat(this.ref);
    try {
      if (kept) {
        try {
          this.joined(await this.request({ type: "join", room: this.ref, token: kept.token }));
          await this.resumeThinking();
          if (window.location.hash === REPLAY_HASH) this.openReplay();
          return;
        } catch (error) {
          if (error.code !== "bad_token") throw error;
          forgetSeat(this.ref);
        }
      }
      const watching = await this.request({ type: "spectate", room: this.ref });
      this.host = false;
      this.setView(watching.room, { animate: false });
      this.showHistory(watching.history);
      if (this.yours().length === 0) announce(watchingText(this.view));
      await this.takeBackByKey(watching.room);
      await this.resumeThinking();
      if (window.location.hash === REPLAY_HASH) this.openReplay();
    } catch (error) {
      if (error.code === GONE) this.gone(error.message);
      else if (error.code === REMOVED) this.shutOut(error);
      else if (!(error instanceof ConnectionLost)) this.say(refusalText(error));
      // The room is moving to another server of a cluster: it will answer in a moment.
      if (error.code === UNAVAILABLE && !this.left) setTimeout(() => this.enter(), ENTER_AGAIN_MS);
    }
  }

  /** A seat that carries this player's id comes back to a page proving the key, without a
   * token (from My games, or another browser): join it by room and seat (2.10). */
  async takeBackByKey(view) {
    const me = this.connection.player?.id;
    if (!me) return;
    const mine = view.seats.filter((seat) => seat.holder?.player === me && !(view.yours ?? []).includes(seat.colour));
    for (const seat of mine) {
      try {
        this.joined(await this.request({ type: "join", room: this.ref, seat: seat.colour }));
        announce(`You are back at ${title(seat.colour)}.`);
      } catch {
        // Someone else's now, or the server does not know keys: watch.
      }
    }
  }

  /** A new connection starts with thinking off: ask again if this page had it on. */
  async resumeThinking() {
    if (this.thinkingOn) await this.request({ type: "show_thinking", room: this.ref, on: true });
  }

  gone(message) {
    this.root.replaceChildren(
      element(
        "section",
        { class: "gone" },
        element("h1", {}, "No such room"),
        element("p", { role: "alert" }, `${message}. The room may have closed, or the link is not whole.`),
        element("p", {}, this.lobbyLink()),
      ),
    );
  }

  /** The host sent this person out of the room: they may not come in again. */
  shutOut(error) {
    forgetSeat(this.ref);
    this.root.replaceChildren(
      element(
        "section",
        { class: "gone" },
        element("h1", {}, "You cannot come in"),
        element("p", { role: "alert", id: "shut-out" }, refusalText(error)),
        element("p", {}, this.lobbyLink()),
      ),
    );
  }

  /** The host sent this watcher out just now: back to the lobby, which says so. */
  sentOut() {
    forgetSeat(this.ref);
    this.view = null;
    tellNext(REMOVED_TEXT);
    announce(REMOVED_TEXT);
    this.navigate("/");
  }

  joined(joined) {
    this.host = joined.host;
    storeSeat(this.ref, { token: joined.token });
    this.setView(joined.room, { animate: false });
    this.showHistory(joined.history);
  }

  /** The log anew from the room's history (2.11): what was said and what happened before
   * this page came in, or while it was away, in place of what the view just shown said of
   * itself. Moves are in the move list already. */
  showHistory(history) {
    if (!Array.isArray(history)) return;
    this.log.replaceChildren();
    this.watchersLog.replaceChildren();
    for (const entry of history) {
      if (entry?.kind === "move") continue;
      if (entry?.kind === "chat" && typeof entry.name === "string" && typeof entry.text === "string") {
        this.addChat(entry);
        continue;
      }
      let lines = [];
      try {
        lines = entryLines(entry, { seats: this.view?.seats.length });
      } catch {
        continue;
      }
      for (const line of lines) this.addLog(line, entry.kind === "chat" ? "chat" : "note");
    }
  }

  async takeSeat(colour) {
    try {
      this.joined(await this.request({ type: "join", room: this.ref, seat: colour }));
      announce(`You sit at ${title(colour)}.`);
    } catch (error) {
      this.refuse(error);
    }
  }

  // What the server says.

  receive(message) {
    if (!this.view) return;
    const room = this.view.room;
    switch (message.type) {
      case "update":
        if (message.room === room) this.update(message);
        break;
      case "room":
        if (message.room.room === room) this.setView(message.room);
        break;
      case "seat_changed":
        if (message.room === room) this.seatLost(message.seat);
        break;
      case "removed":
        if (message.room === room) this.sentOut();
        break;
      case "seat_set":
        if (message.room === room) {
          const words = seatText(message);
          this.addLog(words, "note");
          announce(words);
        }
        break;
      case "thinking":
        if (message.room === room) this.showThinking(message);
        break;
      case "proposal":
        if (message.room === room) this.proposed(message);
        break;
      case "proposal_ended":
        if (message.room === room) this.proposalEnded(message);
        break;
      case "chat":
        if (message.room === room) this.addChat(message, { live: true });
        break;
      default:
        break;
    }
  }

  /** A seat of this page's went to someone else: the host opened it before the start, or
   * whoever came with its token took it (a host's seat carries hosting). */
  async seatLost(colour) {
    this.seat = null;
    const hosting = this.host;
    await this.refetch();
    const holder = this.view?.seats.find((seat) => seat.colour === colour)?.holder;
    if (holder?.kind === "open" && !hosting) {
      this.say(`The host opened your seat, ${title(colour)}: you are watching now, and may take a free colour again.`);
    } else {
      this.host = false;
      this.say("Your seat was taken back from another window; you are watching here.");
    }
    this.render();
  }

  update(update) {
    if (update.version <= this.view.version) return;
    if (update.version !== this.view.version + 1) {
      this.refetch();
      return;
    }
    const wasMyTurn = this.myTurn();
    this.view = {
      ...this.view,
      version: update.version,
      moves: [...this.view.moves, update.move],
      state: update.state,
      status: update.state.over ? "finished" : "playing",
      clock: "clock" in update ? update.clock : this.view.clock,
    };
    this.seat = this.playingNow();
    this.recordMove(update);
    this.retellMoves(this.view);
    this.notice.textContent = (update.passed ?? []).map(passText).join(" ");
    for (const colour of update.passed ?? []) this.addLog(passText(colour), "note");
    announce(moveText(update, this.view.seats));
    this.board.show(update.state);
    this.afterChange(wasMyTurn);
    if (update.state.over) {
      this.askInitials();
    }
  }

  /** If a person at this page just made the best score on this board's card, ask their
   * initials for it, as Tribolo did: beside the board, once a game. */
  async askInitials() {
    const scores = this.view.state?.scores ?? {};
    const changed = new Set((this.view.seat_changes ?? []).map((change) => change.seat));
    let card;
    try {
      card = await this.request({ type: "score_card", game: this.view.game, preset: presetOf(this.view) });
    } catch {
      return;
    }
    const best = card.best;
    if (!best || best.typed) return;
    const colour = this.playing().find((c) => {
      const name = this.view.seats.find((seat) => seat.colour === c)?.holder?.name;
      return !changed.has(c) && name === best.name && scores[c] === best.score;
    });
    if (!colour) return;
    const game = JSON.stringify([this.view.room, this.view.board, this.view.position, this.view.moves]);
    this.over.ask(game, best, colour);
  }

  async refetch() {
    try {
      const reply = await this.request({ type: "get_room", room: this.ref });
      this.setView(reply.room);
    } catch (error) {
      this.say(error.message);
    }
  }

  setView(view, { animate = true } = {}) {
    const wasMyTurn = this.myTurn();
    const first = this.view === null;
    const begun = this.view?.status === "waiting" && view.status === "playing";
    if (view.coin && JSON.stringify(view.coin) !== JSON.stringify(this.view?.coin ?? null)) {
      const words = coinText(view.coin);
      this.addLog(words, "note");
      this.notice.textContent = words;
      announce(words);
    }
    const before = this.view;
    this.view = view;
    this.seat = this.playingNow();
    if (!first) this.tellEnding(before, view);
    this.learnHistory(view);
    this.retellMoves(view);
    if (view.state) {
      this.waitingBoard = null;
      this.caption.hidden = true;
      this.board.show(view.state, { animate: animate && !first });
    } else if (view.status === "waiting") {
      this.showWaitingBoard(view);
    }
    this.afterChange(wasMyTurn || first);
    // The game began while the page was scrolled down to its seats: back to the board.
    if (begun && this.boardBox.getBoundingClientRect().top < 0) window.scrollTo({ top: 0 });
  }

  /** Before the start the room has no position yet: show the board it deals, as the lobby's
   * "See the board" does, so that nobody waits at an empty page. */
  async showWaitingBoard(view) {
    const key = JSON.stringify([view.room, view.game, view.options, view.board, view.position]);
    if (this.waitingBoard?.key === key) return;
    this.waitingBoard = { key, seen: null };
    const request = { type: "see", game: view.game, options: view.options };
    if (view.position) request.position = view.position;
    else request.board = view.board;
    let seen;
    try {
      seen = await this.request(request);
    } catch {
      if (this.waitingBoard?.key === key) this.waitingBoard = null;
      return;
    }
    if (this.left || this.view?.state || this.waitingBoard?.key !== key) return;
    this.waitingBoard.seen = seen;
    this.board.show(seen.state, { animate: false });
    this.caption.textContent = this.waitingCaption(view, seen);
    this.caption.hidden = false;
  }

  waitingCaption(view, seen) {
    const named = typeof view.options?.board === "string" && view.options.board !== "random";
    let which = `board ${seen.board}`;
    if (view.position) which = "a position of its own";
    else if (named) which = `the ${view.options.board} board (${seen.board})`;
    const coin = this.gameInfo()?.first_by_coin && view.options?.first === "random" && !view.position;
    const first = coin ? "a coin call decides who moves first" : `${title(seen.state.to_move)} moves first`;
    const whose = this.yours().length ? "The board you will play" : "The board to be played";
    return `${whose}: ${which}; ${first}.`;
  }

  // The move list.

  /** Who holds a seat now, as a game file writes it. */
  holderOf(colour) {
    return holderText(this.view?.seats.find((seat) => seat.colour === colour)?.holder);
  }

  /** Keep the move just played with its seat, who held it, and the seats passed over. */
  recordMove(update) {
    const index = this.view.moves.length - 1;
    if (this.played.length > index) this.played.length = index;
    this.played[index] = {
      move: update.move,
      seat: update.seat,
      holder: this.holderOf(update.seat),
      passed: (update.passed ?? []).map((seat) => ({ seat, holder: this.holderOf(seat) })),
    };
  }

  /** Match what is known of each move to the room's list; moves this page did not see
   * played (it came in later, or the game was undone, loaded or started again) are read
   * from the game's file, which names the seat of every move. */
  learnHistory(view) {
    const game = JSON.stringify([view.room, view.game, view.board, view.position, view.options]);
    if (game !== this.playedFor) {
      this.played = [];
      this.playedFor = game;
    }
    const moves = view.moves;
    const kept = Math.min(this.played.length, moves.length);
    const wrong = this.played.findIndex((entry, index) => index < kept && entry && entry.move !== moves[index]);
    this.played.length = wrong < 0 ? kept : wrong;
    const last = this.played[moves.length - 1];
    if (last && view.state?.passed) {
      last.passed = view.state.passed.map((seat) => ({ seat, holder: this.holderOf(seat) }));
    }
    const complete = moves.every((move, index) => this.played[index]?.move === move);
    if (!complete && view.state) this.readHistory(view.version);
  }

  async readHistory(version) {
    if (this.historyAsked === version) return;
    this.historyAsked = version;
    let text;
    try {
      text = (await this.request({ type: "export_game", room: this.ref })).text;
    } catch {
      return;
    }
    const view = this.view;
    if (!view || this.left) return;
    const seats = view.seats.map((seat) => seat.colour);
    const read = readGameFile(text, seats);
    read.forEach((entry, index) => {
      if (view.moves[index] !== entry.move || this.played[index]?.move === entry.move) return;
      this.played[index] = entry;
      if (index === view.moves.length - 1) {
        entry.passed = (view.state?.passed ?? []).map((seat) => ({ seat, holder: this.holderOf(seat) }));
      } else if (index === read.length - 1 && this.played[index + 1]) {
        // Played here while the file was on its way: the seats between passed.
        const next = this.played[index + 1].seat;
        entry.passed = skipped(seats, entry.seat, next).map((seat) => ({ seat, holder: this.holderOf(seat) }));
      }
    });
    this.retellMoves(view);
    this.render();
  }

  /** The numbered move list, in the game's notation, each move with its seat's colour and
   * who played it, the seats passed over listed after the move, and the seats that changed
   * hands between the moves. */
  retellMoves(view) {
    const changes = view.seat_changes ?? [];
    const changed = (after) =>
      changes
        .filter((change) => change.after === after)
        .map((change) => element("li", { class: "seat-change" }, `${title(change.seat)}: ${change.holder}`));
    const items = [];
    view.moves.forEach((move, index) => {
      const entry = this.played[index]?.move === move ? this.played[index] : null;
      items.push(...changed(index), this.moveItem(index, move, entry));
      for (const pass of entry?.passed ?? []) {
        items.push(
          element("li", { class: "pass", "data-seat": pass.seat }, seatSwatch(pass.seat), `${seatAndHolder(pass.seat, pass.holder)} passed`),
        );
      }
    });
    items.push(...changed(view.moves.length));
    this.movesList.replaceChildren(...items);
    this.movesList.scrollTop = this.movesList.scrollHeight;
  }

  moveItem(index, move, entry) {
    const text = element("span", { class: "move-text" }, move);
    if (!entry) return element("li", { class: "move", value: index + 1 }, text);
    return element(
      "li",
      { class: "move", value: index + 1, "data-seat": entry.seat },
      seatSwatch(entry.seat),
      element("span", { class: "move-seat" }, seatAndHolder(entry.seat, entry.holder)),
      " ",
      text,
    );
  }

  /** Every seat that is this page's: played here, or by the computer for it. */
  yours() {
    return this.view?.yours ?? (this.view?.you ? [this.view.you] : []);
  }

  /** The seats people at this page play: several where they share the screen. */
  playing() {
    const seats = this.view?.seats ?? [];
    return this.yours().filter((colour) => seats.find((seat) => seat.colour === colour)?.holder?.kind === "human");
  }

  /** The seat this page plays whose turn it is, else its first. */
  playingNow() {
    const playing = this.playing();
    const mover = this.view?.state?.to_move;
    return playing.includes(mover) ? mover : (playing[0] ?? null);
  }

  /** Why a draw cannot be offered now (protocol.md 2.7), or null where it can. */
  drawOff() {
    if (!this.othersSeated()) return "Nobody else is seated to agree a draw: the computer accepts none.";
    if (this.abortable()) return "Nothing has been played yet to agree on: abort the game instead.";
    return null;
  }

  /** Whether the game may be aborted now: the last room view said so, and the moves since
   * (an update carries no `abortable`) have not brought each person's seat its first move.
   * A move whose seat is not known yet leaves it to the view. */
  abortable() {
    const view = this.view;
    if (view?.status !== "playing" || view.abortable !== true) return false;
    const moved = new Set();
    for (const [index, move] of view.moves.entries()) {
      const entry = this.played[index];
      if (entry?.move !== move) return true;
      moved.add(entry.seat);
    }
    return view.seats.some((seat) => seat.holder?.name && !moved.has(seat.colour));
  }

  /** The seats of the other people in the game (not out of it): each a person's, however
   * it is played now. */
  othersInGame() {
    const view = this.view;
    const yours = this.yours();
    const out = new Set([...(view?.resigned ?? []), ...(view?.flagged ?? [])]);
    return (view?.seats ?? []).filter((seat) => seat.holder?.name && !yours.includes(seat.colour) && !out.has(seat.colour));
  }

  /** Whether a person here may claim the game (protocol.md 2.7): it is played, each person
   * has made a first move (else it would be an abort), and every other person in it is away
   * with the computer standing in for them. */
  claimable() {
    if (this.view?.status !== "playing" || this.playing().length === 0 || this.abortable()) return false;
    const others = this.othersInGame();
    return others.length > 0 && others.every((seat) => seat.holder.kind === "standin");
  }

  /** The names of the people away whom the computer stands in for. */
  awayNames() {
    return this.othersInGame()
      .filter((seat) => seat.holder.kind === "standin")
      .map((seat) => seat.holder.name);
  }

  /** Whether a person other than those here is seated (a stand-in's too): someone to ask. */
  othersSeated() {
    const yours = this.yours();
    return this.view.seats.some((seat) => ["human", "standin"].includes(seat.holder?.kind) && !yours.includes(seat.colour));
  }

  /** Whether this page may change who holds a seat: the host any seat no other person
   * here holds, anyone their own seats and open ones. */
  mayChange(seat) {
    if (seat.holder.kind === "open" || this.yours().includes(seat.colour)) return true;
    return this.host && !seat.holder.connected;
  }

  afterChange(wasMyTurn) {
    const position = this.positionKey();
    if (position !== this.hintsFor) {
      this.hintsFor = position;
      this.clearHints();
    }
    this.render();
    this.clocks.set(this.view);
    if (this.myTurn() && !wasMyTurn) {
      announce("Your move.");
      if (soundOn()) sound.yourTurn();
    }
  }

  /** What hints belong to: the room's version (a move, undo, new game or load makes a new
   * one) and the position. */
  positionKey() {
    return `${this.view?.version}|${this.view?.state?.position ?? ""}`;
  }

  /** Take the hints of a position gone off the board and out of the words. */
  clearHints() {
    this.board.setHints([]);
    if (this.hintShown) this.thinking.textContent = "";
    this.hintShown = false;
  }

  /** Whether a person here is to move: a game in play (not one a seat's time ended). */
  myTurn() {
    const state = this.view?.state;
    return Boolean(state && !state.over && this.view.status === "playing" && this.playing().includes(state.to_move));
  }

  showThinking(message) {
    const whose = message.of === "bot" ? `${title(message.seat)} thinks` : "Suggestion so far";
    this.thinking.textContent = `${whose}: ${searchText(message.search, this.view.game)}`;
    this.hintShown = message.of !== "bot";
    this.turn.textContent = turnText({ ...this.view, playing: this.playing() }, this.host);
  }

  /** The room as a proposal's words need it: how many seats, and whether the game is over. */
  proposalRoom() {
    return { seats: this.view.seats.length, over: this.view.status === "finished" };
  }

  /** A proposal: asked of a person here, a question whose safe answer, Decline, Enter gives;
   * else a line in the log. */
  async proposed(proposal) {
    // A proposal is sent again to a connection coming into the room (a join sent again):
    // one already shown is not asked twice.
    if (this.proposals.has(proposal.proposal)) return;
    const room = this.proposalRoom();
    this.proposals.set(proposal.proposal, room);
    if (!this.yours().some((colour) => proposal.asked.includes(colour))) {
      const words = proposalMadeText(proposal, room, this.yours().includes(proposal.by));
      this.addLog(words, "note");
      announce(words);
      return;
    }
    const question = proposalQuestion(proposal, room);
    const { dialog, result } = openDialog(
      "A question",
      [element("p", {}, question), element("p", {}, `It lapses in ${proposal.expires_in} s.`)],
      [
        { label: "Decline", value: "no", primary: true },
        { label: "Agree", value: "yes" },
      ],
    );
    dialog.id = "proposal-dialog";
    dialog.dataset.kind = proposal.kind;
    announce(question);
    this.proposalDialog = dialog;
    this.proposalId = proposal.proposal;
    const chosen = await result;
    this.proposalDialog = null;
    if (this.proposalId !== proposal.proposal) return;
    try {
      await this.request({
        type: "answer",
        room: this.ref,
        proposal: proposal.proposal,
        accept: chosen === "yes",
      });
    } catch (error) {
      this.say(error.message);
    }
  }

  proposalEnded(ended) {
    if (this.proposalId === ended.proposal) {
      this.proposalId = null;
      this.proposalDialog?.close();
    }
    const room = { ...(this.proposals.get(ended.proposal) ?? this.proposalRoom()), ended: this.view.status === "finished" };
    this.proposals.delete(ended.proposal);
    const words = proposalEndedText(ended, room);
    this.addLog(words, "note");
    announce(words);
  }

  // What the player does.

  async play(move) {
    if (this.moving) return;
    if (!this.myTurn()) {
      this.board.clearPick();
      let why = this.seat ? "It is not your turn." : "Take a seat to play.";
      if (this.view?.status === "waiting") why = `${NOT_STARTED} This is the board it will be played on.`;
      else if (this.view?.status === "finished") why = "The game is over.";
      this.say(why);
      return;
    }
    this.moving = true;
    try {
      await this.request({ type: "move", room: this.ref, version: this.view.version, move });
      this.say("");
    } catch (error) {
      this.board.clearPick();
      this.refuse(error);
    } finally {
      this.moving = false;
    }
  }

  /** Whether to go on with what makes a rated game unrated for everyone: asked once a game
   * (after that it is unrated), and Enter keeps it rated. */
  async unratingAllowed(helpAsked) {
    const view = this.view;
    if (!view?.rated || view.status !== "playing") return true;
    const people = view.seats.filter((seat) => seat.holder?.kind === "human").map((seat) => seat.holder.name);
    const everyone = people.length > 1 ? `all ${people.length} players` : "its player";
    const { dialog, result } = openDialog(
      "Unrate this game?",
      [element("p", {}, `${helpAsked} makes this game unrated for ${everyone} (${people.join(", ")}): it will count for nobody's rating.`)],
      [
        { label: "Keep it rated", value: "keep", primary: true },
        { label: "Unrate it", value: "unrate" },
      ],
    );
    dialog.id = "unrate-dialog";
    return (await result) === "unrate";
  }

  /** Mark the hint's moves on the board and say them; both go when the position does. */
  async hint(kind) {
    if (kind === "best" && !(await this.unratingAllowed("The best move"))) return;
    const asked = this.positionKey();
    let reply;
    try {
      reply = await this.request({ type: "hint", room: this.ref, kind });
    } catch (error) {
      this.refuse(error);
      return;
    }
    if (asked !== this.positionKey()) return;
    this.board.setHints(reply.moves, { kind });
    this.thinking.textContent = this.hintWords(kind, reply.moves);
    this.hintShown = true;
    announce(this.thinking.textContent);
  }

  hintWords(kind, moves) {
    const name = kind === "best" ? "Best" : "Possible";
    if (moves.length === 0) return `${name}: none`;
    if (kind === "possible" && PICKED_MOVES.has(this.view.game)) {
      const count = moves.length === 1 ? "1 move" : `${moves.length} moves`;
      return `${name}: ${count}. The pieces that can move are marked: pick one, and the cells it can go to are marked (and the pieces that can go along).`;
    }
    return `${name}: ${moves.join(", ")}`;
  }

  async suggest() {
    if (!(await this.unratingAllowed("A suggestion from the computer"))) return;
    const asked = this.positionKey();
    this.thinking.textContent = "Looking for a good move…";
    this.hintShown = true;
    try {
      const reply = await this.request({ type: "suggest", room: this.ref, think_ms: SUGGEST_MS });
      if (reply.version !== this.view.version || asked !== this.positionKey()) {
        if (this.hintShown) this.thinking.textContent = "";
        return;
      }
      this.board.setHints([reply.search.move], { kind: "suggest" });
      this.thinking.textContent = `Suggested: ${searchText(reply.search, this.view.game)}`;
      this.hintShown = true;
      announce(`Suggested: ${reply.search.move}`);
    } catch (error) {
      if (this.hintShown) this.thinking.textContent = "";
      this.refuse(error);
    }
  }

  async toggleThinking(pressed) {
    const on = !this.thinkingOn;
    try {
      await this.request({ type: "show_thinking", room: this.ref, on });
      this.thinkingOn = on;
      pressed.setAttribute("aria-pressed", String(on));
      if (!on) this.thinking.textContent = "";
    } catch (error) {
      this.refuse(error);
    }
  }

  async undo() {
    if (!(await this.unratingAllowed("Taking back a move"))) return;
    try {
      await this.request({ type: "undo", room: this.ref, version: this.view.version });
    } catch (error) {
      this.refuse(error);
    }
  }

  /** Offer to end the game as it stands: the others seated are asked (the log says so). */
  async offerDraw() {
    try {
      await this.request({ type: "offer_draw", room: this.ref, version: this.view.version });
    } catch (error) {
      this.refuse(error);
    }
  }

  /** Give up the game for the seat this page plays now, once the person has read what
   * that does (Enter keeps playing). */
  async resign() {
    const { version } = this.view;
    const colour = this.playingNow();
    const { dialog, result } = openDialog(
      this.playing().length > 1 ? `Resign ${seatLabel(this.view.seats, colour)}?` : "Resign this game?",
      [element("p", {}, resignText(this.view, colour))],
      [
        { label: "Keep playing", value: "keep", primary: true },
        { label: "Resign", value: "resign" },
      ],
    );
    dialog.id = "resign-dialog";
    if ((await result) !== "resign") return;
    try {
      await this.request({ type: "resign", room: this.ref, version, seat: colour });
    } catch (error) {
      this.refuse(error);
    }
  }

  /** End the game before everyone has moved, for nobody's rating, once asked (Enter keeps
   * playing). */
  async abort() {
    const { version } = this.view;
    const { dialog, result } = openDialog(
      "Abort this game?",
      [element("p", {}, ABORTED)],
      [
        { label: "Keep playing", value: "keep", primary: true },
        { label: "Abort", value: "abort" },
      ],
    );
    dialog.id = "abort-dialog";
    if ((await result) !== "abort") return;
    try {
      await this.request({ type: "abort", room: this.ref, version });
    } catch (error) {
      this.refuse(error);
    }
  }

  /** End the game won, the others being away, once asked (Enter keeps playing). */
  async claim() {
    const { version } = this.view;
    const { dialog, result } = openDialog(
      "Claim the game?",
      [element("p", {}, claimText(this.view, this.awayNames()))],
      [
        { label: "Keep playing", value: "keep", primary: true },
        { label: "Claim the game", value: "claim" },
      ],
    );
    dialog.id = "claim-dialog";
    if ((await result) !== "claim") return;
    try {
      await this.request({ type: "claim", room: this.ref, version });
    } catch (error) {
      this.refuse(error);
    }
  }

  async newGame() {
    const board = element("input", { id: "new-board", type: "number", min: 0, step: 1, placeholder: "a new deal" });
    const coin = element(
      "select",
      { id: "new-coin" },
      element("option", { value: "" }, "let the board decide"),
      element("option", { value: "heads" }, "heads"),
      element("option", { value: "tails" }, "tails"),
    );
    const calling = this.callsCoin()
      ? [element("label", { for: "new-coin" }, "Call the coin for who moves first"), coin]
      : [];
    const { result } = openDialog(
      "New game",
      [
        element("p", {}, "The same seats play again. Others seated are asked first if the game is not over."),
        element("label", { for: "new-board" }, "Board number"),
        board,
        ...calling,
      ],
      [
        { label: "Start", value: "start", primary: true },
        { label: "Cancel", value: "cancel" },
      ],
    );
    if ((await result) !== "start") return;
    const request = { type: "new_game", room: this.ref, version: this.view.version };
    if (board.value !== "") request.board = Number(board.value);
    if (calling.length && coin.value) request.call = coin.value;
    try {
      await this.request(request);
    } catch (error) {
      this.refuse(error);
    }
  }

  /** Leave the room for good: the seats open, or go to the computer, as the room says. */
  async giveUp() {
    const { result } = openDialog(
      "Give up your seat?",
      [element("p", {}, "You leave the room for good: your seats go to the computer, or open for someone else, as the room says. To come back later instead, just close the page: the seat stays yours.")],
      [
        { label: "Stay", value: "no", primary: true },
        { label: "Give up", value: "yes" },
      ],
    );
    if ((await result) === "yes") await this.giveUpNow();
  }

  async giveUpNow() {
    try {
      await this.request({ type: "leave", room: this.ref, give_up: true });
    } catch (error) {
      this.refuse(error);
      return;
    }
    forgetSeat(this.ref);
    this.view = null;
    this.navigate("/");
  }

  /** How friends come in: the room's link, the terminal's command, the seats still open. */
  async invite() {
    const host = sharedHost(this.connection.welcome);
    const url = `${window.location.protocol}//${host}/r/${this.ref}`;
    const command = `parlour join ${this.ref} --server ${host}`;
    const link = element("input", { readonly: true, value: url, id: "invite-link", "aria-label": "Link to this room" });
    const copy = copyButton("Copy the link", url, link, (done, node) => {
      if (done) node.textContent = "Copied";
    });
    const free = openSeats(this.view.seats).map(title);
    const seats = free.length
      ? `Open seats: ${free.join(", ")}. Whoever comes by the link takes one with a click.`
      : "Every seat is taken: whoever comes by the link watches.";
    const listed = this.view.public
      ? "The room is listed in the lobby's Open rooms too."
      : "The room is private: only people with its link find it.";
    const { dialog, result } = openDialog(
      "Invite friends",
      [
        element("label", { for: "invite-link" }, "Send them this link"),
        link,
        element("p", {}, copy),
        element("p", {}, "or, in a terminal:"),
        element("code", { class: "command", id: "invite-command" }, command),
        element("p", {}, seats),
        element("p", {}, listed),
      ],
      [{ label: "Close", value: "close", primary: true }],
    );
    dialog.id = "invite-dialog";
    await result;
  }

  async chat(text) {
    try {
      await this.request({ type: "chat", room: this.ref, text });
      return true;
    } catch (error) {
      this.refuse(error);
      return false;
    }
  }

  /** Start the game; where a coin decides who moves first, call it first. */
  async start() {
    const message = { type: "start" };
    if (this.callsCoin()) {
      const call = await callCoin();
      if (call) message.call = call;
    }
    this.hostAction(message);
  }

  callsCoin() {
    return callsCoin(this.gameInfo(), this.view, this.playing());
  }

  async hostAction(message) {
    try {
      await this.request({ ...message, room: this.ref });
    } catch (error) {
      this.refuse(error);
    }
  }

  request(message) {
    return this.connection.request(message);
  }

  /** The room's game as the server's welcome describes it (levels, title). */
  gameInfo() {
    return this.connection.games.find((game) => game.name === this.view?.game);
  }

  gameTitle() {
    return this.gameInfo()?.title ?? title(this.view?.game ?? "");
  }

  refuse(error) {
    this.say(refusalText(error));
    if (soundOn()) sound.refused();
  }

  say(text) {
    this.error.textContent = text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
  }

  /** Something this page did, in the log and aloud. */
  tell(words) {
    this.addLog(words, "note");
    announce(words);
  }

  addLog(text, kind) {
    this.log.append(element("li", { class: kind }, text));
    while (this.log.childElementCount > LOG_LINES) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  // Drawing the parts around the board.

  /** What each command's button does. */
  command(action, pressed) {
    const run = {
      possible: () => this.hint("possible"),
      best: () => this.hint("best"),
      suggest: () => this.suggest(),
      thinking: () => this.toggleThinking(pressed),
      start: () => this.start(),
      fill: () => this.hostAction({ type: "fill_bots", level: this.fillLevel.value }),
      undo: () => this.undo(),
      "offer-draw": () => this.offerDraw(),
      resign: () => this.resign(),
      abort: () => this.abort(),
      claim: () => this.claim(),
      "new-game": () => this.newGame(),
      "score-card": () => this.files.scoreCard(),
      replay: () => this.replay(),
      save: () => this.files.save(),
      load: () => this.files.load(),
      export: () => this.files.exportGame(),
      import: () => this.files.importGame(),
    }[action];
    run?.();
  }

  toggleSound() {
    storeSound(!soundOn());
    this.soundButton.setAttribute("aria-pressed", String(soundOn()));
  }

  /** Show or hide who may change each seat's holder. */
  toggleSeats() {
    this.changingSeats = !this.seatsOpen();
    this.render();
  }

  /** Whether the seats show their holder menus: while the room waits, unless closed. */
  seatsOpen() {
    return this.changingSeats ?? this.view?.status === "waiting";
  }

  /** The chat: the news and what people said, the box everything typed goes to, and how. */
  chatBox() {
    const input = element("input", { id: "chat", maxlength: 300, autocomplete: "off", "aria-label": "Chat", placeholder: "Type to chat", enterkeyhint: "send" });
    this.chatInput = input;
    const form = element("form", { class: "chat-form" }, input, element("button", { type: "submit" }, "Say"));
    this.chatHint = element("p", { class: "chat-hint", id: "chat-hint" }, CHAT_HINT);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (!text) {
        this.typing.leave();
        return;
      }
      if (await this.chat(text)) {
        input.value = "";
        this.typing.leave();
      }
    });
    const tabs = [
      { id: "chat-tab", panel: "chat-panel", label: "Chat" },
      { id: "moves-tab", panel: "moves-panel", label: "Moves" },
    ];
    const tabButtons = tabs.map((tab, i) => {
      const node = element("button", { type: "button", role: "tab", id: tab.id, "aria-controls": tab.panel, "aria-selected": String(i === 0), tabindex: i === 0 ? "0" : "-1" }, tab.label);
      node.addEventListener("click", () => this.showTab(tab.id));
      return node;
    });
    this.tabs = tabButtons;
    const list = element("div", { class: "tab-list", role: "tablist", "aria-label": "Chat and moves" }, ...tabButtons);
    list.addEventListener("keydown", (event) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      event.preventDefault();
      const next = tabButtons.find((tab) => tab.getAttribute("aria-selected") !== "true");
      this.showTab(next.id);
      next.focus();
    });
    this.movesCount = element("span", { class: "count" });
    tabButtons[1].append(" ", this.movesCount);
    return element(
      "section",
      { class: "talk-box", "aria-label": "Chat and moves" },
      list,
      element("div", { role: "tabpanel", id: "chat-panel", "aria-labelledby": "chat-tab", class: "tab-panel" }, this.log, this.watchersChat(), form, this.chatHint),
      element("div", { role: "tabpanel", id: "moves-panel", "aria-labelledby": "moves-tab", class: "tab-panel", hidden: true }, this.movesList),
    );
  }

  /** The watchers' chat (protocol.md 2.14), apart from the players': shown to those who
   * watch, and to a player once they choose to see it. */
  watchersChat() {
    this.watchersLog = element("ul", { class: "log watchers-talk", id: "watchers-chat", "aria-label": "Watchers' chat" });
    this.watchersHeading = element("h3", { id: "watchers-heading" }, "Watchers' chat");
    this.watchersToggle = button("Show watchers' chat", () => this.toggleWatchersChat(), {
      id: "show-watchers",
      class: "quiet",
      "aria-pressed": "false",
      "aria-controls": "watchers-chat",
      title: "What the people watching say, kept apart from the players' chat",
    });
    this.watchersBox = element(
      "div",
      { class: "watchers-box", id: "watchers-box", hidden: true },
      element("div", { class: "watchers-head" }, this.watchersHeading, this.watchersToggle),
      this.watchersLog,
    );
    return this.watchersBox;
  }

  toggleWatchersChat() {
    this.watchersShown = !this.watchersShown;
    storeWatchersChat(this.watchersShown);
    this.showWatchersChat();
    this.watchersLog.scrollTop = this.watchersLog.scrollHeight;
  }

  /** Whether the watchers' lines are in sight: always for a person who is not seated, else as
   * the player chose. */
  watchersInSight() {
    return this.yours().length === 0 || this.watchersShown;
  }

  /** The watchers' chat as things stand: for a player, the switch with how many lines wait
   * behind it; for everyone else, the lines. */
  showWatchersChat() {
    if (!this.watchersLog) return;
    const seated = this.yours().length > 0;
    const lines = [...this.watchersLog.children].filter((line) => !line.hidden).length;
    const watchers = (this.view?.watchers ?? []).length;
    this.watchersBox.hidden = seated && lines === 0 && watchers === 0;
    this.watchersToggle.hidden = !seated;
    this.watchersHeading.hidden = seated && !this.watchersShown;
    this.watchersLog.hidden = !this.watchersInSight();
    this.watchersToggle.setAttribute("aria-pressed", String(this.watchersShown));
    this.watchersToggle.textContent = this.watchersShown ? "Hide" : `Show watchers' chat${lines ? ` (${lines})` : ""}`;
    this.watchersLog.dataset.empty = seated ? "Nothing said by the watchers yet." : "Nothing said by the watchers yet: what you say goes here.";
    const watching = !seated && !this.host;
    this.chatHint.textContent = watching ? WATCHER_HINT : CHAT_HINT;
    this.chatInput.placeholder = watching ? "Type to chat with the watchers" : "Type to chat";
  }

  /** A line of chat, live (`live`) or from the room's history: a player's in the log, a
   * watcher's in the watchers' chat; its author's name a button for what to do about them
   * (but for people at this page), and the line out of sight while they are muted or
   * blocked. */
  addChat(line, { live = false } = {}) {
    const person = { name: line.name, player: line.player ?? null };
    const watching = line.watching === true;
    const mine = this.isMe(person);
    const who = mine ? element("span", { class: "author" }, line.name) : this.personButton(person);
    const seat = line.seat ? ` (${title(line.seat)})` : "";
    const item = element("li", { class: "chat", "data-name": fold(line.name), "data-player": person.player }, who, `${seat}: ${line.text}`);
    item.hidden = !mine && hidesChat(this.connection, person);
    const list = watching ? this.watchersLog : this.log;
    list.append(item);
    while (list.childElementCount > LOG_LINES) list.firstElementChild.remove();
    list.scrollTop = list.scrollHeight;
    if (watching) this.showWatchersChat();
    if (live && !item.hidden && (!watching || this.watchersInSight())) {
      announce(`${line.name}${watching ? " (watching)" : seat} says: ${line.text}`);
    }
  }

  /** Whether `person` is someone at this page: its player, its name, or a person sharing its
   * screen. */
  isMe(person) {
    const me = this.connection.player?.id;
    if (person.player && me) return person.player === me;
    const name = fold(person.name);
    if (fold(this.connection.name) === name) return true;
    const seats = this.view?.seats ?? [];
    return this.yours().some((colour) => fold(seats.find((seat) => seat.colour === colour)?.holder?.name) === name);
  }

  /** A person's name as a button that asks what to do about them, marked where muted or
   * blocked. */
  personButton(person) {
    return button(person.name, () => this.aboutPerson(person), {
      class: "person",
      "data-person": person.name,
      "data-key": `person-${fold(person.name)}`,
      title: `${person.name}: mute, block or report`,
    });
  }

  /** A person's name to click, with how the player stands to them: `Zed (muted)`. */
  personNodes(person) {
    const standing = standingOf(this.connection, person);
    return [this.personButton(person), standing ? element("span", { class: "standing-mark" }, ` (${standing})`) : null];
  }

  /** Where `person` is in the room now (their seats, watching) and their player id where a
   * seat or the watchers' list knows it, then what to do about them. */
  aboutPerson(person) {
    const view = this.view;
    if (!view) return;
    const same = (other) => (person.player && other?.player ? person.player === other.player : fold(other?.name) === fold(person.name));
    const seats = view.seats.filter((seat) => seat.holder?.name && same(seat.holder));
    const watcher = (view.watchers ?? []).find(same);
    const player = person.player ?? seats[0]?.holder.player ?? watcher?.player ?? null;
    askAboutPerson(this, { name: person.name, player, seats: seats.map((seat) => seat.colour), watching: Boolean(watcher) });
  }

  /** A mute or a block changed: the lines and names shown again as the player now stands. */
  standingChanged() {
    for (const item of [...this.log.querySelectorAll("li.chat"), ...this.watchersLog.querySelectorAll("li.chat")]) {
      const person = { name: item.querySelector(".person, .author")?.textContent ?? "", player: item.dataset.player ?? null };
      item.hidden = !item.querySelector(".author") && hidesChat(this.connection, person);
    }
    this.render();
  }

  /** The people watching, by the seats: each a name to click. */
  showWatchers() {
    const watchers = this.view.watchers ?? [];
    const key = JSON.stringify([watchers, this.connection.muted, this.connection.blocked]);
    rebuild(this.watchersLine, key, () => {
      const names = watchers.map((watcher) => (this.isMe(watcher) ? ["you"] : this.personNodes(watcher)));
      return ["Watching: ", ...names.flatMap((nodes, i) => (i ? [", ", ...nodes] : nodes))].filter(Boolean);
    });
    this.watchersLine.hidden = watchers.length === 0;
  }

  /** Show the chat or the moves. */
  showTab(id) {
    for (const tab of this.tabs) {
      const chosen = tab.id === id;
      tab.setAttribute("aria-selected", String(chosen));
      tab.tabIndex = chosen ? 0 : -1;
      document.getElementById(tab.getAttribute("aria-controls")).hidden = !chosen;
    }
    if (id === "moves-tab") this.movesList.scrollTop = this.movesList.scrollHeight;
    else this.log.scrollTop = this.log.scrollHeight;
  }

  render() {
    const view = this.view;
    const gameTitle = this.gameTitle();
    this.heading.textContent = view.public ? gameTitle : `${gameTitle} (private room)`;
    this.rulesLink.href = `/rules/${view.game}`;
    this.rulesLink.textContent = `How to play ${gameTitle}`;
    setTitle(`${this.myTurn() ? "Your move · " : ""}${gameTitle} · Parlour`);
    this.turn.textContent = turnText({ ...view, playing: this.playing() }, this.host);
    this.turn.dataset.mine = String(this.myTurn());
    const scores = view.state?.scores ?? {};
    const editing = this.seatsOpen();
    const standing = [this.connection.muted, this.connection.blocked];
    const seatsKey = JSON.stringify([view.seats, scores, view.state?.to_move, view.state?.progress, this.yours(), this.host, view.status, view.rating_changes ?? null, editing, standing]);
    rebuild(this.seatsList, seatsKey, () => view.seats.map((seat) => this.seatItem(seat, editing)));
    const changeable = view.seats.some((seat) => this.mayChange(seat));
    this.seatsButton.hidden = !changeable;
    this.seatsButton.setAttribute("aria-expanded", String(editing));
    this.seatsButton.textContent = editing ? "Done" : "Change who plays";
    const inviting = view.status === "waiting" && openSeats(view.seats).length > 0;
    rebuild(this.share, JSON.stringify([this.ref, inviting]), () => (inviting ? this.shareControls() : []));
    this.share.hidden = !inviting;
    this.fillLevels();
    this.showRated(view);
    this.showControl(view);
    this.over.show(view);
    this.controls.show(this.controlStates());
    this.soundButton.setAttribute("aria-pressed", String(soundOn()));
    this.root.querySelector("[data-action=give-up]").hidden = this.yours().length === 0;
    this.movesCount.textContent = view.moves.length ? `(${view.moves.length})` : "";
    this.boardHelp.textContent = this.playing().length ? boardHelp(view.game) : "";
    const watching = this.yours().length === 0;
    if (this.waitingBoard?.seen && !view.state) this.caption.textContent = this.waitingCaption(view, this.waitingBoard.seen);
    this.watchingNote.hidden = !watching;
    this.watchingNote.textContent = watching ? watchingText(view, this.host) : "";
    this.showWatchers();
    this.showWatchersChat();
    this.tellClaimable();
  }

  /** Once the game becomes one this page may claim, say so, in the log and aloud. */
  tellClaimable() {
    const claimable = this.claimable();
    if (claimable && !this.claimWas) {
      const away = this.awayNames();
      this.tell(`${listText(away)} ${away.length === 1 ? "is" : "are"} away, the computer playing for them: you may claim the game (Claim, under Game) or play on.`);
    }
    this.claimWas = claimable;
  }

  /** The levels Fill offers, the game's default chosen first. */
  fillLevels() {
    const info = this.gameInfo();
    rebuild(this.fillLevel, JSON.stringify(info?.levels ?? []), () =>
      (info?.levels ?? []).map((level) => element("option", { value: level, selected: level === defaultLevel(info) }, `level ${level}`)),
    );
  }

  /** Each command: whether it is shown to this person, and why it is off just now. */
  controlStates() {
    const view = this.view;
    const status = view.status;
    const seated = this.playing().length > 0;
    const started = status !== "waiting";
    const playing = status === "playing";
    const hints = (() => {
      if (!started) return NOT_STARTED;
      if (!this.myTurn()) return "Hints are for your own turn.";
      return null;
    })();
    const open = openSeats(view.seats).length;
    const shown = (show, reason = null) => ({ show, reason: show ? reason : null });
    return {
      possible: shown(seated && status !== "finished", hints),
      best: shown(seated && status !== "finished", hints),
      suggest: shown(seated && status !== "finished", hints),
      thinking: shown(true),
      start: shown(this.host && !started, open ? `${count(open, "seat")} still open: Fill ${open === 1 ? "it" : "them"} with the computer, or wait for friends to take ${open === 1 ? "it" : "them"}.` : null),
      fill: shown(this.host && !started, open ? null : "Every seat is taken."),
      undo: shown(seated && playing, view.moves.length ? null : "No move to take back yet."),
      "offer-draw": shown(seated && playing, this.drawOff()),
      resign: shown(seated && playing && !this.abortable()),
      claim: shown(this.claimable()),
      abort: shown(seated && playing && this.abortable()),
      "new-game": shown(seated && started),
      "score-card": shown(true),
      replay: shown(started),
      save: shown(started),
      load: shown((seated || this.host) && playing),
      export: shown(started),
      import: shown((seated || this.host) && playing),
    };
  }

  /** Whether the game counts for ratings, and why not (2.10), where the server says. */
  showRated(view) {
    if (typeof view.rated !== "boolean") {
      this.ratedLine.hidden = true;
      return;
    }
    // An aborted game counts for nobody, though the view may still call it rated.
    const rated = view.rated && view.ended !== "aborted";
    let words;
    if (view.ended === "aborted") words = "Aborted: not rated";
    else if (rated) words = view.status === "finished" ? "Rated game" : "Rated: counts for the players' ratings";
    else words = `Friendly (not rated)${view.unrated ? `: ${view.unrated}` : ""}`;
    this.ratedLine.textContent = words;
    this.ratedLine.dataset.rated = String(rated);
    this.ratedLine.hidden = false;
  }

  /** The room's time control by its title, where it has one: "Clock 5+3". */
  showControl(view) {
    const control = view.time_control;
    this.controlLine.hidden = !clocked(control);
    this.controlLine.textContent = clocked(control) ? `Clock ${controlLabel(control)}` : "";
  }

  /** What changed in how the game stands, for the log and the live region: each seat
   * newly out of it (its time ran out, or it resigned), in the history's words (history.js),
   * and the game's end where a room view ended it rather than a move. */
  tellEnding(before, view) {
    const ends = view.status === "finished";
    const outs = [
      ...(view.flagged ?? []).filter((colour) => !(before.flagged ?? []).includes(colour)).map((seat) => ({ kind: "flagged", seat })),
      ...(view.resigned ?? []).filter((colour) => !(before.resigned ?? []).includes(colour)).map((seat) => ({ kind: "resigned", seat })),
    ];
    for (const out of outs) {
      const name = view.seats.find((seat) => seat.colour === out.seat)?.holder?.name ?? null;
      let lines = [];
      try {
        lines = entryLines({ ...out, name, ends });
      } catch {
        continue;
      }
      for (const line of lines) {
        this.addLog(line, "note");
        if (!ends) announce(line);
      }
    }
    // A move's update told its result already, but not who was away at the end.
    const untold = before.status === "playing" ? view.ended !== "played" : (view.absent ?? []).length > (before.absent ?? []).length;
    if (ends && view.ended && untold) {
      const words = endingText(view);
      if (view.ended === "aborted" || view.ended === "claimed") this.addLog(words, "note");
      announce(words);
    }
  }

  /** The person here whose own clock runs: under ten seconds left, told once a turn. */
  lowTime(colour) {
    const whose = this.playing().length > 1 ? ` (${title(colour)})` : "";
    announce(`Under ten seconds left on your clock${whose}.`);
    if (soundOn()) sound.lowTime();
  }

  /** Play again at once, every seat's holder moved to the next seat in turn order. */
  async rematch() {
    try {
      await this.request({ type: "new_game", room: this.ref, rotate: true, version: this.view.version });
    } catch (error) {
      this.refuse(error);
    }
  }

  /** Keep `initials` for the best score made at `colour`; whether the server took them. */
  async keepInitials(colour, initials) {
    try {
      await this.request({ type: "initials", room: this.ref, seat: colour, initials });
      this.addLog(`Kept on the score card: ${initials.toUpperCase()}.`, "note");
      return true;
    } catch (error) {
      this.refuse(error);
      return false;
    }
  }

  /** A seat: its colour, who holds it with their rating (or its change at the end), its
   * score; a button to take it if open, and with `editing` the menu of who plays it. */
  seatItem(seat, editing) {
    const state = this.view.state;
    const mine = this.playing().includes(seat.colour);
    const route = state?.routes?.[seat.colour];
    const score = route ? `${state.progress[seat.colour]} of ${route.length}` : state?.scores?.[seat.colour];
    const swatch = element("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = SEAT_COLOURS[seat.colour] ?? "#888";
    const rating = seatRating(seat);
    const change = this.view.rating_changes?.[seat.colour] ?? null;
    const ratingNote = change
      ? element("span", { class: `rating rating-change ${change.after >= change.before ? "up" : "down"}`, title: "rating before and after this game" }, changeText(change))
      : rating
        ? element("span", { class: "rating", title: ratingTitle(rating) }, ratingText(rating))
        : null;
    const item = element(
      "li",
      { class: `seat${state?.to_move === seat.colour && this.view.status === "playing" ? " to-move" : ""}`, "data-colour": seat.colour },
      swatch,
      element("span", { class: "colour" }, title(seat.colour)),
      element("span", { class: "holder" }, ...this.holderNodes(seat, mine), ratingNote ? " " : null, ratingNote),
      element("span", { class: "score", title: route ? "targets reached" : "score" }, score === undefined ? "" : String(score)),
      this.clocks.node(seat.colour),
    );
    if (seat.holder.kind === "open" && this.playing().length === 0) {
      item.append(button(`Take ${title(seat.colour)}`, () => this.takeSeat(seat.colour), { class: "take", "data-colour": seat.colour, "data-key": `take-${seat.colour}` }));
    }
    if (handOverSeats(this.view, this.playing()).includes(seat.colour)) {
      item.append(handOverButton(seat.colour, () => askHandOver(this, seat.colour)));
    }
    if (editing && this.mayChange(seat)) item.append(this.seatSetter(seat));
    return item;
  }

  /** Who holds a seat, in words, the person's name a button (but for people at this page). */
  holderNodes(seat, mine) {
    const text = describeHolder(seat.holder, mine);
    const name = seat.holder?.name;
    const person = { name, player: seat.holder?.player ?? null };
    if (!name || this.yours().includes(seat.colour) || this.isMe(person)) return [text];
    const at = text.indexOf(name);
    if (at < 0) return [text];
    return [text.slice(0, at), ...this.personNodes(person), text.slice(at + name.length)];
  }

  /** Who is to hold a seat, as the originals' Human/Computer menu: a person at this
   * screen, the computer at a level, or nobody. */
  seatSetter(seat) {
    const levels = this.gameInfo()?.levels ?? [];
    const kind = seat.holder.kind;
    const here = kind === "human" && this.yours().includes(seat.colour);
    const select = element(
      "select",
      { "aria-label": `Who plays ${title(seat.colour)}`, "data-key": `set-${seat.colour}`, "data-colour": seat.colour },
      element("option", { value: "open", selected: kind === "open" }, "open"),
      element("option", { value: "human", selected: here }, "a person here"),
      ...levels.map((level) =>
        element(
          "option",
          { value: level, selected: kind !== "human" && kind !== "open" && seat.holder.level === level },
          `computer, ${level}`,
        ),
      ),
    );
    if (kind === "human" && !here) select.prepend(element("option", { value: "", selected: true, disabled: true }, seat.holder.name));
    select.addEventListener("change", async () => {
      const holder = select.value === "open" || select.value === "human" ? select.value : "bot";
      const message = { type: "set_seat", seat: seat.colour, holder };
      if (holder === "bot") message.level = select.value;
      if (!(await this.unratingAllowed(`${title(seat.colour)} changing hands`))) {
        this.render();
        return;
      }
      if (holder === "human" && !this.yours().includes(seat.colour) && this.playing().length > 0) {
        const name = await this.askName(seat.colour);
        if (name === null) {
          this.render();
          return;
        }
        if (name) message.name = name;
      }
      this.hostAction(message);
    });
    return select;
  }

  /** The name of one more person joining this screen; null if they changed their mind. */
  async askName(colour) {
    const input = element("input", {
      id: "person-name",
      maxlength: 32,
      autocomplete: "off",
      value: this.connection.name,
    });
    const { result } = openDialog(
      `A person here plays ${title(colour)}`,
      [
        element("p", {}, "People at one screen take turns at the keyboard. Keep your own name to play it yourself."),
        element("label", { for: "person-name" }, "Their name"),
        input,
      ],
      [
        { label: "Sit down", value: "ok", primary: true },
        { label: "Cancel", value: "cancel" },
      ],
    );
    return (await result) === "ok" ? input.value.trim() : null;
  }

  shareControls() {
    const url = `${window.location.protocol}//${sharedHost(this.connection.welcome)}/r/${this.ref}`;
    const field = element("input", { readonly: true, value: url, "aria-label": "Link to this room", id: "room-link" });
    const copy = copyButton("Copy", url, field, (done, node) => {
      if (done) node.textContent = "Copied";
    });
    return [element("label", { for: "room-link" }, "Send friends this link: they click a free colour to play"), field, copy];
  }
}

/** The server's address to give friends: this page's, unless it names this machine alone
 * and the server says where other machines reach it (protocol.md 2.1). */
export function sharedHost(welcome, where = window.location) {
  const hostname = where.hostname.replace(/^\[|\]$/g, "");
  const here = hostname === "localhost" || hostname === "::1" || hostname.startsWith("127.");
  const reach = welcome?.addresses ?? [];
  return here && reach.length ? reach[0] : where.host;
}
