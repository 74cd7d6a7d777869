/** A game to step through, as lichess's analysis board: the board at the ply chosen (drawn by
 * the room's own canvas boards from the frame's `state`), the cells the move changed ringed,
 * who moved and what, the move list, and two charts under it: each seat's score over the
 * plies and the judge's share of the win for each seat (protocol.md 2.10 `replay`), the
 * worst moves marked and a cursor at the ply shown. Buttons, the slider, the charts, the
 * move list and the keys (Left, Right, Home, End) move through it.
 *
 * `ReplayView` draws one `replay` answer anywhere; `ReplayPage` is the page
 * `/#replay/RECORD` (a finished game from My games) or `/#replay/file` (a game file opened
 * from the lobby); a room opens its own at `/r/CODE#replay`.
 */

import { BoardView, canShow, SEAT_COLOURS } from "./boards/view.js";
import { LineChart } from "./chart.js";
import { button, element } from "./dom.js";
import { changeText } from "./players.js";
import { storedReplayFile } from "./storage.js";
import { setTitle } from "./turns.js";
import { holderLabel, title } from "./words.js";

const FILE = "file";
const STEP_KEYS = new Set(["ArrowLeft", "ArrowRight", "Home", "End", "w", "W"]);
/** How long digits typed one after another make one move number. */
const DIGITS_MS = 900;
const WHOLE = 1000;
/** Worst moves by how much of the win they threw away, in thousandths, as lichess names
 * its mistakes by the fall of the mover's chances (there 0.05, 0.1 and 0.15 of a share):
 * "??" a blunder, "?" a mistake, "?!" an inaccuracy. */
const SLIPS = [
  [150, "??", "a blunder"],
  [100, "?", "a mistake"],
  [0, "?!", "an inaccuracy"],
];
/** Finished games the lobby listed, by record, for what a replay does not carry (ratings). */
const known = new Map();

/** Keep what My games said of a record, for its replay page to show. */
export function rememberRecord(entry) {
  if (entry?.record) known.set(entry.record, entry);
}

/** Thousandths from a share that may come as a fraction of 1. */
function thousandths(values) {
  if (!Array.isArray(values)) return null;
  const numbers = values.map(Number);
  if (numbers.some((value) => !Number.isFinite(value))) return null;
  const total = numbers.reduce((sum, value) => sum + value, 0);
  return total <= 1.5 ? numbers.map((value) => Math.round(value * WHOLE)) : numbers.map(Math.round);
}

/** A `replay` answer made regular: seats, names, frames with each seat's scores and shares
 * in seat order, worst moves in thousandths, seat changes by `seat`. */
export function readReplay(reply) {
  const frames = reply.frames ?? [];
  const seats = reply.seats ?? frames[0]?.state?.seats ?? [];
  const inOrder = (values) => {
    if (Array.isArray(values)) return values.map(Number);
    if (values && typeof values === "object") return seats.map((seat) => Number(values[seat] ?? 0));
    return seats.map(() => 0);
  };
  return {
    game: reply.game ?? frames[0]?.state?.game,
    seats,
    names: seats.map((_, i) => reply.names?.[i] ?? ""),
    evaluator: reply.evaluator ?? null,
    result: reply.result ?? {},
    frames: frames.map((frame, ply) => ({
      ply: frame.ply ?? ply,
      move: frame.move ?? null,
      mover: frame.mover ?? null,
      state: frame.state,
      changed: frame.changed ?? [],
      ejected: frame.ejected ?? [],
      scores: inOrder(frame.scores ?? frame.state?.scores),
      evaluation: thousandths(frame.evaluation),
    })),
    worst: (reply.worst ?? []).map((slip) => ({
      ply: slip.ply,
      colour: slip.colour,
      loss: Math.abs(slip.loss) < 1 ? Math.round(slip.loss * WHOLE) : Math.round(slip.loss),
    })),
    seatChanges: (reply.seat_changes ?? []).map((change) => ({
      after: change.after,
      seat: change.seat ?? change.colour,
      holder: change.holder,
    })),
  };
}

/** A worst move's mark and words: ["??", "a blunder"]. */
export function slipMark(loss) {
  const [, mark, words] = SLIPS.find(([least]) => loss >= least);
  return [mark, words];
}

/** A disc of a seat's colour, before its name. */
function swatch(colour) {
  const disc = element("span", { class: "swatch", "aria-hidden": "true" });
  disc.style.background = SEAT_COLOURS[colour] ?? "#888";
  return disc;
}

