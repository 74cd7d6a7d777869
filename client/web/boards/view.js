/**
 * A game's board on a canvas: sizing to its container, mouse, touch and keyboard input,
 * and animation. What each game draws, where its squares are and how clicks become moves
 * is the game family's module (flank.js, tripppin.js, oubliette.js), each a class built from
 * one observation with the same small shape:
 *
 *   title, shape, aspect, cells, layout(width, height), draw(ctx, marks, t),
 *   cellAt(x, y), cellCentre(name), step(from, key), pick(picked, square),
 *   hintSquares(moves, picked, kind), legend(), describe(name), animateFrom(previous),
 *   and, where a move takes several clicks (Oubliette), targets(picked)
 *
 * Positions are CSS pixels of the canvas; `marks` holds hints (a Set), picked, cursor,
 * showCursor and ink (the container's text colour, for labels); `t` is the animation's
 * progress, 1 at rest; legend() gives lines, each a list of strings and { swatch, text }
 * notes about a seat. pick() gives { picked, move, problem }: a finished move's text, or the
 * squares picked so far and, for a click that made no move, why (shown under the board
 * until the next click). hintSquares' `kind` is the hint asked for: `possible` lets a board
 * whose moves are several clicks (Oubliette) mark the pieces that can move, then, for the
 * pieces picked, where they can go; without it every square of every move is marked.
 *
 * The view holds no rules: the server decides what is legal (the observation's legal
 * moves, from which a board may say why a click makes none), and the view never changes
 * the position itself. It shows observations and reports finished moves through onMove.
 * A replay marks the cells a move changed (`setChanged`) with a ring of their own, drawn
 * over any board by the view.
 */

import { FlankBoard } from "./flank.js";
import { OublietteBoard } from "./oubliette.js";
import { ring } from "./paint.js";
import { SEAT_COLOURS } from "./palette.js";
import { TripppinBoard } from "./tripppin.js";

export { SEAT_COLOURS };

const FAMILIES = Object.freeze({
  tribolo: FlankBoard,
  numlo: FlankBoard,
  doublolo: FlankBoard,
  othello: FlankBoard,
  tripppin: TripppinBoard,
  oubliette: OublietteBoard,
});
const KEYS = Object.freeze({
  ArrowUp: "up",
  ArrowDown: "down",
  ArrowLeft: "left",
  ArrowRight: "right",
});
const MAX_HEIGHT = 0.75;
const TAP_SLOP = 12;
/** How long a flashing mark shows, then hides. */
const BLINK_MS = 530;
/** The ring round a cell a replayed move changed: bright inside a dark edge, to show on
 * any board and piece, and unlike the yellow of a hint. */
const CHANGED = "#1fd0e8";
const CHANGED_EDGE = "#0b3440";
/** A cell a piece was pushed off from (Oubliette): the ring broken, in warning orange. */
const EJECTED = "#ff7a1a";

/** Whether this view can draw observations of `game`. */
export function canShow(game) {
  return Object.hasOwn(FAMILIES, game);
}

/** A legend's words about one seat, kept on one line, after a disc of the seat's colour. */
function seatNote({ swatch, text }) {
  const note = document.createElement("span");
  note.className = "board-legend-seat";
  note.style.whiteSpace = "nowrap";
  const disc = document.createElement("span");
  disc.className = "board-swatch";
  disc.setAttribute("aria-hidden", "true");
  Object.assign(disc.style, {
    display: "inline-block",
    width: "0.8em",
    height: "0.8em",
    marginRight: "0.35em",
    borderRadius: "50%",
    verticalAlign: "-0.05em",
    background: swatch,
    boxShadow: "inset 0 0 0 1px rgba(0, 0, 0, 0.45)",
  });
  note.append(disc, text);
  return note;
}

function reducedMotion() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

