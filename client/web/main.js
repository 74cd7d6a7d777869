/** The page's start: ask the player's name once, make the player's key once, connect, then
 * show the view for the address, moving between them without reloading:
 *
 *   /                      the lobby
 *   /r/CODE                a room; /r/CODE#replay steps through its game so far
 *   /#replay/RECORD        a finished game (from My games) to step through
 *   /#replay/file          a game file opened from the lobby (kept for this tab)
 *   /#leaderboard/GAME     a game's highest rated players (untimed games;
 *   /#leaderboard/GAME/SPEED   `live` or `days` for those ratings)
 *   /#account              the player's own: key, email, vacation
 */

import { Connection, serverUrl } from "./connection.js";
import { AccountView } from "./account.js";
import { LeaderboardView } from "./leaderboard.js";
import { LobbyView } from "./lobby.js";
import { ReplayPage } from "./replay.js";
import { RoomView } from "./room.js";
import { TurnNotices } from "./turns.js";
import { openDialog } from "./dialogs.js";
import { element } from "./dom.js";
import { keyProblem, readKey } from "./players.js";
import { refusalText } from "./words.js";
import { playerKey, storedName, storeKey, storeName } from "./storage.js";

const ROOM_PATH = /^\/r\/([A-Za-z0-9_-]{1,64})$/;
const REPLAY_HASH = /^#replay\/([^/]{1,64})$/;
const LEADERBOARD_HASH = /^#leaderboard(?:\/([a-z0-9_-]{1,32})(?:\/([a-z]{1,8}))?)?$/;
const ACCOUNT_HASH = /^#account$/;
const NOT_IN_NAMES = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const JOINERS = new Set(["\u200c", "\u200d"]);
const BARRED = "barred";

/** A name as the server takes it: no control or format characters (but the joiners). */
function cleanName(typed) {
  return typed.replace(NOT_IN_NAMES, (char) => (JOINERS.has(char) ? char : "")).trim();
}

/** The page: one connection, one view at a time. */
class Page {
  constructor(app, status, rename, accountButton) {
    this.app = app;
    this.statusLine = status;
    this.renameButton = rename;
    this.accountButton = accountButton;
    rename.addEventListener("click", () => this.rename());
    accountButton.addEventListener("click", () => this.navigate("/#account"));
    this.connection = null;
    this.turns = null;
    this.view = null;
    this.routed = null;
    /** Show the view for `path`, as a new entry of the tab's history or in place of the last. */
    this.navigate = (path, { replace = false } = {}) => {
      if (replace) window.history.replaceState(null, "", path);
      else window.history.pushState(null, "", path);
      this.route();
    };
    window.addEventListener("popstate", () => this.route());
    window.addEventListener("hashchange", () => this.route());
  }

  async start() {
    const name = storedName();
    if (!name) {
      this.askName();
      return;
    }
    this.connection = new Connection(name, serverUrl(), playerKey());
    this.connection.addEventListener("status", (event) => this.showStatus(event.detail));
    this.turns = new TurnNotices(this.connection, this.navigate);
    try {
      await this.connection.connect();
    } catch (error) {
      if (error.code === BARRED) {
        this.barred();
        return;
      }
      storeName("");
      this.askName(`The server would not take that name: ${error.message}.`);
      return;
    }
    this.route();
    // The lobby asks for the player's games itself; any other view, for the title's count.
    if (!(this.view instanceof LobbyView)) this.turns.refresh();
  }

  /** The server's operators barred this player (protocol.md 2.14): the page says so, plainly,
   * and offers nothing else. */
  barred() {
    this.view?.destroy();
    this.view = null;
    this.app.replaceChildren(
      element(
        "section",
        { class: "barred" },
        element("h1", {}, "You cannot play on this server"),
        element("p", { role: "alert", id: "barred" }, refusalText(this.connection.refusal)),
      ),
    );
  }

