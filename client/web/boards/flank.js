/**
 * The flank games' board (Tribolo, Numlo, Doublolo, Othello): a grid of squares, column
 * letters above and row numbers at the left, a1 at the top left as the rules name squares.
 * Every square is a cell, blocked ones too, so the cursor moves evenly; the server refuses
 * a move on them.
 */

import { SquareBoard } from "./grid.js";
import {
  cursorBox,
  ease,
  flippedMark,
  hint,
  lastMoveMark,
  phase,
  piece,
  roundedRect,
  text,
} from "./paint.js";
import { COLOURS, mix, seatColour } from "./palette.js";

const EMPTY = ".";
const BLOCKED = "#";
const NO_VALUE = ".";
const FELT_GAMES = new Set(["othello", "doublolo"]);
const DURATION = 300;
const PIECE = 0.4;

/** A flank game's board drawn from one observation (its `board` rows and Numlo's `values`). */
export class FlankBoard extends SquareBoard {
  #seatOf;
  #colour;
  #placed = new Set();
  #flips = new Map();

  /** The board of `observation`. */
  constructor(observation) {
    super(observation);
    this.#seatOf = new Map(
      Object.entries(observation.letters ?? {}).map(([seat, letter]) => [letter, seat]),
    );
    this.#colour = FELT_GAMES.has(observation.game) ? COLOURS.felt : COLOURS.sand;
  }

  /** Nothing below the board: the scores are the room view's. */
  legend() {
    return [];
  }

  /** What a square holds, in words, for the board's accessible label. */
  describe(name) {
    const where = this.grid.position(name);
    if (where === null) return name;
    const char = this.#char(...where);
    const value = this.#value(...where);
    let words = "empty";
    if (char === BLOCKED) words = "blocked";
    else if (char !== EMPTY) words = this.#seatOf.get(char) ?? char;
    if (value !== null) words += `, worth ${value}`;
    if (name === this.observation.last_move) words += ", last move";
    else if ((this.observation.flipped ?? []).includes(name)) words += ", just flipped";
    return `${name}: ${words}`;
  }

  /**
   * Get ready to animate the change from `previous` (a board of the same shape): pieces
   * placed grow in, pieces flipped turn over. The animation's length in ms, 0 for none
   * (nothing changed, or something changed that a move cannot do, as a piece removed).
   */
  animateFrom(previous) {
    this.#placed.clear();
    this.#flips.clear();
    for (let row = 0; row < this.grid.rows; row += 1) {
      for (let col = 0; col < this.grid.cols; col += 1) {
        const before = previous.#char(row, col);
        const after = this.#char(row, col);
        if (before === after) continue;
        const name = this.grid.names[row * this.grid.cols + col];
        if (before === EMPTY && this.#seatOf.has(after)) {
          this.#placed.add(name);
        } else if (previous.#seatOf.has(before) && this.#seatOf.has(after)) {
          this.#flips.set(name, previous.#seatOf.get(before));
        } else {
          this.#placed.clear();
          this.#flips.clear();
          return 0;
        }
      }
    }
    return this.#placed.size + this.#flips.size > 0 ? DURATION : 0;
  }

  /** Draw the board with `marks` (hints, cursor) at animation progress `t` (1: at rest). */
  draw(ctx, marks, t = 1) {
    const grid = this.grid;
    const size = grid.size;
    const edge = Math.max(1, size * 0.05);
    const { x: left, y: top } = grid.corner(0, 0);
    const width = grid.cols * size;
    const height = grid.rows * size;
    const rim = edge * 2;
    roundedRect(ctx, left - rim, top - rim, width + 2 * rim, height + 2 * rim, edge * 3);
    ctx.fillStyle = mix(this.#colour, "#000000", 0.35);
    ctx.fill();
    for (let row = 0; row < grid.rows; row += 1) {
      for (let col = 0; col < grid.cols; col += 1) {
        this.#drawSquare(ctx, row, col, edge, t);
      }
    }
    for (const name of marks.hints) {
      const centre = grid.centre(name);
      if (centre !== null) hint(ctx, centre.x, centre.y, size * 0.3);
    }
    if (marks.cursor !== null && marks.showCursor) {
      const where = grid.position(marks.cursor);
      if (where !== null) {
        const corner = grid.corner(...where);
        cursorBox(ctx, corner.x, corner.y, size, size);
      }
    }
    grid.drawLabels(ctx, marks.ink);
  }

  #drawSquare(ctx, row, col, edge, t) {
    const size = this.grid.size;
    const { x, y } = this.grid.corner(row, col);
    const cx = x + size / 2;
    const cy = y + size / 2;
    const char = this.#char(row, col);
    const value = this.#value(row, col);
    if (char === BLOCKED) {
      this.#drawBlocked(ctx, x + edge / 2, y + edge / 2, size - edge);
      return;
    }
    ctx.fillStyle = this.#colour;
    ctx.fillRect(x + edge / 2, y + edge / 2, size - edge, size - edge);
    if (char === EMPTY) {
      if (value !== null) text(ctx, value, cx, cy, Math.max(9, size * 0.48), COLOURS.digit, 700);
      return;
    }
    const name = this.grid.names[row * this.grid.cols + col];
    const seat = this.#seatOf.get(char);
    const colour = seatColour(seat);
    const radius = size * PIECE;
    if (value !== null) {
      const digit = Math.max(7, size * 0.26);
      text(ctx, value, x + size - digit * 0.55, y + size - digit * 0.6, digit, COLOURS.digit, 700);
    }
    const animated = t < 1 && (this.#placed.has(name) || this.#flips.has(name));
    if (animated && this.#placed.has(name)) {
      const grow = ease(phase(t, 0, 0.55));
      piece(ctx, cx, cy, radius * (0.3 + 0.7 * grow), colour);
      return;
    }
    if (animated) {
      const turn = phase(t, 0.25, 1);
      const before = seatColour(this.#flips.get(name));
      piece(ctx, cx, cy, radius, turn < 0.5 ? before : colour, Math.abs(Math.cos(Math.PI * turn)));
      return;
    }
    piece(ctx, cx, cy, radius, colour);
    if (name === this.observation.last_move) lastMoveMark(ctx, cx, cy, radius, colour);
    else if ((this.observation.flipped ?? []).includes(name)) {
      flippedMark(ctx, cx, cy, radius, colour);
    }
  }

  #drawBlocked(ctx, x, y, size) {
    ctx.save();
    ctx.fillStyle = COLOURS.blocked;
    ctx.fillRect(x, y, size, size);
    ctx.beginPath();
    ctx.rect(x, y, size, size);
    ctx.clip();
    ctx.strokeStyle = COLOURS.blockedHatch;
    ctx.lineWidth = Math.max(1, size * 0.06);
    const gap = Math.max(4, size / 4);
    for (let offset = -size; offset < size; offset += gap) {
      ctx.beginPath();
      ctx.moveTo(x + offset, y + size);
      ctx.lineTo(x + offset + size, y);
      ctx.stroke();
    }
    ctx.restore();
  }

  #char(row, col) {
    return this.observation.board[row]?.[col] ?? EMPTY;
  }

  #value(row, col) {
    const value = this.observation.values?.[row]?.[col] ?? NO_VALUE;
    return value === NO_VALUE ? null : value;
  }
}