/** One game's board in a container the view owns: a canvas and a legend paragraph. */
export class BoardView {
  #container;
  #canvas;
  #ctx;
  #legend;
  #note;
  #onMove;
  #board = null;
  #hints = [];
  #hintKind = null;
  #hintSet = new Set();
  #picked = [];
  #cursor = null;
  #keyboard = false;
  #width = 0;
  #height = 0;
  #ink = "#333333";
  #animation = null;
  #frame = 0;
  #resizeFrame = 0;
  #press = null;
  #observer;
  #onSquare;
  #listeners = [];
  #blinkTimer = 0;
  #lit = true;
  #changed = [];
  #ejected = [];

  /** Take over `container` (empty); `onMove(text)` hears each move a click or Enter makes,
   * or, given `onSquare(name)`, each square clicked (an editor's board) instead. */
  constructor(container, { onMove, onSquare } = {}) {
    this.#container = container;
    this.#onMove = onMove ?? (() => {});
    this.#onSquare = onSquare ?? null;
    const canvas = document.createElement("canvas");
    canvas.className = "board-canvas";
    canvas.tabIndex = 0;
    canvas.setAttribute("role", "application");
    canvas.setAttribute("aria-roledescription", "game board");
    canvas.setAttribute("aria-label", "Game board");
    Object.assign(canvas.style, {
      display: "block",
      margin: "0 auto",
      touchAction: "manipulation",
    });
    canvas.width = 0;
    canvas.height = 0;
    const legend = document.createElement("p");
    legend.className = "board-legend";
    legend.hidden = true;
    const note = document.createElement("p");
    note.className = "board-note";
    note.setAttribute("role", "status");
    note.hidden = true;
    Object.assign(note.style, { margin: "0.4em 0 0", fontWeight: "600" });
    container.append(canvas, note, legend);
    this.#canvas = canvas;
    this.#legend = legend;
    this.#note = note;
    this.#ctx = canvas.getContext("2d");
    this.#listen(canvas, "pointerdown", (event) => this.#pointerDown(event));
    this.#listen(canvas, "pointerup", (event) => this.#pointerUp(event));
    this.#listen(canvas, "pointercancel", () => {
      this.#press = null;
    });
    this.#listen(canvas, "pointermove", (event) => this.#hover(event));
    this.#listen(canvas, "keydown", (event) => this.#key(event));
    this.#listen(canvas, "focus", () => this.#focused(canvas.matches(":focus-visible")));
    this.#listen(canvas, "blur", () => this.#focused(false));
    this.#listen(window, "resize", () => this.#resize());
    this.#observer = new ResizeObserver(() => this.#resizeSoon());
    this.#observer.observe(container);
  }

  /** Draw `observation`, animating what changed since the last one shown; clears the pick. */
  show(observation, { animate = true } = {}) {
    const game = observation?.game;
    if (!canShow(game)) throw new Error(`no board for the game ${game}`);
    const Family = FAMILIES[game];
    const board = new Family(observation);
    const previous = this.#board;
    const same = previous !== null && previous.shape === board.shape;
    const duration = same && animate && !reducedMotion() ? board.animateFrom(previous) : 0;
    if (!same) this.#cursor = null;
    if (previous === null || previous.observation.position !== observation.position) {
      this.#hints = [];
      this.#hintKind = null;
    }
    this.#board = board;
    this.#picked = [];
    this.#say(null);
    this.#hintSet = board.hintSquares(this.#hints, this.#picked, this.#hintKind);
    this.#animation = duration > 0 ? { start: performance.now(), duration } : null;
    this.#renderLegend();
    this.#describe();
    this.#resize();
    if (this.#animation !== null) this.#animate();
    this.#blink(Boolean(board.blinks) && !reducedMotion());
  }

  /** Flash what the board flashes (Tripppin's next targets) while it wants to. */
  #blink(wanted) {
    if (wanted && this.#blinkTimer === 0) {
      this.#blinkTimer = setInterval(() => {
        this.#lit = !this.#lit;
        this.#draw();
      }, BLINK_MS);
    } else if (!wanted && this.#blinkTimer !== 0) {
      clearInterval(this.#blinkTimer);
      this.#blinkTimer = 0;
      this.#lit = true;
    }
  }

  /** Highlight the squares of these move texts; [] clears. `kind` is the hint asked for
   * (`possible`, `best`), which a board may mark in its own way. */
  setHints(moves, { kind = null } = {}) {
    this.#hints = [...moves];
    this.#hintKind = this.#hints.length > 0 ? kind : null;
    this.#markHints();
    this.#draw();
  }

  /** Ring these cells (a replayed move's: placed, flipped, slid, pushed); [] clears. The
   * `ejected` ones (a piece pushed off from there) get a broken ring of their own. */
  setChanged(cells, ejected = []) {
    this.#changed = [...(cells ?? [])];
    this.#ejected = [...(ejected ?? [])];
    this.#draw();
  }

  /** The cells ringed as changed. */
  get changed() {
    return [...this.#changed];
  }

  /** The cells ringed as those a piece was pushed off from. */
  get ejected() {
    return [...this.#ejected];
  }

  /** The observation shown now (a test hook), or null. */
  get observation() {
    return this.#board?.observation ?? null;
  }

  /** The squares marked as hints now, in no order (a test hook, and for the label). */
  get hinted() {
    return [...this.#hintSet];
  }

  /** The cells a click on would finish a move of the squares picked so far (a test hook). */
  get targets() {
    return [...(this.#board?.targets?.(this.#picked) ?? [])];
  }

  /** Why the last click made no move, as shown under the board; "" for nothing. */
  get note() {
    return this.#note.hidden ? "" : this.#note.textContent;
  }

  #say(problem) {
    this.#note.textContent = problem ?? "";
    this.#note.hidden = !problem;
  }

  /** Forget the squares picked towards a move. */
  clearPick() {
    this.#say(null);
    this.#picked = [];
    this.#markHints();
    this.#describe();
    this.#draw();
  }

  #markHints() {
    const board = this.#board;
    this.#hintSet = board === null ? new Set() : board.hintSquares(this.#hints, this.#picked, this.#hintKind);
  }

  /** Take a key pressed elsewhere on the page (an arrow with nothing focused) as if pressed on
   * the board, which takes the focus. */
  press(event) {
    this.#canvas.focus();
    this.#key(event);
  }

  /** Give the board keyboard focus. */
  focus() {
    this.#canvas.focus();
  }

  /** Stop listening and observing, and take the canvas and legend out of the container. */
  destroy() {
    this.#blink(false);
    cancelAnimationFrame(this.#frame);
    cancelAnimationFrame(this.#resizeFrame);
    this.#observer.disconnect();
    for (const [target, type, handler] of this.#listeners) {
      target.removeEventListener(type, handler);
    }
    this.#listeners = [];
    this.#canvas.remove();
    this.#note.remove();
    this.#legend.remove();
    this.#board = null;
  }

  /** Test hook: the viewport (client) CSS coordinates of a square's centre. */
  cellCentre(name) {
    const centre = this.#board?.cellCentre(name) ?? null;
    if (centre === null || this.#width === 0) return null;
    const rect = this.#canvas.getBoundingClientRect();
    return {
      x: rect.left + (centre.x * rect.width) / this.#width,
      y: rect.top + (centre.y * rect.height) / this.#height,
    };
  }

  /** Test hook: the [r, g, b] of the device pixel at a square's centre, animations done. */
  colourAt(name) {
    const centre = this.#board?.cellCentre(name) ?? null;
    if (centre === null || this.#width === 0) return null;
    if (this.#animation !== null) {
      this.#animation = null;
      this.#draw();
    }
    const x = Math.floor((centre.x * this.#canvas.width) / this.#width);
    const y = Math.floor((centre.y * this.#canvas.height) / this.#height);
    const probe = document.createElement("canvas").getContext("2d", { willReadFrequently: true });
    probe.canvas.width = 1;
    probe.canvas.height = 1;
    probe.drawImage(this.#canvas, x, y, 1, 1, 0, 0, 1, 1);
    const [r, g, b] = probe.getImageData(0, 0, 1, 1).data;
    return [r, g, b];
  }

  /** The cells picked so far towards a move (Oubliette's line), in picking order. */
  get picked() {
    return [...this.#picked];
  }

  /** The keyboard cursor's square, or null. */
  get cursor() {
    return this.#cursor;
  }

  #listen(target, type, handler) {
    target.addEventListener(type, handler);
    this.#listeners.push([target, type, handler]);
  }

  #resizeSoon() {
    cancelAnimationFrame(this.#resizeFrame);
    this.#resizeFrame = requestAnimationFrame(() => this.#resize());
  }

  /** Fit the canvas to the container's width and 75% of the viewport's height, and draw. */
  #resize() {
    const board = this.#board;
    if (board === null) return;
    const style = getComputedStyle(this.#container);
    this.#ink = style.color || this.#ink;
    const padding = Number.parseFloat(style.paddingLeft) + Number.parseFloat(style.paddingRight);
    const available = Math.max(0, this.#container.clientWidth - (padding || 0));
    const tallest = window.innerHeight * MAX_HEIGHT;
    const width = Math.floor(Math.min(available, tallest * board.aspect));
    const height = Math.floor(width / board.aspect);
    const ratio = window.devicePixelRatio || 1;
    const canvas = this.#canvas;
    const pixelsWide = Math.round(width * ratio);
    const pixelsHigh = Math.round(height * ratio);
    if (width !== this.#width || height !== this.#height || canvas.width !== pixelsWide) {
      this.#width = width;
      this.#height = height;
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      canvas.width = pixelsWide;
      canvas.height = pixelsHigh;
    }
    board.layout(width, height);
    this.#draw();
  }

  #animate() {
    cancelAnimationFrame(this.#frame);
    const frame = () => {
      this.#draw();
      this.#frame = this.#animation === null ? 0 : requestAnimationFrame(frame);
    };
    this.#frame = requestAnimationFrame(frame);
  }

  #progress() {
    if (this.#animation === null) return 1;
    const { start, duration } = this.#animation;
    const t = (performance.now() - start) / duration;
    if (t < 1) return Math.max(0, t);
    this.#animation = null;
    return 1;
  }

  #draw() {
    const board = this.#board;
    const canvas = this.#canvas;
    if (board === null || this.#width === 0 || this.#height === 0) return;
    const t = this.#progress();
    const ctx = this.#ctx;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(canvas.width / this.#width, 0, 0, canvas.height / this.#height, 0, 0);
    const marks = {
      hints: this.#hintSet,
      picked: this.#picked,
      cursor: this.#cursor,
      showCursor: this.#keyboard,
      ink: this.#ink,
      blink: this.#lit,
    };
    ctx.save();
    board.draw(ctx, marks, t);
    ctx.restore();
    if (this.#changed.length + this.#ejected.length > 0 && t >= 1) this.#drawChanged(ctx, board);
  }

  /** A ring round each changed cell, as wide as the cell: the distance to its nearest
   * neighbour, so the same on every board. */
  #drawChanged(ctx, board) {
    const names = board.cells ?? [];
    const ejected = new Set(this.#ejected);
    ctx.save();
    for (const name of new Set([...this.#changed, ...this.#ejected])) {
      const centre = board.cellCentre(name);
      if (centre === null) continue;
      let nearest = Infinity;
      for (const other of names) {
        if (other === name) continue;
        const there = board.cellCentre(other);
        if (there === null) continue;
        nearest = Math.min(nearest, Math.hypot(there.x - centre.x, there.y - centre.y));
      }
      if (!Number.isFinite(nearest)) continue;
      const radius = nearest * 0.46;
      const width = Math.max(2, nearest * 0.07);
      if (ejected.has(name)) {
        const gap = (2 * Math.PI * radius) / 16;
        ctx.setLineDash([gap, gap * 0.6]);
        ring(ctx, centre.x, centre.y, radius, CHANGED_EDGE, width + 2);
        ring(ctx, centre.x, centre.y, radius, EJECTED, width);
        ctx.setLineDash([]);
      } else {
        ring(ctx, centre.x, centre.y, radius, CHANGED_EDGE, width + 2);
        ring(ctx, centre.x, centre.y, radius, CHANGED, width);
      }
    }
    ctx.restore();
  }

  #renderLegend() {
    const legend = this.#legend;
    const lines = this.#board.legend();
    legend.replaceChildren();
    lines.forEach((parts, i) => {
      if (i > 0) legend.append(document.createElement("br"));
      for (const part of parts) {
        legend.append(typeof part === "string" ? part : seatNote(part));
      }
    });
    legend.hidden = lines.length === 0;
  }

  /** Keep the canvas's accessible label on the board and the cursor's square. */
  #describe() {
    const board = this.#board;
    if (board === null) return;
    let where = "Use the arrow keys to move the cursor.";
    if (this.#cursor !== null) {
      where = board.describe(this.#cursor);
      if (this.#picked.includes(this.#cursor)) where += ", picked";
      if (this.#hintSet.has(this.#cursor)) where += ", hinted";
    }
    this.#canvas.setAttribute("aria-label", `${board.title} board. ${where}`);
  }

  #cellAtClient(clientX, clientY) {
    if (this.#board === null || this.#width === 0) return null;
    const rect = this.#canvas.getBoundingClientRect();
    const x = ((clientX - rect.left) * this.#width) / rect.width;
    const y = ((clientY - rect.top) * this.#height) / rect.height;
    return this.#board.cellAt(x, y);
  }

  /** What a click, tap, Enter or Space on `square` does: pick, or finish a move. */
  #act(square) {
    if (this.#onSquare !== null) {
      this.#cursor = square;
      this.#onSquare(square);
      return;
    }
    const result = this.#board.pick(this.#picked, square);
    this.#picked = result.picked;
    this.#say(result.problem);
    this.#markHints();
    this.#cursor = square;
    this.#describe();
    this.#draw();
    if (result.move) this.#onMove(result.move);
  }

  #pointerDown(event) {
    if (!event.isPrimary || event.button !== 0) return;
    this.#press = { id: event.pointerId, x: event.clientX, y: event.clientY };
    if (this.#keyboard) {
      this.#keyboard = false;
      this.#draw();
    }
  }

  #pointerUp(event) {
    const press = this.#press;
    this.#press = null;
    if (press === null || press.id !== event.pointerId || this.#board === null) return;
    if (Math.hypot(event.clientX - press.x, event.clientY - press.y) > TAP_SLOP) return;
    const square = this.#cellAtClient(event.clientX, event.clientY);
    if (square !== null) this.#act(square);
  }

  #hover(event) {
    if (event.pointerType !== "mouse") return;
    const square = this.#cellAtClient(event.clientX, event.clientY);
    this.#canvas.style.cursor = square === null ? "" : "pointer";
  }

  #key(event) {
    if (this.#board === null || event.altKey || event.ctrlKey || event.metaKey) return;
    const key = KEYS[event.key];
    if (key !== undefined) {
      event.preventDefault();
      this.#cursor = this.#board.step(this.#cursor, key);
      this.#keyboard = true;
      this.#describe();
      this.#draw();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.#cursor !== null && !event.repeat) {
        this.#keyboard = true;
        this.#act(this.#cursor);
      }
    } else if (event.key === "Escape" && this.#picked.length > 0) {
      event.preventDefault();
      this.clearPick();
    }
  }

  #focused(visible) {
    if (visible === this.#keyboard) return;
    this.#keyboard = visible;
    this.#draw();
  }
}
