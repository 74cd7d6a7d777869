/** Canvas drawing helpers shared by the boards: pieces, rings, dots, arrows and text. */

import { COLOURS, contrast, isLight, mix } from "./palette.js";

/** The font the boards write labels and digits in, `size` CSS pixels high. */
export function font(size, weight = 600) {
  return `${weight} ${size}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
}

/** A filled circle. */
export function dot(ctx, x, y, radius, colour) {
  ctx.beginPath();
  ctx.arc(x, y, Math.max(radius, 0), 0, 2 * Math.PI);
  ctx.fillStyle = colour;
  ctx.fill();
}

/** A circle's outline. */
export function ring(ctx, x, y, radius, colour, width) {
  ctx.beginPath();
  ctx.arc(x, y, Math.max(radius, 0), 0, 2 * Math.PI);
  ctx.strokeStyle = colour;
  ctx.lineWidth = width;
  ctx.stroke();
}

/**
 * A piece: a disc in `colour`, flat in the middle and shaded towards its rim, with a dark
 * outline on light colours. `squash` (0..1) narrows it, as a piece seen turning over.
 */
export function piece(ctx, x, y, radius, colour, squash = 1) {
  if (radius <= 0 || squash <= 0) return;
  ctx.save();
  ctx.translate(x, y);
  ctx.scale(squash, 1);
  const shade = ctx.createRadialGradient(0, 0, 0, 0, 0, radius);
  shade.addColorStop(0, colour);
  shade.addColorStop(0.65, colour);
  shade.addColorStop(1, mix(colour, "#000000", isLight(colour) ? 0.14 : 0.3));
  ctx.beginPath();
  ctx.arc(0, 0, radius, 0, 2 * Math.PI);
  ctx.fillStyle = shade;
  ctx.fill();
  ctx.lineWidth = Math.max(1, radius * 0.08);
  ctx.strokeStyle = isLight(colour) ? "#3a3a3a" : mix(colour, "#000000", 0.45);
  ctx.stroke();
  ctx.restore();
}

/** The highlight of a hinted square or cell: a yellow ring and a yellow dot in its middle. */
export function hint(ctx, x, y, radius) {
  ring(ctx, x, y, radius, COLOURS.hint, Math.max(2, radius * 0.2));
  dot(ctx, x, y, Math.max(2.5, radius * 0.3), COLOURS.hint);
  ring(ctx, x, y, Math.max(2.5, radius * 0.3), COLOURS.hintEdge, 1);
}

/** The keyboard cursor round a rectangle: white inside a dark edge, to show on anything. */
export function cursorBox(ctx, x, y, width, height) {
  ctx.lineWidth = 4;
  ctx.strokeStyle = COLOURS.cursorEdge;
  ctx.strokeRect(x + 2, y + 2, width - 4, height - 4);
  ctx.lineWidth = 2;
  ctx.strokeStyle = COLOURS.cursor;
  ctx.strokeRect(x + 2, y + 2, width - 4, height - 4);
}

/** The keyboard cursor round a circle. */
export function cursorRing(ctx, x, y, radius) {
  ring(ctx, x, y, radius, COLOURS.cursorEdge, 4);
  ring(ctx, x, y, radius, COLOURS.cursor, 2);
}

/** A path round a rectangle with rounded corners. */
export function roundedRect(ctx, x, y, width, height, radius) {
  ctx.beginPath();
  ctx.roundRect(x, y, width, height, Math.max(0, Math.min(radius, width / 2, height / 2)));
}

/** An arrow centred on (x, y) pointing along (dx, dy), `length` long, with a filled head. */
export function arrow(ctx, x, y, dx, dy, length, colour, width) {
  const norm = Math.hypot(dx, dy) || 1;
  const ux = dx / norm;
  const uy = dy / norm;
  const head = Math.min(Math.max(length * 0.42, width * 2.2), length * 0.6);
  const tailX = x - (ux * length) / 2;
  const tailY = y - (uy * length) / 2;
  const tipX = x + (ux * length) / 2;
  const tipY = y + (uy * length) / 2;
  const baseX = tipX - ux * head;
  const baseY = tipY - uy * head;
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = width;
  ctx.lineCap = "round";
  ctx.beginPath();
  ctx.moveTo(tailX, tailY);
  ctx.lineTo(baseX + ux * head * 0.3, baseY + uy * head * 0.3);
  ctx.stroke();
  const spread = head * 0.55;
  ctx.beginPath();
  ctx.moveTo(tipX, tipY);
  ctx.lineTo(baseX - uy * spread, baseY + ux * spread);
  ctx.lineTo(baseX + uy * spread, baseY - ux * spread);
  ctx.closePath();
  ctx.fill();
}

/** Text centred on (x, y). */
export function text(ctx, words, x, y, size, colour, weight = 600) {
  ctx.font = font(size, weight);
  ctx.fillStyle = colour;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(words, x, y);
}

/** The mark of the square just played: a ring inside the piece, its middle left clear. */
export function lastMoveMark(ctx, x, y, radius, colour) {
  ring(ctx, x, y, radius * 0.45, contrast(colour), Math.max(1.5, radius * 0.12));
}

/** The subtler mark of a piece the last move turned over. */
export function flippedMark(ctx, x, y, radius, colour) {
  ctx.save();
  ctx.globalAlpha = 0.5;
  ring(ctx, x, y, radius * 0.45, contrast(colour), Math.max(1, radius * 0.06));
  ctx.restore();
}

/** Smooth start and stop for animation progress `t` (0..1). */
export function ease(t) {
  const clamped = Math.min(1, Math.max(0, t));
  return clamped < 0.5 ? 2 * clamped * clamped : 1 - (-2 * clamped + 2) ** 2 / 2;
}

/** The progress (0..1) of a part of an animation that runs from `start` to `end` of it. */
export function phase(t, start, end) {
  return Math.min(1, Math.max(0, (t - start) / (end - start)));
}
