/** The player's own screen (`/#account`): who they are, their key, their email, their
 * vacation and the people they mute or block; and "Your key": the player key this browser proves itself with, to copy to another
 * browser, and a key brought from another browser, to use here instead (protocol.md 2.10). */

import { StandingSection } from "./conduct.js";
import { openDialog } from "./dialogs.js";
import { button, copyButton, element } from "./dom.js";
import { EmailSection } from "./email.js";
import { keyProblem, readKey } from "./players.js";
import { previousKey, storedName, storeKey, storeName } from "./storage.js";
import { setTitle } from "./turns.js";
import { VacationSection } from "./vacation.js";

/** The account screen. A guest (a browser that keeps nothing, so has no key) is told what a
 * key is for and how to get one; email is offered only where the server sends mail. */
export class AccountView {
  constructor(root, connection, navigate) {
    this.root = root;
    this.connection = connection;
    this.navigate = navigate;
    this.email = null;
    this.vacation = null;
    this.onReconnect = () => this.load();
  }

  show() {
    setTitle("Your account · Parlour");
    const player = this.connection.player;
    const parts = player ? this.playerParts(player) : [this.guestPart()];
    const back = element("a", { href: "/" }, "Back to the lobby");
    back.addEventListener("click", (event) => {
      event.preventDefault();
      this.navigate("/");
    });
    this.root.replaceChildren(
      element("section", { class: "account", id: "account-page" }, element("h1", {}, "Your account"), ...parts, element("p", {}, back)),
    );
    this.connection.addEventListener("reconnected", this.onReconnect);
    this.load();
  }

  playerParts(player) {
    const who = element(
      "section",
      { class: "account-part", id: "account-who" },
      element("p", {}, "You play as ", element("strong", { id: "account-name" }, player.name), ", player id ", element("code", { id: "account-player-id" }, player.id), "."),
      element("p", {}, button("Your key", () => showKeyDialog(this.connection), { id: "your-key" }), " ", element("small", { class: "note" }, "to play as yourself in another browser or in the terminal client")),
    );
    this.vacation = new VacationSection(this.connection);
    const standing = new StandingSection(this.connection).element;
    if (!this.connection.welcome?.email) {
      const none = element(
        "section",
        { class: "account-part", id: "email-box" },
        element("h2", {}, "Email"),
        element("p", { class: "note", id: "email-none" }, "This server sends no mail: it tells you of games waiting on you here, on this page, while it is open."),
      );
      return [who, none, this.vacation.element, standing];
    }
    this.email = new EmailSection(this.connection);
    return [who, this.email.element, this.vacation.element, standing];
  }

  guestPart() {
    return element(
      "section",
      { class: "account-part", id: "account-guest" },
      element("p", {}, "You play as a guest: this browser keeps nothing for this site, so the page has no player key. Without one the server keeps no ratings or games of yours, and cannot mail you or stop your clocks for a vacation."),
      element("p", {}, "To get a key, let this site keep its data in this browser (its settings for cookies and site data) and reload the page: it makes you a key and keeps it."),
    );
  }

  load() {
    this.email?.load();
    this.vacation?.load();
  }

  destroy() {
    this.connection.removeEventListener("reconnected", this.onReconnect);
  }
}

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
