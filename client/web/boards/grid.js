/** Square boards (the flank games and Tripppin): square names, where squares are, labels. */

import { font } from "./paint.js";
import { title } from "./palette.js";

const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const NAME = /^([a-z])(\d+)$/;
const LABEL_LEFT = 0.9;
const LABEL_TOP = 0.7;
const PAD = 0.12;

/** The unit step on screen of each cursor key. */
const KEY_STEPS = Object.freeze({
  up: [0, -1],
  down: [0, 1],
  left: [-1, 0],
  right: [1, 0],
});

/** The rules' name of a square from its 0-based row (from the top) and column: a1 top left. */
export function squareName(row, col) {
  return `${LETTERS[col]}${row + 1}`;
}

/**
 * Where the cursor goes from `from` on cursor key `key`, among `names` whose centres
 * `centreOf` gives: the nearest one that way (straight ahead counts more than aside), the
 * first name when there is no cursor yet, and `from` itself when nothing lies that way.
 */
export function stepAmong(names, centreOf, from, key) {
  if (names.length === 0) return null;
  if (from === null || from === undefined || !names.includes(from)) return names[0];
  const here = centreOf(from);
  const [dx, dy] = KEY_STEPS[key];
  let best = from;
  let bestScore = Infinity;
  for (const name of names) {
    const centre = centreOf(name);
    const x = centre.x - here.x;
    const y = centre.y - here.y;
    const along = x * dx + y * dy;
    if (along <= 1e-6) continue;
    const score = along + 2 * (Math.abs(x * dy) + Math.abs(y * dx));
    if (score < bestScore) {
      best = name;
      bestScore = score;
    }
  }
  return best;
}

/** A grid of `rows` x `cols` squares with column letters above and row numbers at the left. */
export class SquareGrid {
  #where = new Map();

  /** The grid's shape; `layout` places it. */
  constructor(rows, cols) {
    this.rows = rows;
    this.cols = cols;
    this.names = [];
    for (let row = 0; row < rows; row += 1) {
      for (let col = 0; col < cols; col += 1) {
        const name = squareName(row, col);
        this.names.push(name);
        this.#where.set(name, [row, col]);
      }
    }
    this.size = 0;
    this.left = 0;
    this.top = 0;
  }

  /** Width over height of the grid with its labels. */
  get aspect() {
    return (this.cols + LABEL_LEFT + PAD) / (this.rows + LABEL_TOP + PAD);
  }

  /** Fit the grid and its labels into `width` x `height` CSS pixels. */
  layout(width, height) {
    const unitsWide = this.cols + LABEL_LEFT + PAD;
    const unitsHigh = this.rows + LABEL_TOP + PAD;
    this.size = Math.max(1, Math.min(width / unitsWide, height / unitsHigh));
    this.left = (width - unitsWide * this.size) / 2 + LABEL_LEFT * this.size;
    this.top = (height - unitsHigh * this.size) / 2 + LABEL_TOP * this.size;
  }

  /** The 0-based row and column of a square name, or null when it is not on the grid. */
  position(name) {
    return this.#where.get(name) ?? null;
  }

  /** The top-left corner of square (row, col). */
  corner(row, col) {
    return { x: this.left + col * this.size, y: this.top + row * this.size };
  }

  /** The centre of a named square, or null. */
  centre(name) {
    const where = this.position(name);
    if (where === null) return null;
    const { x, y } = this.corner(...where);
    return { x: x + this.size / 2, y: y + this.size / 2 };
  }

  /** The square under point (x, y), or null. */
  cellAt(x, y) {
    const col = Math.floor((x - this.left) / this.size);
    const row = Math.floor((y - this.top) / this.size);
    const inside = row >= 0 && row < this.rows && col >= 0 && col < this.cols;
    return inside ? squareName(row, col) : null;
  }

  /** Where the cursor goes from `from` on cursor key `key`. */
  step(from, key) {
    return stepAmong(this.names, (name) => this.centre(name), from, key);
  }

  /** Column letters centred above their squares and row numbers left of theirs, in `ink`. */
  drawLabels(ctx, ink) {
    const size = Math.max(9, Math.min(15, this.size * 0.4));
    ctx.save();
    ctx.font = font(size, 500);
    ctx.fillStyle = ink;
    ctx.globalAlpha = 0.8;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const labelY = this.top - (LABEL_TOP * this.size) / 2;
    for (let col = 0; col < this.cols; col += 1) {
      ctx.fillText(LETTERS[col], this.left + (col + 0.5) * this.size, labelY);
    }
    ctx.textAlign = "right";
    const labelX = this.left - 0.22 * this.size;
    for (let row = 0; row < this.rows; row += 1) {
      ctx.fillText(String(row + 1), labelX, this.top + (row + 0.5) * this.size);
    }
    ctx.restore();
  }
}

/**
 * What the square boards (the flank games, Tripppin) share: the grid built from the
 * observation's `rows` and `cols`, and everything that is only the grid's to answer. A click
 * on one square is a whole move, named by that square.
 */
export class SquareBoard {
  /** The board of `observation`; `this.grid` is its squares. */
  constructor(observation) {
    this.observation = observation;
    this.title = title(observation.game);
    this.grid = new SquareGrid(observation.rows, observation.cols);
    this.shape = `${observation.game} ${observation.rows}x${observation.cols}`;
  }

  /** Width over height of the picture. */
  get aspect() {
    return this.grid.aspect;
  }

  /** Every square's name in reading order. */
  get cells() {
    return this.grid.names;
  }

  /** Fit the board into `width` x `height` CSS pixels. */
  layout(width, height) {
    this.grid.layout(width, height);
  }

  /** The square at (x, y) in CSS pixels of the canvas, or null. */
  cellAt(x, y) {
    return this.grid.cellAt(x, y);
  }

  /** The centre of a square in CSS pixels of the canvas, or null. */
  cellCentre(name) {
    return this.grid.centre(name);
  }

  /** Where the cursor goes from `from` on cursor key `key`. */
  step(from, key) {
    return this.grid.step(from, key);
  }

  /** One square is a whole move. */
  pick(_picked, square) {
    return { picked: [], move: square };
  }

  /** A move's text is the name of its square. */
  hintSquares(moves) {
    return new Set(moves.filter((move) => this.grid.position(move) !== null));
  }
}
