/**
 * Oubliette's hexagon of 61 cells as the rules name them: rows a (bottom) to i (top) and
 * diagonals 1 to 9. From a cell, e/w step along the row, ne/sw to the next row up/down
 * with the number one higher/lower, nw/se to the next row up/down with the same number.
 * Lines of cells, and move texts as lines and a direction.
 */

/** The row letters from the bottom. */
export const ROW_LETTERS = "abcdefghi";
const SIDE = 5;

/** Each direction's step in (row, number). */
export const DIRECTIONS = Object.freeze({
  e: [0, 1],
  ne: [1, 1],
  nw: [1, 0],
  w: [0, -1],
  sw: [-1, -1],
  se: [-1, 0],
});

/** The positive direction along each of the three lines through a cell. */
const AXES = ["e", "ne", "nw"];

function numbers(row) {
  const found = [];
  for (let n = Math.max(1, row - SIDE + 2); n <= Math.min(2 * SIDE - 1, row + SIDE); n += 1) {
    found.push(n);
  }
  return found;
}

/** Every cell from a1 to i9: row by row from the bottom, along each row by number. */
export const CELL_NAMES = Object.freeze(
  [...ROW_LETTERS].flatMap((letter, row) => numbers(row).map((n) => `${letter}${n}`)),
);

const INDEX = new Map(CELL_NAMES.map((name, i) => [name, i]));
const MOVE = /^\s*([a-i][1-9])(?:\s*-\s*([a-i][1-9]))?\s+([a-z]+)\s*$/;

/** A cell's row (0 for a) and number. */
export function coordinates(name) {
  return [ROW_LETTERS.indexOf(name[0]), Number(name.slice(1))];
}

/** The cell one step from `name` in `direction`, or null off the board. */
export function neighbour(name, direction) {
  const step = DIRECTIONS[direction];
  if (!step || !INDEX.has(name)) return null;
  const [row, number] = coordinates(name);
  const found = `${ROW_LETTERS[row + step[0]] ?? "?"}${number + step[1]}`;
  return INDEX.has(found) ? found : null;
}

/** The direction from `origin` to `target` if they are neighbours, else null. */
export function directionTo(origin, target) {
  return Object.keys(DIRECTIONS).find((d) => neighbour(origin, d) === target) ?? null;
}

/** The cells sorted as the rules number them. */
export function inOrder(cells) {
  return [...cells].sort((a, b) => INDEX.get(a) - INDEX.get(b));
}

/** The cells from one end to the other if both lie on one straight line, else []. */
export function lineBetween(first, last) {
  const [low, high] = inOrder([first, last]);
  for (const axis of AXES) {
    const cells = [low];
    while (INDEX.get(cells.at(-1)) < INDEX.get(high)) {
      const following = neighbour(cells.at(-1), axis);
      if (following === null) break;
      cells.push(following);
    }
    if (cells.at(-1) === high) return cells;
  }
  return [];
}

/** The cells as a line if they make a straight, gap-free one, else []. */
export function asLine(cells) {
  const unique = new Set(cells);
  if (unique.size === 0 || ![...unique].every((cell) => INDEX.has(cell))) return [];
  const ordered = inOrder(unique);
  const line = lineBetween(ordered[0], ordered.at(-1));
  const same = line.length === unique.size && line.every((cell) => unique.has(cell));
  return same ? line : [];
}

/** A move text's line and direction, or null if it is not shaped like a move. */
export function parseMove(text) {
  const match = MOVE.exec(String(text).toLowerCase());
  if (match === null || !Object.hasOwn(DIRECTIONS, match[3])) return null;
  if (!INDEX.has(match[1]) || (match[2] !== undefined && !INDEX.has(match[2]))) return null;
  const line = lineBetween(match[1], match[2] ?? match[1]);
  return line.length > 0 ? { line, direction: match[3] } : null;
}

/** How the rules write a line's move: its end cells and the direction. */
export function moveText(line, direction) {
  const first = line[0];
  const last = line.at(-1);
  return `${first === last ? first : `${first}-${last}`} ${direction}`;
}

/** The cells a line's pieces move to (those on the board). */
export function destinations(line, direction) {
  const found = new Set();
  for (const cell of line) {
    const to = neighbour(cell, direction);
    if (to !== null) found.add(to);
  }
  return found;
}

/** The picked pieces still in one line with the earliest of them, in picking order. */
export function keepConnected(picked) {
  if (picked.length === 0) return [];
  const kept = new Set([picked[0]]);
  let grown = true;
  while (grown) {
    grown = false;
    for (const cell of picked) {
      if (!kept.has(cell) && asLine([...kept, cell]).length > 0) {
        kept.add(cell);
        grown = true;
      }
    }
  }
  return picked.filter((cell) => kept.has(cell));
}