/** The step buttons' pictures, on a 16 unit square: drawn, so that no font lacks them. */
const ICONS = {
  start: "M3 2h2v12H3z M13 2 6 8l7 6z",
  back: "M12 2 4 8l8 6z",
  forward: "M4 2l8 6-8 6z",
  end: "M11 2h2v12h-2z M3 2l7 6-7 6z",
};

/** A button that steps through the game, with its picture and its words for screen readers. */
function stepButton(step, words, action) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("width", "16");
  svg.setAttribute("height", "16");
  svg.setAttribute("aria-hidden", "true");
  const path = document.createElementNS("http://www.w3.org/2000/svg", "path");
  path.setAttribute("d", ICONS[step]);
  path.setAttribute("fill", "currentColor");
  svg.append(path);
  const control = button("", action, { "data-step": step, "aria-label": words, title: words });
  control.append(svg);
  return control;
}

/** Percent of a share in thousandths: "62%". */
function percent(share) {
  return `${Math.round(share / 10)}%`;
}

/** One game's replay in `root`. `back` is {label, action}: where the page goes from here.
 * `ratings` maps a colour to its {before, after}, where the game was rated. */
export class ReplayView {
  constructor(root, reply, { back = null, heading = null, ratings = null, gameTitle = null } = {}) {
    this.root = root;
    this.replay = readReplay(reply);
    this.back = back;
    this.heading = heading;
    this.ratings = ratings;
    this.gameTitle = gameTitle ?? title(this.replay.game);
    this.ply = 0;
    this.board = null;
    this.charts = [];
    this.onKey = (event) => this.key(event);
    this.digits = "";
    this.digitsTimer = 0;
  }

  get last() {
    return this.replay.frames.length - 1;
  }

  get frame() {
    return this.replay.frames[this.ply];
  }

  show(ply = this.last) {
    const replay = this.replay;
    this.section = element("section", { class: "replay", id: "replay", "aria-label": `Replay of a ${this.gameTitle} game` });
    if (replay.frames.length === 0 || !canShow(replay.game)) {
      this.section.append(element("h1", {}, this.heading ?? `Replay: ${this.gameTitle}`), element("p", { role: "alert" }, "This game has nothing this page can show."));
      this.root.append(this.section);
      return;
    }
    this.caption = element("p", { class: "turn replay-caption", id: "replay-caption", "aria-live": "polite" });
    this.boardBox = element("div", { class: "board", id: "replay-board" });
    this.scoresLine = element("p", { class: "replay-scores", id: "replay-scores" });
    this.slider = element("input", {
      type: "range",
      id: "replay-ply",
      min: 0,
      max: this.last,
      step: 1,
      value: ply,
      "aria-label": "Move shown",
    });
    this.slider.addEventListener("input", () => this.goTo(Number(this.slider.value)));
    this.counter = element("output", { for: "replay-ply", class: "replay-counter", id: "replay-counter" });
    this.moveList = element("ol", { class: "replay-moves", id: "replay-moves", "aria-label": "Moves" });
    const controls = element(
      "div",
      { class: "replay-controls", role: "toolbar", "aria-label": "Step through the game" },
      stepButton("start", "The start (Home)", () => this.goTo(0)),
      stepButton("back", "Back a move (Left)", () => this.goTo(this.ply - 1)),
      stepButton("forward", "Forward a move (Right)", () => this.goTo(this.ply + 1)),
      stepButton("end", "The end (End)", () => this.goTo(this.last)),
      this.slider,
      this.counter,
    );
    const scoreBox = element("div", { class: "chart", id: "score-chart" });
    const evalBox = element("div", { class: "chart", id: "eval-chart" });
    const judged = replay.frames.some((frame) => frame.evaluation !== null);
    const side = element(
      "aside",
      { class: "side replay-side" },
      element("h2", {}, "Who was winning"),
      judged ? evalBox : element("p", { class: "note" }, "No computer judged this game."),
      judged ? element("p", { class: "note chart-note" }, this.judgeNote()) : null,
      element("h2", {}, "Scores"),
      scoreBox,
      this.worstList(),
      element("h2", {}, "Moves"),
      this.moveList,
    );
    const backLink = this.back ? element("p", {}, button(this.back.label, this.back.action, { class: "quiet", id: "replay-back" })) : null;
    this.section.append(
      element(
        "div",
        { class: "replay-play" },
        element("h1", {}, this.heading ?? `Replay: ${this.gameTitle}`),
        this.playersLine(),
        this.caption,
        this.boardBox,
        this.scoresLine,
        controls,
        element(
          "p",
          { class: "note replay-keys" },
          "Keys: ",
          element("kbd", {}, "←"),
          " ",
          element("kbd", {}, "→"),
          " a move, ",
          element("kbd", {}, "Home"),
          " ",
          element("kbd", {}, "End"),
          " the start and the end, digits a move by its number, ",
          element("kbd", {}, "W"),
          " the next worst move; a click on a chart goes to that move.",
        ),
        backLink,
      ),
      side,
    );
    this.root.append(this.section);
    this.board = new BoardView(this.boardBox, { onSquare: () => {} });
    this.buildMoveList();
    const worst = replay.worst
      .map((slip) => ({ ply: slip.ply, series: replay.seats.indexOf(slip.colour) }))
      .filter((mark) => mark.series >= 0);
    const series = (pick) =>
      replay.seats.map((colour, i) => ({ colour, name: replay.names[i], values: replay.frames.map((frame) => pick(frame, i)) }));
    const pick = (ply) => this.goTo(ply);
    if (judged) {
      const chart = new LineChart(evalBox, { label: "Each seat's share of the win by the computer's judgement, move by move", onPick: pick, format: (v) => percent(v), middle: replay.seats.length === 2 ? WHOLE / 2 : null });
      chart.setData({ series: series((frame, i) => frame.evaluation?.[i] ?? null), min: 0, max: WHOLE, marks: worst });
      this.charts.push(chart);
    }
    const scores = new LineChart(scoreBox, { label: "Each seat's score, move by move", onPick: pick, height: 100 });
    const top = Math.max(1, ...replay.frames.flatMap((frame) => frame.scores));
    const bottom = Math.min(0, ...replay.frames.flatMap((frame) => frame.scores));
    scores.setData({ series: series((frame, i) => frame.scores[i]), min: bottom, max: top });
    this.charts.push(scores);
    document.addEventListener("keydown", this.onKey);
    this.goTo(ply, { animate: false, force: true });
  }

