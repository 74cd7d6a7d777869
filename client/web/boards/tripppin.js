/**
 * Tripppin's board: 8 x 8 arrow tiles, each tile's arrows at their compass positions round
 * its centre, which holds a piece, a circle or a start mark.
 *
 * On the tile of the player to move, the directions that player may take (the observation's
 * `directions`, which the opponent's tile allows) are drawn highlighted, and listed in the
 * legend. Each piece's next target is framed in the seat's colour.
 */

import { SquareBoard } from "./grid.js";
import { arrow, cursorBox, dot, ease, hint, piece, ring, roundedRect, text } from "./paint.js";
import { COLOURS, contrast, mix, seatColour, title } from "./palette.js";

/** Each direction's step on screen (x right, y down) and its arrow character. */
const DIRECTIONS = Object.freeze({
  n: { dx: 0, dy: -1, arrow: "↑" },
  ne: { dx: 1, dy: -1, arrow: "↗" },
  e: { dx: 1, dy: 0, arrow: "→" },
  se: { dx: 1, dy: 1, arrow: "↘" },
  s: { dx: 0, dy: 1, arrow: "↓" },
  sw: { dx: -1, dy: 1, arrow: "↙" },
  w: { dx: -1, dy: 0, arrow: "←" },
  nw: { dx: -1, dy: -1, arrow: "↖" },
});
const GAP = 0.05;
const SLOT = 0.33;
const ARROW = 0.19;
const PIECE = 0.21;
const DURATION = 320;

/** Tripppin's board drawn from one observation. */
export class TripppinBoard extends SquareBoard {
  #pieceOn;
  #startOf;
  #slides = new Map();

  /** The board of `observation`. */
  constructor(observation) {
    super(observation);
    this.#pieceOn = new Map(Object.entries(observation.pieces).map(([s, sq]) => [sq, s]));
    this.#startOf = new Map(Object.entries(observation.starts).map(([s, sq]) => [sq, s]));
  }

  /** Which ways the player to move may go, and whose tile says so. */
  legend() {
    const mover = this.observation.to_move;
    if (!mover) return [];
    const other = Object.keys(this.observation.pieces).find((seat) => seat !== mover) ?? "";
    const arrows = this.observation.directions.map((d) => DIRECTIONS[d]?.arrow ?? d).join(" ");
    const ways = `${title(mover)} may go ${arrows || "nowhere"}`;
    return [[{ swatch: seatColour(mover), text: ways }, ` (the arrows under ${title(other)})`]];
  }

  /** What a square holds, in words, for the board's accessible label. */
  describe(name) {
    const where = this.grid.position(name);
    if (where === null) return name;
    const parts = [];
    const seat = this.#pieceOn.get(name);
    if (seat) parts.push(`${seat} piece`);
    if (this.observation.circles.includes(name)) parts.push("circle");
    const start = this.#startOf.get(name);
    if (start) parts.push(`${start}'s start`);
    const arrows = this.#tile(name);
    if (arrows.length > 0) parts.push(`arrows ${arrows.join(" ")}`);
    else if (!this.#special(name)) parts.push("no tile");
    for (const [target, square] of Object.entries(this.observation.targets)) {
      if (square === name) parts.push(`${target}'s next target`);
    }
    if (this.observation.legal_moves.includes(name)) parts.push("can move here");
    return `${name}: ${parts.join(", ") || "empty tile"}`;
  }

  /**
   * Get ready to slide each piece that moved from where `previous` had it, when this
   * observation follows it by one ply. The animation's length in ms, 0 for none.
   */
  animateFrom(previous) {
    this.#slides.clear();
    if (this.observation.ply !== previous.observation.ply + 1) return 0;
    for (const [seat, square] of Object.entries(this.observation.pieces)) {
      const before = previous.observation.pieces[seat];
      if (before && before !== square) this.#slides.set(seat, before);
    }
    return this.#slides.size > 0 ? DURATION : 0;
  }

  /** Draw the board with `marks` (hints, cursor) at animation progress `t` (1: at rest). */
  draw(ctx, marks, t = 1) {
    const grid = this.grid;
    const size = grid.size;
    const { x: left, y: top } = grid.corner(0, 0);
    const frame = size * GAP * 2;
    roundedRect(
      ctx,
      left - frame,
      top - frame,
      grid.cols * size + 2 * frame,
      grid.rows * size + 2 * frame,
      frame * 2,
    );
    ctx.fillStyle = COLOURS.tray;
    ctx.fill();
    for (const name of grid.names) this.#drawTile(ctx, name, t, marks.blink !== false);
    for (const name of marks.hints) {
      const centre = grid.centre(name);
      if (centre !== null) hint(ctx, centre.x, centre.y, size * 0.27);
    }
    this.#drawSlides(ctx, t);
    if (marks.cursor !== null && marks.showCursor) {
      const where = grid.position(marks.cursor);
      if (where !== null) {
        const corner = grid.corner(...where);
        cursorBox(ctx, corner.x, corner.y, size, size);
      }
    }
    grid.drawLabels(ctx, marks.ink);
  }

  /** The next targets flash, as the original's Xs did, until the game is over. */
  get blinks() {
    return !this.observation.over;
  }

  #drawTile(ctx, name, t, lit) {
    const grid = this.grid;
    const size = grid.size;
    const [row, col] = grid.position(name);
    const corner = grid.corner(row, col);
    const inset = size * GAP;
    const cx = corner.x + size / 2;
    const cy = corner.y + size / 2;
    const arrows = this.#tile(name);
    const side = size - 2 * inset;
    roundedRect(ctx, corner.x + inset, corner.y + inset, side, side, inset);
    if (arrows.length === 0 && !this.#special(name)) {
      ctx.strokeStyle = "rgba(255, 255, 255, 0.12)";
      ctx.lineWidth = 1;
      ctx.stroke();
    } else {
      ctx.fillStyle = (row + col) % 2 === 0 ? COLOURS.tileLight : COLOURS.tileDark;
      ctx.fill();
    }
    const line = Math.max(1.2, size * 0.045);
    for (const direction of arrows) this.#drawArrow(ctx, cx, cy, direction, COLOURS.arrow, line);
    const mover = this.observation.to_move;
    if (mover && this.observation.pieces[mover] === name) {
      for (const direction of this.observation.directions) {
        this.#drawArrow(ctx, cx, cy, direction, COLOURS.open, line * 1.6, 1.25);
      }
    }
    this.#drawCentre(ctx, name, cx, cy, t);
    if (lit) this.#drawTargets(ctx, name, corner, inset);
  }

