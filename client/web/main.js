/** The page's start: ask the player's name once, connect, then show the lobby (`/`) or a
 * room (`/r/CODE`), moving between them without reloading. */

import { Connection } from "./connection.js";
import { LobbyView } from "./lobby.js";
import { RoomView } from "./room.js";
import { openDialog } from "./dialogs.js";
import { element } from "./dom.js";
import { storedName, storeName } from "./storage.js";

const ROOM_PATH = /^\/r\/([A-Za-z0-9_-]{1,64})$/;
const NOT_IN_NAMES = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const JOINERS = new Set(["\u200c", "\u200d"]);

/** A name as the server takes it: no control or format characters (but the joiners). */
function cleanName(typed) {
  return typed.replace(NOT_IN_NAMES, (char) => (JOINERS.has(char) ? char : "")).trim();
}

/** The page: one connection, one view at a time. */
class Page {
  constructor(app, status, rename) {
    this.app = app;
    this.statusLine = status;
    this.renameButton = rename;
    rename.addEventListener("click", () => this.rename());
    this.connection = null;
    this.view = null;
    window.addEventListener("popstate", () => this.route());
  }

  async start() {
    const name = storedName();
    if (!name) {
      this.askName();
      return;
    }
    this.connection = new Connection(name);
    this.connection.addEventListener("status", (event) => this.showStatus(event.detail));
    try {
      await this.connection.connect();
    } catch (error) {
      storeName("");
      this.askName(`The server would not take that name: ${error.message}.`);
      return;
    }
    this.route();
  }

  askName(problem = "") {
    const input = element("input", {
      id: "name",
      name: "name",
      maxlength: "32",
      required: "",
      autocomplete: "nickname",
    });
    const form = element(
      "form",
      { class: "name-form" },
      element("h1", {}, "Welcome to Parlour"),
      element("label", { for: "name" }, "Your name, as others will see it"),
      input,
      element("button", { type: "submit" }, "Continue"),
      element("p", { class: "error", role: "alert" }, problem),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = cleanName(input.value);
      if (!name) return;
      storeName(name);
      this.app.replaceChildren(element("p", { class: "loading" }, "Connecting…"));
      this.start();
    });
    this.app.replaceChildren(form);
    input.focus();
  }

  /** A new name takes a new hello: the page starts again, and seats come back by token. */
  async rename() {
    const input = element("input", { id: "new-name", maxlength: "32", value: storedName() });
    const { result } = openDialog(
      "Change your name",
      [element("label", { for: "new-name" }, "Your name, as others will see it"), input],
      [
        { label: "Change", value: "change", primary: true },
        { label: "Cancel", value: "cancel" },
      ],
    );
    if ((await result) !== "change") return;
    const name = cleanName(input.value);
    if (!name) return;
    storeName(name);
    window.location.reload();
  }

  /** Show the view for the address in the location bar. */
  route() {
    this.view?.destroy();
    const match = ROOM_PATH.exec(window.location.pathname);
    const navigate = (path) => {
      window.history.pushState(null, "", path);
      this.route();
    };
    this.view = match
      ? new RoomView(this.app, this.connection, match[1], navigate)
      : new LobbyView(this.app, this.connection, navigate);
    this.view.show();
  }

  showStatus(state) {
    const words = {
      connecting: "Connecting…",
      open: `Connected as ${this.connection.name}`,
      lost: "Connection lost; trying again…",
      refused: `The server refused this page (${this.connection.refusal?.message}); reload it.`,
    }[state];
    this.statusLine.textContent = words;
    this.statusLine.dataset.state = state;
    this.renameButton.hidden = state !== "open";
  }
}

const page = new Page(
  document.getElementById("app"),
  document.getElementById("connection"),
  document.getElementById("rename"),
);
window.parlour = page;
page.start();
