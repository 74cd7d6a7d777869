/**
 * Oubliette's board: the hexagon of 61 round cells on a plate, row letters at the left of
 * each row and each diagonal's number below its lower end, as Abalone diagrams have them.
 *
 * A move is picked as the original game took it: the pieces of the line one by one, then
 * the cell the last of them moves to (or, to move the line along itself, the cell just
 * beyond either end). The cells a click would finish a legal move on are lit as soon as
 * pieces are picked; a click anywhere else keeps the pick and says why it makes no move, in
 * the rules' words (rules/oubliette.py, `OublietteState.refusal`, which the terminal's board
 * shows; a test holds the two to the same words). The last move is marked: a thin ring in
 * each piece it moved or pushed, a small ring in each cell it left, and a cross where a piece it
 * pushed off went, in a hole or just off the board.
 */

import {
  asLine,
  CELL_NAMES,
  coordinates,
  DIRECTIONS,
  destinations,
  directionTo,
  inOrder,
  keepConnected,
  neighbour,
  parseMove,
  ROW_LETTERS,
} from "./hex.js";
import {
  cursorRing,
  dot,
  ease,
  font,
  hint,
  piece,
  ring,
  roundedRect,
} from "./paint.js";
import { COLOURS, contrast, mix, seatColour, title } from "./palette.js";

const ROW_HEIGHT = Math.sqrt(3) / 2;
const TOP_ROW = 8;
const CELL = 0.47;
const PIECE = 0.4;
/** How far the plate reaches past the outer cells' centres, across its edges. */
const PLATE = 0.64;
const MARGIN = 0.1;
const LABEL_OUT = 1.12;
const NO_LIMIT = 9;
const DURATION = 280;
const CORNERS = ["e1", "a1", "a5", "e9", "i9", "i5"];
/** How far towards the next cell beyond the edge the cross of a piece pushed off is drawn:
 * on the plate's rim, inside the picture. */
const OFF_EDGE = 0.72;
const OPPOSITE = Object.freeze({ e: "w", w: "e", ne: "sw", sw: "ne", nw: "se", se: "nw" });
/** What a click with nothing picked is told (the same words as the terminal's board). */
export const HOW_TO_MOVE =
  "To move, click your pieces in a straight line one by one, then the cell the last one moves to.";

/** Where the cell (or label) at `row`, `number` is, in pitches from the top-left cell row. */
function unit(row, number) {
  return { x: number - row / 2, y: (TOP_ROW - row) * ROW_HEIGHT };
}

/** The order-free key of a line and a direction. */
function moveKey(line, direction) {
  return `${inOrder(line).join(",")} ${direction}`;
}

/** Oubliette's hexagon drawn from the observation's `row_cells`, pieces, holes and blocks. */
export class OublietteBoard {
  #cells;
  #seatOf;
  #holes;
  #blocks;
  #legal;
  #moved;
  #pushed;
  #left;
  #gone;
  #labels = [];
  #plate;
  #bounds;
  #pitch = 1;
  #origin = { x: 0, y: 0 };
  #slides = [];

  /** The board of `observation`. */
  constructor(observation) {
    this.observation = observation;
    this.title = title(observation.game);
    this.shape = `${observation.game} hexagon`;
    this.#cells = observation.row_cells.flat();
    this.#seatOf = OublietteBoard.#seats(observation);
    this.#holes = new Set(observation.holes);
    this.#blocks = new Set(observation.blocks);
    this.#legal = new Map();
    for (const text of observation.legal_moves) {
      const parsed = parseMove(text);
      if (parsed !== null) this.#legal.set(moveKey(parsed.line, parsed.direction), text);
    }
    [this.#moved, this.#pushed, this.#left, this.#gone] = this.#lastMove();
    this.#shapeInUnits();
  }

  static #seats(observation) {
    return new Map(
      Object.entries(observation.pieces).flatMap(([seat, cells]) => cells.map((c) => [c, seat])),
    );
  }

