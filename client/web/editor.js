/** Oubliette's board editor, as the registered version had it: holes, blocks and pieces
 * anywhere, then play from there. The position is kept in the game's own notation; after
 * every change the server reads it back (`see`), so the board shown is always one it takes,
 * and a change it refuses is undone with its reason said. */

import { BoardView } from "./boards/view.js";
import { openDialog } from "./dialogs.js";
import { button, element } from "./dom.js";

/** What a click puts on a cell, in turn: empty, green, red, a hole, a block. */
const CYCLE = ".GR*#";

/** The position edited, or null if the person closed the editor without starting. */
export async function editPosition(connection, start) {
  const holder = element("div", { class: "board preview", id: "editor-board" });
  const said = element("p", { class: "error", role: "alert", id: "editor-error" });
  const mover = button("", () => toggleMover());
  mover.id = "editor-mover";
  const { dialog, result } = openDialog(
    "Set up the board",
    [
      element("p", {}, "Click a cell to change it: empty, green, red, a hole, a block, in turn."),
      holder,
      element("p", {}, mover),
      said,
    ],
    [
      { label: "Use this board", value: "use", primary: true },
      { label: "Cancel", value: "cancel" },
    ],
  );
  let position = start;
  let seen = null;
  const view = new BoardView(holder, { onSquare: (cell) => change(cell) });

  async function show(text) {
    try {
      const reply = await connection.request({ type: "see", game: "oubliette", position: text });
      position = text;
      seen = reply.state;
      holder.dataset.shown = String(Number(holder.dataset.shown ?? 0) + 1);
      view.show(seen, { animate: false });
      mover.textContent = `${seen.to_move === "green" ? "Green" : "Red"} moves first (change)`;
      said.textContent = "";
      return true;
    } catch (error) {
      said.textContent = error.message;
      return false;
    }
  }

  function change(cell) {
    const row = seen.row_cells.findIndex((cells) => cells.includes(cell));
    const column = seen.row_cells[row].indexOf(cell);
    const [board, ...rest] = position.split(" ");
    const rows = board.split("/").map((line) => [...line]);
    const here = rows[row][column];
    rows[row][column] = CYCLE[(CYCLE.indexOf(here) + 1) % CYCLE.length];
    show([rows.map((line) => line.join("")).join("/"), ...rest].join(" "));
  }

  function toggleMover() {
    const [board, side, ...rest] = position.split(" ");
    show([board, side === "G" ? "R" : "G", ...rest].join(" "));
  }

  await show(position);
  dialog.board = view;
  dialog.dataset.ready = "yes";
  const chosen = await result;
  view.destroy();
  return chosen === "use" ? position : null;
}
