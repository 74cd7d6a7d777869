/** Modal dialogs built on <dialog>: each resolves with the button pressed, or null. */

import { element } from "./dom.js";

/**
 * Show a dialog with `heading`, `body` nodes and `choices` ({label, value, primary}); resolves
 * with the chosen value, or null when closed with Escape. `dialog.close(value)` from outside
 * (a proposal that ended meanwhile) resolves it too.
 */
export function openDialog(heading, body, choices, { onOpen } = {}) {
  const dialog = element("dialog", { class: "dialog", "aria-labelledby": "dialog-heading" });
  const form = element("form", { method: "dialog" });
  const buttons = choices.map((choice) =>
    element(
      "button",
      { value: choice.value, class: choice.primary ? "primary" : null, type: "submit" },
      choice.label,
    ),
  );
  form.append(
    element("h2", { id: "dialog-heading" }, heading),
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
  onOpen?.(dialog);
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
