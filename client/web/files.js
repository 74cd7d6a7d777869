/** The room's game-keeping dialogs: save and load on the server, game files in and out, and
 * the game's score card. */

import { openDialog, table } from "./dialogs.js";
import { element } from "./dom.js";
import { ratingText } from "./players.js";
import { count, title } from "./words.js";

const MOST_FILE_CHARS = 60000;

/** The dialogs of one room view. */
export class RoomFiles {
  constructor(room) {
    this.room = room;
  }

  async save() {
    const name = element("input", { id: "save-name", maxlength: 40, autocomplete: "off" });
    const replace = element("input", { id: "save-replace", type: "checkbox" });
    const { result } = openDialog(
      "Save this game",
      [
        element("label", { for: "save-name" }, "Name"),
        name,
        element("div", { class: "check" }, replace, element("label", { for: "save-replace" }, "Replace a save of that name")),
      ],
      [
        { label: "Save", value: "save", primary: true },
        { label: "Cancel", value: "cancel" },
      ],
    );
    if ((await result) !== "save" || !name.value.trim()) return;
    try {
      await this.room.request({ type: "save_game", room: this.room.ref, name: name.value.trim(), replace: replace.checked });
      this.room.say(`Saved as “${name.value.trim()}”.`);
    } catch (error) {
      this.room.refuse(error);
    }
  }

  async load() {
    let saves;
    try {
      saves = (await this.room.request({ type: "list_saves", game: this.room.view.game })).saves;
    } catch (error) {
      this.room.refuse(error);
      return;
    }
    if (saves.length === 0) {
      this.room.say("No saved games of this kind yet.");
      return;
    }
    const list = element("select", { id: "load-name", size: Math.min(saves.length, 8) },
      ...saves.map((save, i) =>
        element("option", { value: save.name, selected: i === 0 },
          `${save.name} · ${count(save.moves, "move")} · ${save.saved_by} · ${new Date(save.saved_at * 1000).toLocaleString()}`)));
    const { result } = openDialog(
      "Load a saved game",
      [element("label", { for: "load-name" }, "Saved games"), list],
      [
        { label: "Load", value: "load", primary: true },
        { label: "Cancel", value: "cancel" },
      ],
    );
    if ((await result) !== "load") return;
    try {
      await this.room.request({ type: "load_game", room: this.room.ref, name: list.value });
      this.room.say(`Loaded “${list.value}”.`);
    } catch (error) {
      this.room.refuse(error);
    }
  }

  async exportGame() {
    let text;
    try {
      text = (await this.room.request({ type: "export_game", room: this.room.ref })).text;
    } catch (error) {
      this.room.refuse(error);
      return;
    }
    const blob = new Blob([text], { type: "text/plain" });
    const url = URL.createObjectURL(blob);
    const link = element("a", { href: url, download: `${this.room.view.game}-${this.room.view.room}.txt` }, "Download the file");
    const shown = element("textarea", { readonly: true, rows: 12, "aria-label": "The game file" }, text);
    const { result } = openDialog("The game so far", [shown, element("p", {}, link)], [{ label: "Close", value: "close" }]);
    await result;
    URL.revokeObjectURL(url);
  }

  async importGame() {
    const text = await askGameFile("Import a game file", "import", "Import");
    if (text === null) return;
    try {
      await this.room.request({ type: "import_game", room: this.room.ref, text });
      this.room.say("Imported.");
    } catch (error) {
      this.room.refuse(error);
    }
  }

  /** The score card of this room's board (each board keeps its own, as Tribolo's did),
   * with a button for every board together. */
  async scoreCard(preset = presetOf(this.room.view)) {
    let card;
    try {
      const request = { type: "score_card", game: this.room.view.game };
      if (preset) request.preset = preset;
      card = await this.room.request(request);
    } catch (error) {
      this.room.refuse(error);
      return;
    }
    const counts = (line) => [line.wins, line.losses, line.ties, line.games, `${line.win_percent}%`];
    const best = card.best
      ? `Best score: ${card.best.score} by ${card.best.name}${card.best.initials ? ` (${card.best.initials})` : ""}.`
      : "No best score yet.";
    const where = card.preset ? ` on the ${card.preset} board` : " on every board";
    const body = [
      element("p", {}, `${count(card.games, "game")} finished${where}${card.stood_in ? `, ${card.stood_in} with a stand-in` : ""}.`),
      table(["Colour", "Won", "Lost", "Tied", "Games", "Won %"], card.colours.map((l) => [title(l.colour), ...counts(l)]), { class: "card" }),
      this.playersTable(card.players, counts),
      element("p", {}, best),
    ];
    const choices = [{ label: "Close", value: "close" }];
    if (card.preset) choices.unshift({ label: "Every board", value: "every" });
    const chosen = await openDialog(`Score card: ${this.room.gameTitle()}`, body, choices).result;
    if (chosen === "every") await this.scoreCard(null);
  }

  /** A line per player, this player's marked (by id: a guest may have gone by the same
   * name); a Rating column where the server gives their ratings (2.10). */
  playersTable(players, counts) {
    const me = this.room.connection.player?.id;
    const who = (line) => (me && line.player === me ? `${line.name} (you)` : line.name);
    const rated = players.some((line) => lineRating(line) !== "");
    const headers = ["Player", "Won", "Lost", "Tied", "Games", "Won %"];
    if (!rated) return table(headers, players.map((l) => [who(l), ...counts(l)]), { class: "card", id: "card-players" });
    return table([...headers, "Rating"], players.map((l) => [who(l), ...counts(l), lineRating(l)]), { class: "card", id: "card-players" });
  }
}

/** A line's rating as shown: a seat's `{value, provisional}` or a bare number. */
function lineRating(line) {
  const rating = line.rating;
  if (Number.isFinite(rating)) return String(rating);
  return ratingText(rating);
}

/** The board preset whose score card a room's games count on: a named board, `custom` for
 * a game from a position of its own, else `standard`. */
/** A game file the person chooses or pastes in a dialog titled `heading`, whose ids start
 * with `id` and whose button says `verb`; null if they cancel or give nothing. */
export async function askGameFile(heading, id, verb) {
  const text = element("textarea", { id: `${id}-text`, rows: 12, "aria-label": "A game file", spellcheck: "false" });
  const file = element("input", { id: `${id}-file-input`, type: "file", accept: ".txt,.pgn,text/plain" });
  file.addEventListener("change", async () => {
    const chosen = file.files?.[0];
    if (chosen) text.value = (await chosen.text()).slice(0, MOST_FILE_CHARS);
  });
  const { dialog, result } = openDialog(
    heading,
    [element("label", { for: file.id }, "A file"), file, element("label", { for: text.id }, "or its text"), text],
    [
      { label: verb, value: "go", primary: true },
      { label: "Cancel", value: "cancel" },
    ],
  );
  dialog.id = `${id}-file-dialog`;
  if ((await result) !== "go" || !text.value.trim()) return null;
  return text.value.slice(0, MOST_FILE_CHARS);
}

export function presetOf(view) {
  if (view.position) return "custom";
  const board = view.options?.board;
  return typeof board === "string" && board !== "random" ? board : "standard";
}