  destroy() {
    clearTimeout(this.digitsTimer);
    document.removeEventListener("keydown", this.onKey);
    this.board?.destroy();
    for (const chart of this.charts) chart.destroy();
    this.charts = [];
    this.section?.remove();
  }

  judgeNote() {
    const judge = this.replay.evaluator ? `Judged by the computer (${this.replay.evaluator}).` : "Judged by the computer.";
    return `${judge} Ringed: the moves that cost their player most. On the board, a ring marks each cell the move changed${this.replay.game === "oubliette" ? ", a broken orange one where a piece was pushed off" : ""}.`;
  }

  /** Who held each seat at the start, their final score, the winners, and rating changes. */
  playersLine() {
    const replay = this.replay;
    const final = replay.frames[replay.frames.length - 1];
    const winners = new Set(replay.result.winners ?? final?.state?.winners ?? []);
    const over = replay.result.over ?? final?.state?.over ?? false;
    const items = replay.seats.map((colour, i) => {
      const parts = [swatch(colour), element("span", { class: "colour" }, title(colour)), " ", element("span", { class: "holder" }, holderLabel(replay.names[i]) || "?")];
      parts.push(" ", element("span", { class: "score" }, String(final?.scores[i] ?? "")));
      if (over && winners.has(colour)) parts.push(" ", element("span", { class: "won" }, winners.size > 1 ? "tie" : "won"));
      const change = this.ratings?.[colour];
      if (change) parts.push(" ", element("span", { class: `rating-change ${change.after >= change.before ? "up" : "down"}` }, changeText(change)));
      return element("li", { "data-colour": colour }, ...parts);
    });
    const result = over ? "" : "The game was not finished.";
    return element("div", {}, element("ul", { class: "replay-players", id: "replay-players" }, ...items), result ? element("p", { class: "note" }, result) : null);
  }

  /** Who held `colour` when the move after `moves` moves was made, as the file names them. */
  holderAt(colour, moves) {
    const replay = this.replay;
    let holder = replay.names[replay.seats.indexOf(colour)];
    for (const change of replay.seatChanges) {
      if (change.seat === colour && change.after <= moves) holder = change.holder;
    }
    return holderLabel(holder);
  }