  #drawArrow(ctx, cx, cy, direction, colour, width, scale = 1) {
    const step = DIRECTIONS[direction];
    if (!step) return;
    const size = this.grid.size;
    const x = cx + step.dx * SLOT * size;
    const y = cy + step.dy * SLOT * size;
    arrow(ctx, x, y, step.dx, step.dy, ARROW * size * scale, colour, width);
  }

  #drawCentre(ctx, name, cx, cy, t) {
    const size = this.grid.size;
    const start = this.#startOf.get(name);
    if (start) {
      const side = size * 0.44;
      roundedRect(ctx, cx - side / 2, cy - side / 2, side, side, side * 0.15);
      ctx.strokeStyle = seatColour(start);
      ctx.lineWidth = Math.max(2, size * 0.06);
      ctx.stroke();
    }
    if (this.observation.circles.includes(name)) {
      ring(ctx, cx, cy, size * 0.17, COLOURS.circle, Math.max(1.5, size * 0.045));
    }
    const seat = this.#pieceOn.get(name);
    if (seat && !(t < 1 && this.#slides.has(seat))) {
      this.#drawPiece(ctx, seat, cx, cy);
      if (name === this.observation.last_move) {
        ring(ctx, cx, cy, size * (PIECE + 0.035), COLOURS.circle, Math.max(1, size * 0.025));
      }
    } else if (this.observation.legal_moves.includes(name)) {
      dot(ctx, cx, cy, Math.max(2.5, size * 0.07), COLOURS.legal);
    }
  }

  /**
   * A piece: a disc in the seat's colour with a darker plate below its middle that bears
   * the seat's initial, so that the middle itself shows the seat's colour.
   */
  #drawPiece(ctx, seat, x, y) {
    const size = this.grid.size;
    const colour = seatColour(seat);
    const radius = size * PIECE;
    const top = Math.max(2, size * 0.035);
    piece(ctx, x, y, radius, colour);
    ctx.save();
    ctx.beginPath();
    ctx.arc(x, y, radius * 0.96, 0, 2 * Math.PI);
    ctx.clip();
    const plate = mix(colour, "#000000", 0.35);
    ctx.fillStyle = plate;
    ctx.fillRect(x - radius, y + top, 2 * radius, radius);
    ctx.restore();
    const middle = y + top + (radius - top) * 0.47;
    const initial = seat.charAt(0).toUpperCase();
    text(ctx, initial, x, middle, Math.max(7, size * 0.145), contrast(plate), 700);
  }

  #drawTargets(ctx, name, corner, inset) {
    const seats = Object.entries(this.observation.targets)
      .filter(([, square]) => square === name)
      .map(([seat]) => seat);
    const size = this.grid.size;
    const width = Math.max(2, size * 0.07);
    const side = size - 2 * inset - width;
    seats.forEach((seat, i) => {
      ctx.save();
      if (seats.length > 1) {
        ctx.beginPath();
        ctx.rect(corner.x, corner.y + (i * size) / 2, size, size / 2);
        ctx.clip();
      }
      const edge = inset + width / 2;
      roundedRect(ctx, corner.x + edge, corner.y + edge, side, side, inset);
      ctx.strokeStyle = seatColour(seat);
      ctx.lineWidth = width;
      ctx.stroke();
      ctx.restore();
    });
  }

  #drawSlides(ctx, t) {
    if (t >= 1) return;
    const progress = ease(t);
    for (const [seat, from] of this.#slides) {
      const start = this.grid.centre(from);
      const end = this.grid.centre(this.observation.pieces[seat]);
      if (start === null || end === null) continue;
      const x = start.x + (end.x - start.x) * progress;
      const y = start.y + (end.y - start.y) * progress;
      this.#drawPiece(ctx, seat, x, y);
    }
  }

  #tile(name) {
    const where = this.grid.position(name);
    return where === null ? [] : (this.observation.tiles[where[0]]?.[where[1]] ?? []);
  }

  #special(name) {
    return this.observation.circles.includes(name) || this.#startOf.has(name);
  }
}
