/** Colours of pieces, boards and marks, small colour helpers, and how names are shown. */

/** Piece colours by seat, as CSS colours: the room view colours its seat list with these. */
export const SEAT_COLOURS = Object.freeze({
  blue: "#2f6fdb",
  red: "#d8383a",
  green: "#2ea052",
  black: "#1c1c1f",
  white: "#f5f4ef",
  grey: "#8d939c",
});

/** Colours of the boards and of what is drawn on them. */
export const COLOURS = Object.freeze({
  felt: "#2f8a57",
  sand: "#d8c79f",
  blocked: "#8a8a8a",
  blockedHatch: "#767676",
  digit: "#3b2e17",
  hint: "#ffd21f",
  hintEdge: "#8a6d00",
  cursor: "#ffffff",
  cursorEdge: "#101010",
  tileLight: "#efe6d1",
  tileDark: "#e2d5b9",
  tray: "#4a443b",
  arrow: "#5d5446",
  open: "#e86a00",
  legal: "#c98a00",
  circle: "#3a342b",
  plate: "#5a4330",
  plateEdge: "#3b2b1e",
  well: "#dccba5",
  wellEdge: "#b9a57c",
  moved: "#a58f62",
  pushed: "#cf935c",
  leftEdge: "#6b5637",
  pit: "#120d09",
  pitRim: "#2d2118",
  block: "#8e9094",
  blockEdge: "#5f6166",
});

/** A seat's piece colour; a neutral one for a seat this client does not know. */
export function seatColour(seat) {
  return SEAT_COLOURS[seat] ?? "#a0a0a0";
}

/** The [r, g, b] of a "#rrggbb" colour. */
export function rgb(hex) {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/** The colour `amount` (0..1) of the way from `from` to `to`, as "#rrggbb". */
export function mix(from, to, amount) {
  const a = rgb(from);
  const b = rgb(to);
  const parts = a.map((part, i) => Math.round(part + (b[i] - part) * amount));
  return `#${parts.map((part) => part.toString(16).padStart(2, "0")).join("")}`;
}

/** Whether dark marks read better than light ones on this colour. */
export function isLight(hex) {
  const [r, g, b] = rgb(hex);
  return 0.299 * r + 0.587 * g + 0.114 * b > 150;
}

/** A mark that stands out on this colour: dark on light colours, light on dark ones. */
export function contrast(hex) {
  return isLight(hex) ? "#1f1f1f" : "#ffffff";
}

/** A game's or seat's name as a title: "tribolo" becomes "Tribolo". */
export function title(name) {
  const words = String(name ?? "");
  return words.charAt(0).toUpperCase() + words.slice(1);
}