  worstList() {
    const replay = this.replay;
    if (replay.worst.length === 0) return null;
    const items = replay.worst.map((slip) => {
      const frame = replay.frames[slip.ply];
      const [mark, words] = slipMark(slip.loss);
      const go = button(`${slip.ply}. ${frame?.move ?? "?"}${mark}`, () => this.goTo(slip.ply), { class: "quiet", "data-ply": slip.ply });
      return element("li", {}, swatch(slip.colour), `${title(slip.colour)} `, go, ` ${words}: ${percent(slip.loss)} of the win lost`);
    });
    return element("div", {}, element("h2", {}, "Worst moves"), element("ul", { class: "replay-worst", id: "replay-worst" }, ...items));
  }

  buildMoveList() {
    const replay = this.replay;
    const slips = new Map(replay.worst.map((slip) => [slip.ply, slip]));
    const start = element("li", { class: "start", value: 0, "data-ply": 0 }, button("Start", () => this.goTo(0), { "data-ply": 0 }));
    const items = replay.frames.slice(1).map((frame) => {
      const slip = slips.get(frame.ply);
      const mark = slip ? slipMark(slip.loss)[0] : "";
      const label = element("span", { class: "move-text" }, `${frame.move}${mark}`);
      const control = button("", () => this.goTo(frame.ply), {
        "data-ply": frame.ply,
        "aria-label": `${frame.ply}. ${title(frame.mover)} ${frame.move}${slip ? `, ${slipMark(slip.loss)[1]}` : ""}`,
      });
      control.replaceChildren(element("span", { class: "ply-number" }, `${frame.ply}.`), swatch(frame.mover), label);
      return element("li", { value: frame.ply, "data-ply": frame.ply, class: slip ? "slip" : null }, control);
    });
    this.moveList.replaceChildren(start, ...items);
  }

  /** Show the board after `ply` moves. */
  goTo(ply, { animate = true, force = false } = {}) {
    const target = Math.min(this.last, Math.max(0, Math.round(Number(ply) || 0)));
    if (target === this.ply && !force) return;
    const step = Math.abs(target - this.ply) === 1;
    this.ply = target;
    const frame = this.frame;
    this.board.show(frame.state, { animate: animate && step });
    this.board.setChanged(frame.changed, frame.ejected);
    this.slider.value = String(target);
    this.counter.textContent = `${target} / ${this.last}`;
    this.caption.textContent = this.captionText(frame);
    this.scoresLine.replaceChildren(...this.scoreParts(frame));
    for (const chart of this.charts) chart.setCursor(target);
    this.section.dataset.ply = String(target);
    this.section.dataset.position = frame.state.position ?? "";
    for (const item of this.moveList.querySelectorAll("li[data-ply]")) {
      const current = Number(item.dataset.ply) === target;
      item.classList.toggle("current", current);
      const control = item.querySelector("button");
      if (current) control?.setAttribute("aria-current", "step");
      else control?.removeAttribute("aria-current");
    }
    this.showCurrentMove();
  }