  /** Where the labels and the plate go, and the picture's extent, with a pitch of 1. */
  #shapeInUnits() {
    const lowest = new Map();
    for (const names of this.observation.row_cells) {
      const [row, first] = coordinates(names[0]);
      this.#labels.push({ text: names[0][0], ...this.#outward(unit(row, first), row, first - 1) });
      for (const name of names) {
        const number = coordinates(name)[1];
        lowest.set(number, Math.min(row, lowest.get(number) ?? row));
      }
    }
    for (const [number, row] of lowest) {
      this.#labels.push({
        text: String(number),
        ...this.#outward(unit(row, number), row - 1, number),
      });
    }
    const middle = unit(4, 5);
    this.#plate = CORNERS.map((name) => {
      const corner = unit(...coordinates(name));
      const stretch = (4 + PLATE / ROW_HEIGHT) / 4;
      return {
        x: middle.x + (corner.x - middle.x) * stretch,
        y: middle.y + (corner.y - middle.y) * stretch,
      };
    });
    const points = [
      ...this.#plate,
      ...this.#labels.flatMap(({ x, y }) => [
        { x: x - 0.3, y: y - 0.3 },
        { x: x + 0.3, y: y + 0.3 },
      ]),
    ];
    const xs = points.map((p) => p.x);
    const ys = points.map((p) => p.y);
    this.#bounds = {
      left: Math.min(...xs) - MARGIN,
      top: Math.min(...ys) - MARGIN,
      width: Math.max(...xs) - Math.min(...xs) + 2 * MARGIN,
      height: Math.max(...ys) - Math.min(...ys) + 2 * MARGIN,
    };
  }

  /** A label's place: from its cell towards `row`, `number`, a little further out. */
  #outward(from, row, number) {
    const to = unit(row, number);
    return { x: from.x + (to.x - from.x) * LABEL_OUT, y: from.y + (to.y - from.y) * LABEL_OUT };
  }

  /**
   * What the last move did: where its line went, where the pieces it pushed went (a hole
   * too), the cells the line left, and the [row, number] (perhaps off the board) where a
   * piece it pushed off went, or null.
   */
  #lastMove() {
    const parsed = this.observation.last_move ? parseMove(this.observation.last_move) : null;
    if (parsed === null) return [new Set(), new Set(), new Set(), null];
    const { line, direction } = parsed;
    const moved = destinations(line, direction);
    const ahead = [...moved].filter((cell) => !line.includes(cell));
    const pushed = new Set();
    const [dr, dn] = DIRECTIONS[direction];
    let lead = ahead.length === 1 ? coordinates(ahead[0]) : null;
    let gone = null;
    for (let i = 0; i < (this.observation.last_pushed ?? 0) && lead !== null; i += 1) {
      lead = [lead[0] + dr, lead[1] + dn];
      const name = `${ROW_LETTERS[lead[0]] ?? "?"}${lead[1]}`;
      if (CELL_NAMES.includes(name)) {
        pushed.add(name);
        gone = this.#holes.has(name) ? lead : null;
      } else {
        gone = lead;
      }
    }
    const left = new Set(line.filter((cell) => !moved.has(cell)));
    return [moved, pushed, left, this.observation.last_ejected ? gone : null];
  }

  /** The cells the last move's line went to (a test hook). */
  get moved() {
    return [...this.#moved];
  }

  /** The cells the last move's pushed pieces went to (a test hook). */
  get pushed() {
    return [...this.#pushed];
  }

  /** The cells the last move's line left (a test hook). */
  get left() {
    return [...this.#left];
  }

  /** Where a piece the last move pushed off went, as [row, number], or null (a test hook). */
  get gone() {
    return this.#gone;
  }

  /** Width over height of the picture. */
  get aspect() {
    return this.#bounds.width / this.#bounds.height;
  }

  /** Every cell's name, row by row from the top. */
  get cells() {
    return this.#cells;
  }

  /** Fit the board into `width` x `height` CSS pixels. */
  layout(width, height) {
    const bounds = this.#bounds;
    this.#pitch = Math.max(1, Math.min(width / bounds.width, height / bounds.height));
    this.#origin = {
      x: (width - bounds.width * this.#pitch) / 2 - bounds.left * this.#pitch,
      y: (height - bounds.height * this.#pitch) / 2 - bounds.top * this.#pitch,
    };
  }

  #point({ x, y }) {
    return { x: this.#origin.x + x * this.#pitch, y: this.#origin.y + y * this.#pitch };
  }

  /** The centre of a cell in CSS pixels of the canvas, or null. */
  cellCentre(name) {
    return this.#cells.includes(name) ? this.#point(unit(...coordinates(name))) : null;
  }

  /** The cell whose circle holds (x, y) in CSS pixels of the canvas, or null. */
  cellAt(x, y) {
    let found = null;
    let nearest = Infinity;
    for (const name of this.#cells) {
      const centre = this.cellCentre(name);
      const distance = Math.hypot(centre.x - x, centre.y - y);
      if (distance < nearest) {
        found = name;
        nearest = distance;
      }
    }
    return nearest <= this.#pitch / 2 ? found : null;
  }

  /**
   * Where the cursor goes from `from` on cursor key `key`. Left and right go along the row
   * and stop at its ends. Up and down go to a cell in the next row, north-west or north-east
   * by turns so that the cursor keeps to one column on screen and down undoes up; at the
   * board's edge to the other one.
   */
  step(from, key) {
    if (from === null || from === undefined || !CELL_NAMES.includes(from)) {
      return this.#cells[0] ?? null;
    }
    const [row] = coordinates(from);
    const tries = {
      left: ["w"],
      right: ["e"],
      up: row % 2 === 0 ? ["nw", "ne"] : ["ne", "nw"],
      down: (row + 1) % 2 === 0 ? ["se", "sw"] : ["sw", "se"],
    }[key];
    for (const direction of tries) {
      const found = neighbour(from, direction);
      if (found !== null && this.#cells.includes(found)) return found;
    }
    return from;
  }

  /**
   * Pieces of the mover's own are picked one by one into a line; then a cell next to the
   * last one picked is where that piece goes, which gives the direction and the move (a cell
   * just beyond either end of the line moves it along itself that way). Clicking a picked
   * piece again unpicks it, keeping the rest that still form a line with the earliest
   * picked. An own piece that does not extend the line (or would make it longer than the
   * limit) starts a new pick. A click that makes no legal move keeps the pick, and
   * `problem` says why.
   */
  pick(picked, square) {
    const mover = this.observation.to_move ?? null;
    if (picked.includes(square)) {
      const kept = keepConnected(picked.filter((cell) => cell !== square));
      return { picked: kept, move: null, problem: null };
    }
    if (mover !== null && this.#seatOf.get(square) === mover) {
      const extended = [...picked, square];
      const fits = asLine(extended).length > 0 && extended.length <= this.observation.limit;
      return { picked: fits ? extended : [square], move: null, problem: null };
    }
    const line = asLine(picked);
    if (mover === null || line.length === 0) {
      return { picked: [], move: null, problem: mover === null ? null : HOW_TO_MOVE };
    }
    const direction = this.#direction(picked, line, square);
    if (direction === null) {
      const where =
        line.length === 1
          ? `next to ${line[0]}`
          : `next to ${picked.at(-1)} (picked last) or just beyond either end of the line`;
      const problem = `Click a cell ${where}; click a picked piece to let it go.`;
      return { picked: [...picked], move: null, problem };
    }
    const legal = this.#legal.get(moveKey(line, direction));
    if (legal !== undefined) return { picked: [], move: legal, problem: null };
    return { picked: [...picked], move: null, problem: this.#refusal(line, direction) };
  }

  /** The way a click on `square` moves the line: towards it from the piece picked last, or
   * along the line when it is just beyond one of its ends. */
  #direction(picked, line, square) {
    const direction = directionTo(picked.at(-1), square);
    if (direction !== null || line.length < 2) return direction;
    for (const [end, inner] of [
      [line[0], line[1]],
      [line.at(-1), line.at(-2)],
    ]) {
      const outward = directionTo(inner, end);
      if (outward !== null && neighbour(end, outward) === square) return outward;
    }
    return null;
  }

  /** The cell a click on moves the picked line `direction`: just beyond its front along
   * itself, else next to the piece picked last. */
  #target(picked, line, direction) {
    const along = directionTo(line[0], line[1] ?? line[0]);
    if (line.length > 1 && (along === direction || along === OPPOSITE[direction])) {
      const front = line.find((cell) => !line.includes(neighbour(cell, direction)));
      return neighbour(front, direction);
    }
    return neighbour(picked.at(-1), direction);
  }

  /** The cells a click on finishes a legal move of the picked line. */
  targets(picked) {
    const found = new Set();
    const line = asLine(picked);
    if (line.length === 0) return found;
    const key = inOrder(line).join(",");
    for (const text of this.observation.legal_moves) {
      const parsed = parseMove(text);
      if (parsed === null || inOrder(parsed.line).join(",") !== key) continue;
      const target = this.#target(picked, line, parsed.direction);
      if (target !== null) found.add(target);
    }
    return found;
  }

  /** Why the line cannot move that way, as the rules tell it (rules/oubliette.py). */
  #refusal(line, direction) {
    const what = line.length === 1 ? "That piece" : "That line";
    return `${what} cannot move there: ${this.#reason(line, direction)}.`;
  }

  #reason(line, direction) {
    const mover = this.observation.to_move;
    if (!line.every((cell) => this.#seatOf.get(cell) === mover)) {
      return `only ${mover}'s own pieces move now`;
    }
    const limit = this.observation.limit;
    if (line.length > limit) return `a move moves at most ${limit} pieces`;
    const inline =
      line.length === 1 ||
      line.includes(neighbour(line[0], direction)) ||
      line.includes(neighbour(line.at(-1), direction));
    return inline ? this.#inlineReason(line, direction) : this.#sidewaysReason(line, direction);
  }

  /** What is on `cell`, in words, if anything is. */
  #blocker(cell) {
    if (this.#holes.has(cell)) return "a hole";
    if (this.#blocks.has(cell)) return "a block";
    const seat = this.#seatOf.get(cell);
    if (seat === undefined) return null;
    return seat === this.observation.to_move ? "your own piece" : "an opponent's piece";
  }

  #inlineReason(line, direction) {
    const front = line.find((cell) => !line.includes(neighbour(cell, direction)));
    const ahead = neighbour(front, direction);
    if (ahead === null) return "your own pieces never leave the board";
    const there = this.#blocker(ahead);
    if (there === "a hole") return "your own pieces never go into a hole";
    if (there === "a block" || there === "your own piece") return `${there} on ${ahead} is in the way`;
    if (there === null) return "that is not a legal move";
    if (line.length === 1) return "a single piece cannot push";
    let pushed = ahead;
    let count = 0;
    while (pushed !== null && this.#blocker(pushed) === "an opponent's piece") {
      count += 1;
      pushed = neighbour(pushed, direction);
    }
    if (count >= line.length) {
      return `a push needs more of your pieces than theirs (${line.length} against ${count})`;
    }
    const behind = pushed === null ? null : this.#blocker(pushed);
    if (behind === "a block" || behind === "your own piece") return `${behind} on ${pushed} stops the push`;
    return "that is not a legal move";
  }

  #sidewaysReason(line, direction) {
    for (const cell of line) {
      const to = neighbour(cell, direction);
      if (to === null) return `moving sideways, the piece on ${cell} would leave the board`;
      const there = this.#blocker(to);
      if (there !== null) {
        const verb = there === "a hole" || there === "a block" ? "is" : "holds";
        return `moving sideways, every piece needs an empty cell, and ${to} ${verb} ${there}`;
      }
    }
    return "that is not a legal move";
  }

  /**
   * The cells of each move's line and the cells its pieces move to: for an in-line move the
   * line and the cell ahead of it, for a broadside both rows.
   *
   * For `possible` (every legal move, too many to mark whole) the pieces that can move;
   * once pieces are picked, the pieces that would lengthen their line into one that can move
   * and the cells a click on moves the line to (next to the piece picked last, as `pick`
   * takes a move).
   */
  hintSquares(moves, picked = [], kind = null) {
    if (kind === "possible") return this.#movable(moves, picked);
    const squares = new Set();
    for (const text of moves) {
      const parsed = parseMove(text);
      if (parsed === null) continue;
      for (const cell of parsed.line) squares.add(cell);
      for (const cell of destinations(parsed.line, parsed.direction)) squares.add(cell);
    }
    return squares;
  }

  #movable(moves, picked) {
    const squares = new Set();
    const parsed = moves.map(parseMove).filter((found) => found !== null);
    if (picked.length === 0) {
      for (const { line } of parsed) for (const cell of line) squares.add(cell);
      return squares;
    }
    const chosen = new Set(picked);
    for (const { line, direction } of parsed) {
      if (!picked.every((cell) => line.includes(cell))) continue;
      if (line.length === chosen.size) {
        const target = this.#target(picked, line, direction);
        if (target !== null && !chosen.has(target)) squares.add(target);
        continue;
      }
      for (const cell of line) {
        if (!chosen.has(cell) && asLine([...picked, cell]).length > 0) squares.add(cell);
      }
    }
    return squares;
  }

  /** Each seat's ejections against the number that wins, the ply, the last move. */
  legend() {
    const observation = this.observation;
    const seats = [];
    observation.seats.forEach((seat, i) => {
      if (i > 0) seats.push(" · ");
      const ejected = observation.ejected[seat] ?? 0;
      const told = `${title(seat)} ejected ${ejected} of ${observation.win}`;
      seats.push({ swatch: seatColour(seat), text: told });
    });
    const limit = observation.limit;
    const size = limit >= NO_LIMIT ? "lines of any length" : `lines up to ${limit}`;
    const lines = [seats, [`ply ${observation.ply} · ${size}`]];
    const last = observation.last_move;
    if (last) {
      const pushed = observation.last_pushed ?? 0;
      const told = `last move ${last}${pushed ? `, pushed ${pushed}` : ""}`;
      lines.push([told + (observation.last_ejected ? ", ejected one" : "")]);
    }
    return lines;
  }

  /** What a cell holds, in words, for the board's accessible label. */
  describe(name) {
    let words = "empty";
    if (this.#seatOf.has(name)) words = this.#seatOf.get(name);
    else if (this.#holes.has(name)) words = "hole";
    else if (this.#blocks.has(name)) words = "block";
    if (this.#moved.has(name) || this.#pushed.has(name)) words += ", last move";
    if (this.#left.has(name)) words += ", left by the last move";
    if (this.#gone !== null && name === `${ROW_LETTERS[this.#gone[0]]}${this.#gone[1]}`) {
      words += ", a piece was pushed in";
    }
    return `${name}: ${words}`;
  }

  /**
   * Get ready to slide the pieces the last move moved, line and pushed, one cell on from
   * where `previous` had them (an ejected one fading out), when this observation follows
   * it by one ply. The animation's length in ms, 0 for none.
   */
  animateFrom(previous) {
    this.#slides = [];
    const observation = this.observation;
    const parsed = observation.last_move ? parseMove(observation.last_move) : null;
    if (parsed === null || observation.ply !== previous.observation.ply + 1) return 0;
    const { line, direction } = parsed;
    const [dr, dn] = DIRECTIONS[direction];
    const before = previous.#seatOf;
    const mover = before.get(line[0]);
    const slides = [];
    const add = (seat, cell, fade) => {
      const [row, number] = coordinates(cell);
      const to = `${ROW_LETTERS[row + dr] ?? "?"}${number + dn}`;
      slides.push({ seat, from: [row, number], to: [row + dr, number + dn], cell: to, fade });
      return fade || this.#seatOf.get(to) === seat;
    };
    if (mover === undefined || !line.every((cell) => before.get(cell) === mover)) return 0;
    if (!line.every((cell) => add(mover, cell, false))) return 0;
    const ahead = [...destinations(line, direction)].filter((cell) => !line.includes(cell));
    const pushes = observation.last_pushed ?? 0;
    let cell = ahead.length === 1 ? ahead[0] : null;
    for (let i = 0; i < pushes && cell !== null; i += 1) {
      const seat = before.get(cell);
      if (seat === undefined || seat === mover) return 0;
      const fade = i === pushes - 1 && Boolean(observation.last_ejected);
      if (!add(seat, cell, fade)) return 0;
      cell = neighbour(cell, direction);
    }
    this.#slides = slides;
    return DURATION;
  }

  /** Draw the board with `marks` (hints, pick, cursor) at animation progress `t` (1: at rest). */
  draw(ctx, marks, t = 1) {
    const pitch = this.#pitch;
    this.#drawPlate(ctx);
    const sliding = t < 1 ? this.#slides : [];
    const arriving = new Set(sliding.filter((s) => !s.fade).map((s) => s.cell));
    for (const name of this.#cells) {
      const { x, y } = this.cellCentre(name);
      this.#drawWell(ctx, name, x, y);
      const seat = this.#seatOf.get(name);
      if (seat !== undefined && !arriving.has(name)) {
        this.#drawPiece(ctx, seat, x, y, marks.picked.includes(name));
      }
    }
    for (const slide of sliding) {
      const progress = ease(t);
      const row = slide.from[0] + (slide.to[0] - slide.from[0]) * progress;
      const number = slide.from[1] + (slide.to[1] - slide.from[1]) * progress;
      const { x, y } = this.#point(unit(row, number));
      ctx.save();
      if (slide.fade) ctx.globalAlpha = 1 - progress;
      this.#drawPiece(ctx, slide.seat, x, y, false);
      ctx.restore();
    }
    if (t >= 1) this.#drawLastMove(ctx);
    for (const name of new Set([...marks.hints, ...this.targets(marks.picked)])) {
      const centre = this.cellCentre(name);
      if (centre !== null) hint(ctx, centre.x, centre.y, pitch * CELL);
    }
    if (marks.cursor !== null && marks.showCursor) {
      const centre = this.cellCentre(marks.cursor);
      if (centre !== null) cursorRing(ctx, centre.x, centre.y, pitch * 0.5);
    }
    this.#drawLabels(ctx, marks.ink);
  }

  /** The last move's marks: a thin ring near the rim of each piece it moved or pushed (a
   * picked piece has a thick one near its middle), a small ring in each cell it left, and a cross where a piece it pushed off went:
   * in the hole, or on the plate's rim beyond the cell it was pushed off from. */
  #drawLastMove(ctx) {
    const pitch = this.#pitch;
    for (const name of [...this.#moved, ...this.#pushed]) {
      const seat = this.#seatOf.get(name);
      if (seat === undefined) continue;
      const { x, y } = this.cellCentre(name);
      ring(ctx, x, y, pitch * 0.31, contrast(seatColour(seat)), Math.max(1.5, pitch * 0.035));
    }
    for (const name of this.#left) {
      const { x, y } = this.cellCentre(name);
      ring(ctx, x, y, pitch * 0.16, COLOURS.leftEdge, Math.max(1.5, pitch * 0.05));
    }
    if (this.#gone === null) return;
    const movers = new Set([...this.#moved].map((cell) => this.#seatOf.get(cell)));
    const victim = this.observation.seats.find((seat) => !movers.has(seat));
    const colour = seatColour(victim);
    const inHole = this.#holes.has(`${ROW_LETTERS[this.#gone[0]]}${this.#gone[1]}`);
    let { x, y } = this.#point(unit(...this.#gone));
    if (!inHole) {
      const [dr, dn] = DIRECTIONS[parseMove(this.observation.last_move).direction];
      const edge = this.#point(unit(this.#gone[0] - dr, this.#gone[1] - dn));
      x = edge.x + (x - edge.x) * OFF_EDGE;
      y = edge.y + (y - edge.y) * OFF_EDGE;
    }
    const arm = pitch * 0.17;
    for (const [width, stroke] of [
      [Math.max(3, pitch * 0.14), contrast(colour)],
      [Math.max(2, pitch * 0.08), colour],
    ]) {
      ctx.save();
      ctx.lineCap = "round";
      ctx.lineWidth = width;
      ctx.strokeStyle = stroke;
      ctx.beginPath();
      ctx.moveTo(x - arm, y - arm);
      ctx.lineTo(x + arm, y + arm);
      ctx.moveTo(x - arm, y + arm);
      ctx.lineTo(x + arm, y - arm);
      ctx.stroke();
      ctx.restore();
    }
  }

  #drawPlate(ctx) {
    const corners = this.#plate.map((corner) => this.#point(corner));
    ctx.save();
    ctx.beginPath();
    corners.forEach(({ x, y }, i) => (i === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
    ctx.closePath();
    ctx.fillStyle = COLOURS.plate;
    ctx.strokeStyle = COLOURS.plateEdge;
    ctx.lineJoin = "round";
    ctx.lineWidth = Math.max(2, this.#pitch * 0.12);
    ctx.stroke();
    ctx.fill();
    ctx.restore();
  }

  #drawWell(ctx, name, x, y) {
    const pitch = this.#pitch;
    let colour = COLOURS.well;
    if (this.#moved.has(name)) colour = COLOURS.moved;
    else if (this.#pushed.has(name)) colour = COLOURS.pushed;
    dot(ctx, x, y, pitch * CELL, colour);
    ring(ctx, x, y, pitch * CELL, mix(colour, "#000000", 0.25), Math.max(1, pitch * 0.04));
    if (this.#holes.has(name)) {
      const pit = ctx.createRadialGradient(x, y, 0, x, y, pitch * 0.4);
      pit.addColorStop(0, COLOURS.pit);
      pit.addColorStop(0.7, COLOURS.pit);
      pit.addColorStop(1, COLOURS.pitRim);
      dot(ctx, x, y, pitch * 0.4, pit);
      ring(ctx, x, y, pitch * 0.4, COLOURS.pitRim, Math.max(1.5, pitch * 0.08));
    } else if (this.#blocks.has(name)) {
      const side = pitch * 0.66;
      roundedRect(ctx, x - side / 2, y - side / 2, side, side, side * 0.12);
      ctx.fillStyle = COLOURS.block;
      ctx.fill();
      ctx.strokeStyle = COLOURS.blockEdge;
      ctx.lineWidth = Math.max(1, pitch * 0.05);
      ctx.stroke();
    }
  }

  #drawPiece(ctx, seat, x, y, picked) {
    const pitch = this.#pitch;
    const colour = seatColour(seat);
    piece(ctx, x, y, pitch * PIECE, colour);
    if (picked) ring(ctx, x, y, pitch * 0.2, contrast(colour), Math.max(2, pitch * 0.07));
  }

  #drawLabels(ctx, ink) {
    const size = Math.max(9, Math.min(16, this.#pitch * 0.36));
    ctx.save();
    ctx.fillStyle = ink;
    ctx.globalAlpha = 0.8;
    ctx.font = font(size, 500);
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    for (const label of this.#labels) {
      const { x, y } = this.#point(label);
      ctx.fillText(label.text, x, y);
    }
    ctx.restore();
  }
}