  /** The first page: the player's name, and a key brought from another browser if they
   * have one. With `again`, the connection is open and waits for another name. */
  askName(problem = "", { again = false } = {}) {
    const input = element("input", {
      id: "name",
      name: "name",
      maxlength: "32",
      required: "",
      autocomplete: "nickname",
    });
    const keyInput = element("input", {
      id: "first-key",
      name: "key",
      autocomplete: "off",
      spellcheck: "false",
      class: "key-text",
      placeholder: "XXXX-XXXX-…",
    });
    const error = element("p", { class: "error", role: "alert" }, problem);
    const bringKey = element(
      "details",
      { class: "bring-key", hidden: again },
      element("summary", {}, "I have a player key from another browser"),
      element("label", { for: "first-key" }, "Your key (Your account shows it, on the other browser)"),
      keyInput,
    );
    const form = element(
      "form",
      { class: "name-form" },
      element("h1", {}, again ? "Choose another name" : "Welcome to Parlour"),
      element("label", { for: "name" }, "Your name, as others will see it"),
      input,
      bringKey,
      element("button", { type: "submit" }, "Continue"),
      error,
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const name = cleanName(input.value);
      if (!name) return;
      const typedKey = keyInput.value.trim();
      if (!again && typedKey) {
        const key = readKey(typedKey);
        if (key === null) {
          error.textContent = keyProblem(typedKey);
          keyInput.focus();
          return;
        }
        storeKey(key);
      }
      storeName(name);
      this.app.replaceChildren(element("p", { class: "loading" }, "Connecting…"));
      if (again) this.sayHelloAgain(name);
      else this.start();
    });
    this.app.replaceChildren(form);
    input.focus();
  }

  /** The server said another player holds the name: ask for another one, on the first page
   * before anything is shown, else in a dialog over the view. */
  async nameTaken() {
    const words = this.connection.nameRefusal?.message || "that name belongs to another player; choose another";
    const problem = `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
    if (this.routed === null) {
      this.askName(problem, { again: true });
      return;
    }
    if (this.nameDialog) return;
    const input = element("input", { id: "other-name", maxlength: "32", value: this.connection.name, required: "" });
    const { dialog, result } = openDialog(
      "Choose another name",
      [element("p", { role: "alert" }, problem), element("label", { for: "other-name" }, "Your name, as others will see it"), input],
      [{ label: "Continue", value: "ok", primary: true }],
    );
    this.nameDialog = dialog;
    dialog.addEventListener("cancel", (event) => event.preventDefault());
    const chosen = await result;
    this.nameDialog = null;
    const name = cleanName(input.value);
    if (chosen === "ok" && name) {
      storeName(name);
      this.sayHelloAgain(name);
    } else {
      this.nameTaken();
    }
  }

  async sayHelloAgain(name) {
    try {
      await this.connection.helloAgain(name);
    } catch (error) {
      // Taken too: the status event asks once more. Anything else: say it.
      if (error.code !== "name_taken") this.askName(`The server would not take that name: ${error.message}.`, { again: true });
    }
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

  /** Show the view for the address in the location bar; a room whose address changes only
   * after the # (its replay opened or closed) stays the view it is. */
  route() {
    if (!this.connection?.welcome && this.routed === null) return;
    const { pathname, hash } = window.location;
    const where = `${pathname}${hash}`;
    if (where === this.routed) return;
    this.routed = where;
    const room = ROOM_PATH.exec(pathname);
    if (room && this.view instanceof RoomView && this.view.ref === room[1]) {
      this.view.hashChanged();
      return;
    }
    this.view?.destroy();
    const navigate = this.navigate;
    const replay = REPLAY_HASH.exec(hash);
    const board = LEADERBOARD_HASH.exec(hash);
    if (room) this.view = new RoomView(this.app, this.connection, room[1], navigate);
    else if (replay) this.view = new ReplayPage(this.app, this.connection, decodeURIComponent(replay[1]), navigate);
    else if (board) this.view = new LeaderboardView(this.app, this.connection, board[1] ?? null, navigate, board[2] ?? null);
    else if (ACCOUNT_HASH.test(hash)) this.view = new AccountView(this.app, this.connection, navigate);
    else this.view = new LobbyView(this.app, this.connection, navigate, this.turns);
    this.view.show();
  }

  showStatus(state) {
    const words = {
      connecting: "Connecting…",
      open: `Connected as ${this.connection.name}`,
      lost: "Connection lost; trying again…",
      refused: this.connection.refusal?.code === BARRED ? "Barred from this server." : `The server refused this page (${this.connection.refusal?.message}); reload it.`,
      name_taken: "That name is taken: choose another.",
    }[state];
    this.statusLine.textContent = words;
    this.statusLine.dataset.state = state;
    this.renameButton.hidden = state !== "open";
    this.accountButton.hidden = state !== "open";
    if (state === "name_taken") this.nameTaken();
    if (state === "refused" && this.connection.refusal?.code === BARRED && this.routed !== null) this.barred();
  }
}

const page = new Page(
  document.getElementById("app"),
  document.getElementById("connection"),
  document.getElementById("rename"),
  document.getElementById("account"),
);
window.parlour = page;
page.start();