  /** Scroll the move list (only it, never the page) to keep the move shown in sight. */
  showCurrentMove() {
    const list = this.moveList;
    const current = list.querySelector("li.current button");
    if (!current || list.clientHeight === 0) return;
    const box = list.getBoundingClientRect();
    const place = current.getBoundingClientRect();
    const top = place.top - box.top + list.scrollTop;
    if (top < list.scrollTop || top + place.height > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - (list.clientHeight - place.height) / 2);
    }
  }

  /** "Move 12 of 40: Red (Bob) played e5, turning 3 pieces." */
  captionText(frame) {
    const state = frame.state;
    if (frame.ply === 0) {
      const first = state.to_move ? `${title(state.to_move)} moves first.` : "";
      return `The start. ${first}`.trim();
    }
    const who = `${title(frame.mover)} (${this.holderAt(frame.mover, frame.ply - 1)})`;
    let did = `${who} played ${frame.move}`;
    const flipped = state.flipped?.length ?? 0;
    if (flipped) did += `, turning ${flipped} ${flipped === 1 ? "piece" : "pieces"}`;
    if (state.last_pushed) did += `, pushing ${state.last_pushed}`;
    if (state.last_ejected) did += frame.ejected.length ? ` and pushing one off from ${frame.ejected.join(", ")}` : " and pushing one off";
    const parts = [`Move ${frame.ply} of ${this.last}: ${did}.`];
    for (const seat of state.passed ?? []) parts.push(`${title(seat)} cannot move and passes.`);
    if (state.over) {
      const winners = state.winners ?? [];
      if (winners.length === 1) parts.push(`${title(winners[0])} wins.`);
      else if (winners.length > 1) parts.push(`${winners.map(title).join(" and ")} tie.`);
      else parts.push("The game is over.");
    } else if (state.to_move) {
      parts.push(`${title(state.to_move)} to move.`);
    }
    return parts.join(" ");
  }

  /** Each seat's score and share of the win at this ply. */
  scoreParts(frame) {
    const replay = this.replay;
    return replay.seats.flatMap((colour, i) => {
      const share = frame.evaluation ? ` (${percent(frame.evaluation[i])})` : "";
      const route = frame.state.routes?.[colour];
      const score = route ? `${frame.state.progress?.[colour] ?? 0} of ${route.length}` : String(frame.scores[i]);
      return [i ? " · " : "", element("span", { class: "seat-score", "data-colour": colour }, swatch(colour), `${title(colour)} ${score}${share}`)];
    });
  }

  /** The next of the worst moves after the ply shown, round to the first. */
  nextWorst() {
    const plies = [...new Set(this.replay.worst.map((slip) => slip.ply))].sort((a, b) => a - b);
    if (plies.length === 0) return this.ply;
    return plies.find((ply) => ply > this.ply) ?? plies[0];
  }

  /** The terminal's replay keys: Left, Right, Home and End step, digits go to a move by its
   * number, W to the next worst move; wherever the focus is but in a text field, a dialog
   * or the board (whose arrows move its cursor). */
  key(event) {
    const digit = /^[0-9]$/.test(event.key);
    if ((!STEP_KEYS.has(event.key) && !digit) || event.defaultPrevented) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (document.querySelector("dialog[open]")) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest("input, textarea, select, [contenteditable]")) return;
    event.preventDefault();
    if (digit) {
      clearTimeout(this.digitsTimer);
      this.digits = `${this.digits}${event.key}`.slice(-5);
      this.digitsTimer = setTimeout(() => {
        this.digits = "";
      }, DIGITS_MS);
      this.goTo(Number(this.digits));
      return;
    }
    this.digits = "";
    const to = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.last, w: this.nextWorst(), W: this.nextWorst() }[event.key];
    this.goTo(to);
  }
}

/** The page `/#replay/RECORD` or `/#replay/file`. */
export class ReplayPage {
  constructor(root, connection, which, navigate) {
    this.root = root;
    this.connection = connection;
    this.which = which;
    this.navigate = navigate;
    this.replayView = null;
    this.onReconnect = () => {
      if (this.replayView === null) this.load();
    };
  }

  show() {
    setTitle("Replay · Parlour");
    this.root.replaceChildren(element("p", { class: "loading", id: "replay-loading" }, "Loading the game…"));
    this.connection.addEventListener("reconnected", this.onReconnect);
    this.load();
  }

  destroy() {
    this.left = true;
    this.connection.removeEventListener("reconnected", this.onReconnect);
    this.replayView?.destroy();
    this.replayView = null;
  }

  async load() {
    const request = { type: "replay" };
    if (this.which === FILE) {
      const text = storedReplayFile();
      if (!text) {
        this.fail("No game file to show: open one from the lobby (Replay a game file).");
        return;
      }
      request.text = text;
    } else {
      request.record = this.which;
    }
    let reply;
    try {
      reply = await this.connection.request(request);
    } catch (error) {
      if (error.code !== "connection_lost") this.fail(error.message);
      return;
    }
    if (this.left) return;
    const entry = known.get(this.which);
    const ratings = entry ? Object.fromEntries((entry.seats ?? []).filter((seat) => seat.rating).map((seat) => [seat.colour, seat.rating])) : null;
    const game = this.connection.games.find((each) => each.name === reply.game);
    const gameTitle = game?.title ?? title(reply.game);
    setTitle(`Replay · ${gameTitle} · Parlour`);
    this.root.replaceChildren();
    this.replayView = new ReplayView(this.root, reply, {
      back: { label: "Back to the lobby", action: () => this.navigate("/") },
      ratings,
      gameTitle,
    });
    this.replayView.show();
  }

  fail(message) {
    const link = element("a", { href: "/" }, "Back to the lobby");
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.navigate("/");
    });
    this.root.replaceChildren(
      element("section", { class: "gone" }, element("h1", {}, "No game to replay"), element("p", { role: "alert", id: "replay-error" }, message.charAt(0).toUpperCase() + message.slice(1)), element("p", {}, link)),
    );
  }
}
