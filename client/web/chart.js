/** A line chart of a game on a canvas, as lichess draws its evaluation under the board: one
 * line a seat over the plies, in the seat's colour, the plies marked (the worst moves), and a
 * cursor at the ply shown. Crisp at any devicePixelRatio; a click or tap picks the ply under
 * it. The chart holds no game: the replay view gives it numbers and hears the plies picked. */

import { COLOURS, isLight, seatColour } from "./boards/palette.js";

const PAD = { left: 34, right: 8, top: 8, bottom: 18 };
const DEFAULT_HEIGHT = 120;
const TICK_GAP_PX = 44;
const CURSOR = "#e0a800";

function font(size, weight = 500) {
  return `${weight} ${size}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
}

/** A chart of `series` ({colour, name, values: [number per ply]}) from `min` to `max`. */
export class LineChart {
  #canvas;
  #ctx;
  #series = [];
  #min = 0;
  #max = 1;
  #middle = null;
  #marks = [];
  #cursor = 0;
  #plies = 0;
  #width = 0;
  #height = 0;
  #observer;
  #onPick;
  #format;
  #press = null;

  /**
   * Draw into `container` (which the chart fills across); `label` names it for screen
   * readers, `onPick(ply)` hears a click, `format(value)` writes an axis value, `middle`
   * draws a dashed line at that value (an even game).
   */
  constructor(container, { label, onPick = () => {}, format = String, height = DEFAULT_HEIGHT, middle = null } = {}) {
    const canvas = document.createElement("canvas");
    canvas.className = "chart-canvas";
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", label ?? "Chart");
    canvas.style.display = "block";
    canvas.style.width = "100%";
    canvas.style.height = `${height}px`;
    canvas.style.touchAction = "manipulation";
    container.append(canvas);
    this.#canvas = canvas;
    this.#ctx = canvas.getContext("2d");
    this.#onPick = onPick;
    this.#format = format;
    this.#middle = middle;
    this.label = label ?? "Chart";
    canvas.addEventListener("pointerdown", (event) => {
      if (!event.isPrimary || event.button !== 0) return;
      this.#press = { id: event.pointerId };
      canvas.setPointerCapture?.(event.pointerId);
      this.#pick(event);
    });
    canvas.addEventListener("pointermove", (event) => {
      if (this.#press?.id === event.pointerId) this.#pick(event);
    });
    const release = () => {
      this.#press = null;
    };
    canvas.addEventListener("pointerup", release);
    canvas.addEventListener("pointercancel", release);
    this.#observer = new ResizeObserver(() => this.#resize());
    this.#observer.observe(canvas);
  }

  get canvas() {
    return this.#canvas;
  }

  /** The last ply drawn (a test hook): the chart spans plies 0 to this. */
  get plies() {
    return this.#plies;
  }

  /** The numbers to draw: `series` lines from `min` to `max`, and `marks` ({ply, series,
   * title}) ringed on their series' line. */
  setData({ series, min, max, marks = [] }) {
    this.#series = series;
    this.#min = min;
    this.#max = max > min ? max : min + 1;
    this.#marks = marks;
    this.#plies = Math.max(0, ...series.map((each) => each.values.length - 1));
    this.#resize();
  }

  /** Put the cursor at `ply`. */
  setCursor(ply) {
    this.#cursor = ply;
    this.#draw();
  }

  /** Test hook: the viewport (client) coordinates of a ply's place on the chart, halfway up. */
  pointAt(ply) {
    const rect = this.#canvas.getBoundingClientRect();
    return { x: rect.left + this.#x(ply), y: rect.top + rect.height / 2 };
  }

  /** The ply under a viewport x. */
  plyAt(clientX) {
    const rect = this.#canvas.getBoundingClientRect();
    const inner = this.#width - PAD.left - PAD.right;
    if (this.#plies === 0 || inner <= 0) return 0;
    const ply = Math.round(((clientX - rect.left - PAD.left) / inner) * this.#plies);
    return Math.min(this.#plies, Math.max(0, ply));
  }

  destroy() {
    this.#observer.disconnect();
    this.#canvas.remove();
  }

  #pick(event) {
    const ply = this.plyAt(event.clientX);
    if (ply !== this.#cursor) this.#onPick(ply);
  }

  #x(ply) {
    const inner = this.#width - PAD.left - PAD.right;
    return PAD.left + (this.#plies === 0 ? 0 : (ply / this.#plies) * inner);
  }

  #y(value) {
    const inner = this.#height - PAD.top - PAD.bottom;
    return PAD.top + (1 - (value - this.#min) / (this.#max - this.#min)) * inner;
  }

  #resize() {
    const rect = this.#canvas.getBoundingClientRect();
    const width = Math.round(rect.width);
    const height = Math.round(rect.height);
    if (width === 0 || height === 0) return;
    const ratio = window.devicePixelRatio || 1;
    this.#width = width;
    this.#height = height;
    const wide = Math.round(width * ratio);
    const high = Math.round(height * ratio);
    if (this.#canvas.width !== wide || this.#canvas.height !== high) {
      this.#canvas.width = wide;
      this.#canvas.height = high;
    }
    this.#draw();
  }

  #draw() {
    const canvas = this.#canvas;
    const ctx = this.#ctx;
    if (this.#width === 0) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.setTransform(canvas.width / this.#width, 0, 0, canvas.height / this.#height, 0, 0);
    const ink = getComputedStyle(canvas).color || "#333";
    this.#drawFrame(ctx, ink);
    for (const each of this.#series) this.#drawLine(ctx, each);
    for (const mark of this.#marks) this.#drawMark(ctx, mark);
    this.#drawCursor(ctx);
  }

  #drawFrame(ctx, ink) {
    const left = PAD.left;
    const right = this.#width - PAD.right;
    const top = PAD.top;
    const bottom = this.#height - PAD.bottom;
    ctx.save();
    ctx.fillStyle = ink;
    ctx.globalAlpha = 0.05;
    ctx.fillRect(left, top, right - left, bottom - top);
    ctx.globalAlpha = 0.35;
    ctx.strokeStyle = ink;
    ctx.lineWidth = 1;
    ctx.strokeRect(left + 0.5, top + 0.5, right - left - 1, bottom - top - 1);
    if (this.#middle !== null) {
      ctx.setLineDash([4, 4]);
      const y = Math.round(this.#y(this.#middle)) + 0.5;
      ctx.beginPath();
      ctx.moveTo(left, y);
      ctx.lineTo(right, y);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    ctx.globalAlpha = 0.8;
    ctx.font = font(10);
    ctx.textAlign = "right";
    ctx.textBaseline = "middle";
    ctx.fillText(this.#format(this.#max), left - 4, top + 4);
    ctx.fillText(this.#format(this.#min), left - 4, bottom - 4);
    if (this.#middle !== null) ctx.fillText(this.#format(this.#middle), left - 4, this.#y(this.#middle));
    // Ply numbers along the bottom, as many as fit.
    ctx.textAlign = "center";
    ctx.textBaseline = "top";
    const every = this.#tickEvery();
    for (let ply = 0; ply <= this.#plies; ply += every) {
      ctx.fillText(String(ply), this.#x(ply), bottom + 3);
    }
    ctx.restore();
  }

  #tickEvery() {
    const inner = this.#width - PAD.left - PAD.right;
    if (this.#plies === 0) return 1;
    const fit = Math.max(1, Math.floor(inner / TICK_GAP_PX));
    const raw = this.#plies / fit;
    for (const step of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000]) if (step >= raw) return step;
    return Math.ceil(raw);
  }

  #drawLine(ctx, { colour, values }) {
    if (values.length === 0) return;
    const stroke = seatColour(colour);
    const halo = isLight(stroke) ? "#3a3a3a" : "rgba(255, 255, 255, 0.85)";
    const path = () => {
      ctx.beginPath();
      values.forEach((value, ply) => {
        const x = this.#x(ply);
        const y = this.#y(value);
        if (ply === 0) ctx.moveTo(x, y);
        else ctx.lineTo(x, y);
      });
    };
    ctx.save();
    ctx.lineJoin = "round";
    ctx.lineCap = "round";
    path();
    ctx.strokeStyle = halo;
    ctx.lineWidth = 4;
    ctx.stroke();
    path();
    ctx.strokeStyle = stroke;
    ctx.lineWidth = 2;
    ctx.stroke();
    ctx.restore();
  }

  #drawMark(ctx, { ply, series }) {
    const line = this.#series[series];
    const value = line?.values[ply];
    if (value === undefined || value === null) return;
    const x = this.#x(ply);
    const y = this.#y(value);
    const colour = seatColour(line.colour);
    ctx.save();
    ctx.beginPath();
    ctx.arc(x, y, 5, 0, 2 * Math.PI);
    ctx.fillStyle = colour;
    ctx.fill();
    ctx.lineWidth = 2;
    ctx.strokeStyle = COLOURS.open;
    ctx.stroke();
    ctx.restore();
  }

  #drawCursor(ctx) {
    const x = Math.round(this.#x(this.#cursor)) + 0.5;
    ctx.save();
    ctx.strokeStyle = CURSOR;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(x, PAD.top);
    ctx.lineTo(x, this.#height - PAD.bottom);
    ctx.stroke();
    for (const each of this.#series) {
      const value = each.values[this.#cursor];
      if (value === undefined || value === null) continue;
      ctx.beginPath();
      ctx.arc(x, this.#y(value), 3.5, 0, 2 * Math.PI);
      ctx.fillStyle = seatColour(each.colour);
      ctx.fill();
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = isLight(seatColour(each.colour)) ? "#3a3a3a" : "#ffffff";
      ctx.stroke();
    }
    ctx.restore();
  }
}
