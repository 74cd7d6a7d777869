/** "Your key": the player key this browser proves itself with, to copy to another browser,
 * and a key brought from another browser, to use here instead (protocol.md 2.10). */

import { openDialog } from "./dialogs.js";
import { button, copyButton, element } from "./dom.js";
import { keyProblem, readKey } from "./players.js";
import { previousKey, storedName, storeKey, storeName } from "./storage.js";

/** Show the key with Copy, and take a pasted one; a key taken reloads the page, which says
 * hello with it. A text that is no key is refused in words and the key shown stays. */
export async function showKeyDialog(connection) {
  const key = connection?.key;
  if (!key) return;
  const shown = element("input", {
    id: "key-text",
    class: "key-text",
    readonly: true,
    value: key,
    "aria-label": "Your player key",
    spellcheck: "false",
  });
  const copied = element("span", { class: "note", role: "status", id: "key-copied" });
  const copy = copyButton("Copy", key, shown, (done) => {
    copied.textContent = done ? "Copied." : "Selected: press Ctrl+C (⌘C) to copy.";
  }, { id: "copy-key" });
  const player = connection.player;
  const who = player
    ? element("p", {}, "You play as ", element("strong", {}, player.name), " (player id ", element("code", { id: "player-id" }, player.id), ").")
    : element("p", { class: "note" }, "The server did not say who this key is.");
  const typed = element("input", {
    id: "import-key",
    class: "key-text",
    autocomplete: "off",
    spellcheck: "false",
    placeholder: "XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX-XXXX",
  });
  const name = element("input", { id: "import-name", maxlength: "32", autocomplete: "nickname", value: storedName() || connection.name });
  const problem = element("p", { class: "error", role: "alert", id: "key-problem" });
  const use = button("Use this key", () => {
    const text = typed.value;
    const read = readKey(text);
    if (read === null) {
      problem.textContent = keyProblem(text);
      typed.focus();
      return;
    }
    if (read === key) {
      problem.textContent = "That is the key this browser uses already.";
      return;
    }
    const chosen = name.value.trim();
    if (!chosen) {
      problem.textContent = "Give the name to play under with this key.";
      name.focus();
      return;
    }
    storeKey(read);
    storeName(chosen);
    window.location.reload();
  }, { id: "use-key" });
  // Enter in the fields uses the key rather than closing the dialog.
  for (const field of [typed, name]) {
    field.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        use.click();
      }
    });
  }
  const before = previousKey();
  const previous = before && before !== key
    ? [element("p", { class: "note" }, "The key used here before the last one you brought: ", element("code", { class: "key-text", id: "previous-key" }, before))]
    : [];
  const { dialog, result } = openDialog(
    "Your key",
    [
      element("p", {}, "Your key is who you are on this server: your name, your ratings and your games go with it. Copy it to play as yourself in another browser or in the terminal client. Keep it to yourself: whoever has it plays as you."),
      who,
      element("div", { class: "key-row" }, shown, copy),
      copied,
      element("h3", {}, "Use a key from another browser"),
      element("label", { for: "import-key" }, "Paste it here (any case; spaces or dashes do not matter)"),
      typed,
      element("label", { for: "import-name" }, "Your name with it (the one you play under there)"),
      element("div", { class: "key-row" }, name, use),
      problem,
      ...previous,
    ],
    [{ label: "Close", value: "close", primary: true }],
  );
  dialog.id = "key-dialog";
  await result;
}
