/** Modal dialogs built on <dialog>: each resolves with the button pressed, or null. */

import { element } from "./dom.js";

let opened = 0;

/**
 * Show a dialog with `heading`, `body` nodes and `choices` ({label, value, primary}); resolves
 * with the chosen value, or null when closed with Escape. `dialog.close()` from outside (a
 * proposal that ended meanwhile) resolves it too. The focus goes to the first field or
 * button, so a question's first choice is what Enter answers: put the safe one first.
 */
export function openDialog(heading, body, choices) {
  opened += 1;
  const headingId = `dialog-heading-${opened}`;
  const dialog = element("dialog", { class: "dialog", "aria-labelledby": headingId });
  const title = element("h2", { id: headingId }, heading);
  const buttons = choices.map((choice) =>
    element(
      "button",
      {
        value: choice.value,
        class: choice.primary ? "primary" : null,
        type: "submit",
        formnovalidate: !choice.primary,
      },
      choice.label,
    ),
  );
  const form = element(
    "form",
    { method: "dialog" },
    title,
    ...body,
    element("div", { class: "dialog-buttons" }, ...buttons),
  );
  dialog.append(form);
  document.body.append(dialog);
  const result = new Promise((resolve) => {
    dialog.addEventListener("close", () => {
      dialog.remove();
      resolve(dialog.returnValue || null);
    });
  });
  dialog.showModal();
  return { dialog, result };
}

/** A table from a header row and body rows of text. */
export function table(headers, rows, attributes = {}) {
  return element(
    "table",
    attributes,
    element("thead", {}, element("tr", {}, ...headers.map((h) => element("th", { scope: "col" }, h)))),
    element(
      "tbody",
      {},
      ...rows.map((row) => element("tr", {}, ...row.map((cell) => element("td", {}, String(cell))))),
    ),
  );
}

/** Heads or tails for who moves first, as Doublolo asked; null leaves it to the board. */
export async function callCoin() {
  const { result } = openDialog(
    "Who moves first?",
    [element("p", {}, "Call the coin: whoever wins it moves first.")],
    [
      { label: "Heads", value: "heads", primary: true },
      { label: "Tails", value: "tails", primary: true },
      { label: "Let the board decide", value: "board" },
    ],
  );
  const chosen = await result;
  return chosen === "heads" || chosen === "tails" ? chosen : null;
}

/** Whether a person at this page calls the coin for who moves first in a room: a game that
 * tosses one (Doublolo), its first player left to chance, and a seat played here. */
export function callsCoin(game, view, playing) {
  const chance = view.options?.first === "random" || Boolean(view.coin);
  return Boolean(game?.first_by_coin) && chance && !view.position && playing.length > 0;
}
