/** A room (`/r/CODE`): the board, the seats, whose turn it is, the hints and the thinking, the
 * room's actions (undo, new game, save, load, files, score card), chat and the move log. */

import { BoardView, SEAT_COLOURS } from "./boards/view.js";
import { ConnectionLost } from "./connection.js";
import { callCoin, callsCoin, openDialog } from "./dialogs.js";
import { announce, button, element, rebuild } from "./dom.js";
import { presetOf, RoomFiles } from "./files.js";
import * as sound from "./sound.js";
import { forgetSeat, soundOn, storedSeat, storeSeat, storeSound } from "./storage.js";
import {
  coinText,
  defaultLevel,
  describeHolder,
  moveText,
  passText,
  proposalEndedText,
  proposalQuestion,
  searchText,
  seatText,
  title,
  turnText,
} from "./words.js";

const SUGGEST_MS = 2000;
const LOG_LINES = 200;
const GONE = "no_such_room";
const UNAVAILABLE = "unavailable";
const ENTER_AGAIN_MS = 1000;
const SHORTCUTS = { p: "possible", b: "best", s: "suggest", t: "thinking", u: "undo" };

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
    this.moving = false;
    this.files = new RoomFiles(this);
    this.onMessage = (event) => this.receive(event.detail);
    this.onReconnect = () => {
      this.proposalId = null;
      this.proposalDialog?.close();
      this.say("");
      this.enter();
    };
    this.onKey = (event) => this.shortcut(event);
  }

  // The page.

  show() {
    this.heading = element("h1", {}, "Room");
    this.turn = element("p", { class: "turn", id: "turn" });
    this.notice = element("p", { class: "notice", id: "notice" });
    this.rulesLink = element("a", { id: "rules-link", target: "_blank", rel: "noopener" });
    this.error = element("p", { class: "error", role: "alert", id: "error" });
    this.boardBox = element("div", { class: "board", id: "board" });
    this.board = new BoardView(this.boardBox, { onMove: (move) => this.play(move) });
    this.seatsList = element("ul", { class: "seats", id: "seats" });
    this.hostBox = element("div", { class: "host-controls" });
    this.share = element("div", { class: "share" });
    this.thinking = element("p", { class: "thinking", id: "thinking" });
    this.movesList = element("ol", { class: "log moves", "aria-label": "Moves" });
    this.log = element("ul", { class: "log talk", "aria-label": "Chat and news" });
    this.actions = this.buildActions();
    for (const control of this.actions.querySelectorAll("button")) {
      control.disabled = control.dataset.action !== "sound";
    }
    this.root.replaceChildren(
      element(
        "section",
        { class: "room" },
        element("div", { class: "play" }, this.heading, this.turn, this.notice, this.boardBox, this.error),
        element(
          "aside",
          { class: "side" },
          this.seatsList,
          this.hostBox,
          this.actions,
          this.thinking,
          this.share,
          element("h2", {}, "Moves"),
          this.movesList,
          element("h2", {}, "Chat"),
          this.log,
          this.chatForm(),
          element("p", {}, this.rulesLink),
          element("p", {}, this.lobbyLink()),
        ),
      ),
    );
    this.connection.addEventListener("message", this.onMessage);
    this.connection.addEventListener("reconnected", this.onReconnect);
    document.addEventListener("keydown", this.onKey);
    this.enter();
  }

  /** Leaving the page leaves the room: the seat stays ours, to come back to by its token. */
  destroy() {
    this.left = true;
    if (this.view) this.connection.request({ type: "leave", room: this.ref }).catch(() => {});
    this.connection.removeEventListener("message", this.onMessage);
    this.connection.removeEventListener("reconnected", this.onReconnect);
    document.removeEventListener("keydown", this.onKey);
    this.board.destroy();
    this.proposalDialog?.close();
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
          return;
        } catch (error) {
          if (error.code !== "bad_token") throw error;
          forgetSeat(this.ref);
        }
      }
      const watching = await this.request({ type: "spectate", room: this.ref });
      this.host = false;
      this.setView(watching.room, { animate: false });
      await this.resumeThinking();
    } catch (error) {
      if (error.code === GONE) this.gone(error.message);
      else if (!(error instanceof ConnectionLost)) this.say(error.message);
      // The room is moving to another server of a cluster: it will answer in a moment.
      if (error.code === UNAVAILABLE && !this.left) setTimeout(() => this.enter(), ENTER_AGAIN_MS);
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

  joined(joined) {
    this.host = joined.host;
    storeSeat(this.ref, { token: joined.token });
    this.setView(joined.room, { animate: false });
  }

  async takeSeat(colour) {
    try {
      this.joined(await this.request({ type: "join", room: this.ref, seat: colour }));
      announce(`You sit at ${title(colour)}.`);
    } catch (error) {
      this.say(error.message);
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
        if (message.room === room) {
          // The seat went to whoever came with its token; a host's seat carries hosting.
          this.seat = null;
          this.host = false;
          this.say("Your seat was taken back from another window; you are watching here.");
          this.refetch();
        }
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
        if (message.room === room) {
          const who = message.seat ? `${message.name} (${title(message.seat)})` : message.name;
          this.addLog(`${who}: ${message.text}`, "chat");
          announce(`${who} says: ${message.text}`);
        }
        break;
      default:
        break;
    }
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
    };
    this.seat = this.playingNow();
    this.retellMoves(this.view);
    this.notice.textContent = (update.passed ?? []).map(passText).join(" ");
    for (const colour of update.passed ?? []) this.addLog(passText(colour), "note");
    announce(moveText(update));
    this.board.show(update.state);
    this.afterChange(wasMyTurn);
    if (update.state.over) this.askInitials();
  }

  /** If a person at this page just made the best score on this board's card, ask their
   * initials for it, as Tribolo did. */
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
    const input = element("input", { id: "initials", maxlength: 3, autocomplete: "off", pattern: "[A-Za-z0-9]{1,3}", required: true });
    const { result } = openDialog(
      "A new best score!",
      [element("p", {}, `${best.name}: ${best.score} is the best score yet on this board. Your initials?`), input],
      [
        { label: "Keep them", value: "keep", primary: true },
        { label: "Skip", value: "skip" },
      ],
    );
    if ((await result) !== "keep" || !input.value.trim()) return;
    try {
      await this.request({ type: "initials", room: this.ref, seat: colour, initials: input.value.trim() });
      this.addLog(`Kept on the score card: ${input.value.trim().toUpperCase()}.`, "note");
    } catch (error) {
      this.refuse(error);
    }
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
    if (view.coin && JSON.stringify(view.coin) !== JSON.stringify(this.view?.coin ?? null)) {
      const words = coinText(view.coin);
      this.addLog(words, "note");
      this.notice.textContent = words;
      announce(words);
    }
    this.view = view;
    this.seat = this.playingNow();
    this.retellMoves(view);
    if (view.state) this.board.show(view.state, { animate: animate && !first });
    this.afterChange(wasMyTurn || first);
  }

  /** The numbered move list, in the game's notation, from the room's own list, with the
   * seats that changed hands between the moves. */
  retellMoves(view) {
    const changes = view.seat_changes ?? [];
    const changed = (after) =>
      changes
        .filter((change) => change.after === after)
        .map((change) => element("li", { class: "seat-change" }, `${title(change.seat)}: ${change.holder}`));
    const items = [];
    view.moves.forEach((move, index) => {
      items.push(...changed(index), element("li", { value: index + 1 }, move));
    });
    items.push(...changed(view.moves.length));
    this.movesList.replaceChildren(...items);
    this.movesList.scrollTop = this.movesList.scrollHeight;
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

  /** Whether this page may change who holds a seat: the host any seat no other person
   * here holds, anyone their own seats and open ones. */
  mayChange(seat) {
    if (seat.holder.kind === "open" || this.yours().includes(seat.colour)) return true;
    return this.host && !seat.holder.connected;
  }

  afterChange(wasMyTurn) {
    this.board.setHints([]);
    this.render();
    if (this.myTurn() && !wasMyTurn) {
      announce("Your move.");
      if (soundOn()) sound.yourTurn();
    }
  }

  myTurn() {
    const state = this.view?.state;
    return Boolean(state && !state.over && this.playing().includes(state.to_move));
  }

  showThinking(message) {
    const whose = message.of === "bot" ? `${title(message.seat)} thinks` : "Suggestion so far";
    this.thinking.textContent = `${whose}: ${searchText(message.search)}`;
    this.turn.textContent = turnText({ ...this.view, playing: this.playing() }, this.host);
  }

  async proposed(proposal) {
    if (!this.yours().some((colour) => proposal.asked.includes(colour))) {
      this.addLog(`${proposal.kind === "undo" ? "Undo" : "New game"} asked by ${title(proposal.by)}; waiting for answers.`, "note");
      return;
    }
    const { dialog, result } = openDialog(
      "A question",
      [element("p", {}, proposalQuestion(proposal)), element("p", {}, `It lapses in ${proposal.expires_in} s.`)],
      [
        { label: "Agree", value: "yes", primary: true },
        { label: "Decline", value: "no" },
      ],
      { quiet: true },
    );
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
    const words = proposalEndedText(ended);
    this.addLog(words, "note");
    announce(words);
  }

  // What the player does.

  async play(move) {
    if (this.moving) return;
    if (!this.myTurn()) {
      this.board.clearPick();
      this.say(this.seat ? "It is not your turn." : "Take a seat to play.");
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

  async hint(kind) {
    try {
      const reply = await this.request({ type: "hint", room: this.ref, kind });
      this.board.setHints(reply.moves);
      const words = reply.moves.length ? reply.moves.join(", ") : "none";
      this.thinking.textContent = `${kind === "best" ? "Best" : "Possible"}: ${words}`;
      announce(this.thinking.textContent);
    } catch (error) {
      this.refuse(error);
    }
  }

  async suggest() {
    this.thinking.textContent = "Looking for a good move…";
    try {
      const reply = await this.request({ type: "suggest", room: this.ref, think_ms: SUGGEST_MS });
      if (reply.version !== this.view.version) {
        this.thinking.textContent = "";
        return;
      }
      this.board.setHints([reply.search.move]);
      this.thinking.textContent = `Suggested: ${searchText(reply.search)}`;
      announce(`Suggested: ${reply.search.move}`);
    } catch (error) {
      this.thinking.textContent = "";
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
    try {
      await this.request({ type: "undo", room: this.ref });
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
    const request = { type: "new_game", room: this.ref };
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
        { label: "Give up", value: "yes", primary: true },
        { label: "Stay", value: "no" },
      ],
    );
    if ((await result) !== "yes") return;
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

  shortcut(event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, textarea, select, dialog")) return;
    const action = SHORTCUTS[event.key.toLowerCase()];
    const control = action && this.actions.querySelector(`[data-action="${action}"]`);
    if (control && !control.disabled) {
      event.preventDefault();
      control.click();
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
    this.say(error.message);
    if (soundOn()) sound.refused();
  }

  say(text) {
    this.error.textContent = text ? text.charAt(0).toUpperCase() + text.slice(1) : "";
  }

  addLog(text, kind) {
    this.log.append(element("li", { class: kind }, text));
    while (this.log.childElementCount > LOG_LINES) this.log.firstElementChild.remove();
    this.log.scrollTop = this.log.scrollHeight;
  }

  // Drawing the parts around the board.

  buildActions() {
    const thinking = button("Show thinking", () => this.toggleThinking(thinking), {
      "data-action": "thinking",
      "aria-pressed": "false",
    });
    const soundButton = button("Sound", () => {
      storeSound(!soundOn());
      soundButton.setAttribute("aria-pressed", String(soundOn()));
    }, { "data-action": "sound", "aria-pressed": String(soundOn()) });
    return element(
      "div",
      { class: "actions", role: "toolbar", "aria-label": "Room actions" },
      button("Possible", () => this.hint("possible"), { "data-action": "possible", title: "P: every legal move" }),
      button("Best", () => this.hint("best"), { "data-action": "best", title: "B: the original's Best move" }),
      button("Suggest", () => this.suggest(), { "data-action": "suggest", title: "S: the strongest level's choice" }),
      thinking,
      button("Undo", () => this.undo(), { "data-action": "undo", title: "U: take back your last move" }),
      button("New game", () => this.newGame(), { "data-action": "new-game" }),
      button("Save", () => this.files.save(), { "data-action": "save" }),
      button("Load", () => this.files.load(), { "data-action": "load" }),
      button("Export", () => this.files.exportGame(), { "data-action": "export" }),
      button("Import", () => this.files.importGame(), { "data-action": "import" }),
      button("Score card", () => this.files.scoreCard(), { "data-action": "score-card" }),
      button("Give up my seat", () => this.giveUp(), { "data-action": "give-up", title: "leave the room for good" }),
      soundButton,
    );
  }

  chatForm() {
    const input = element("input", { id: "chat", maxlength: 300, autocomplete: "off", "aria-label": "Chat" });
    const form = element("form", { class: "chat-form" }, input, element("button", { type: "submit" }, "Say"));
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const text = input.value.trim();
      if (text && (await this.chat(text))) input.value = "";
    });
    return form;
  }

  render() {
    const view = this.view;
    const gameTitle = this.gameTitle();
    this.heading.textContent = view.public ? gameTitle : `${gameTitle} (private room)`;
    this.rulesLink.href = `/rules/${view.game}`;
    this.rulesLink.textContent = `How to play ${gameTitle}`;
    document.title = `${this.myTurn() ? "Your move · " : ""}${gameTitle} · Parlour`;
    this.turn.textContent = turnText({ ...view, playing: this.playing() }, this.host);
    const scores = view.state?.scores ?? {};
    const seatsKey = JSON.stringify([view.seats, scores, view.state?.to_move, this.yours(), this.host, view.status]);
    rebuild(this.seatsList, seatsKey, () => view.seats.map((seat) => this.seatItem(seat)));
    const hosting = this.host && view.status === "waiting";
    rebuild(this.hostBox, JSON.stringify([hosting, view.game]), () => (hosting ? this.hostControls() : []));
    rebuild(this.share, this.ref, () => this.shareControls());
    const seated = this.playing().length > 0;
    const started = view.status !== "waiting";
    const allowed = {
      possible: this.myTurn(),
      best: this.myTurn(),
      suggest: this.myTurn(),
      thinking: true,
      undo: seated && view.status === "playing",
      "new-game": seated && started,
      save: started,
      load: (seated || this.host) && view.status === "playing",
      export: started,
      import: (seated || this.host) && view.status === "playing",
      "score-card": true,
      "give-up": this.yours().length > 0,
      sound: true,
    };
    for (const control of this.actions.querySelectorAll("button")) {
      control.disabled = !allowed[control.dataset.action];
    }
  }

  seatItem(seat) {
    const state = this.view.state;
    const mine = this.playing().includes(seat.colour);
    const route = state?.routes?.[seat.colour];
    const score = route ? `${state.progress[seat.colour]} of ${route.length}` : state?.scores?.[seat.colour];
    const swatch = element("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = SEAT_COLOURS[seat.colour] ?? "#888";
    const item = element(
      "li",
      { class: `seat${state?.to_move === seat.colour ? " to-move" : ""}`, "data-colour": seat.colour },
      swatch,
      element("span", { class: "colour" }, title(seat.colour)),
      element("span", { class: "holder" }, describeHolder(seat.holder, mine)),
      element("span", { class: "score", title: route ? "targets reached" : "score" }, score === undefined ? "" : String(score)),
    );
    if (seat.holder.kind === "open" && this.playing().length === 0) {
      item.append(button(`Take ${title(seat.colour)}`, () => this.takeSeat(seat.colour), { class: "take", "data-colour": seat.colour, "data-key": `take-${seat.colour}` }));
    }
    if (this.mayChange(seat)) item.append(this.seatSetter(seat));
    return item;
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

  hostControls() {
    const levels = this.gameInfo()?.levels ?? [];
    const level = element(
      "select",
      { "aria-label": "Level for the empty seats", "data-key": "fill-level" },
      ...levels.map((l) => element("option", { value: l, selected: l === defaultLevel(this.gameInfo()) }, l)),
    );
    return [
      element("label", {}, "Empty seats: computer, level ", level),
      button("Fill", () => this.hostAction({ type: "fill_bots", level: level.value }), { "data-action": "fill", "data-key": "fill" }),
      button("Start the game", () => this.start(), { class: "primary", "data-action": "start", "data-key": "start" }),
    ];
  }

  shareControls() {
    const url = `${window.location.origin}/r/${this.ref}`;
    const field = element("input", { readonly: true, value: url, "aria-label": "Link to this room", id: "room-link" });
    const copy = button("Copy", async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = "Copied";
      } catch {
        field.select();
      }
    });
    return [element("label", { for: "room-link" }, "Invite with this link"), field, copy];
  }
}
