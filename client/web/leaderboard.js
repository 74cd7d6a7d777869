/** A game's leaderboard (`/#leaderboard/GAME`, `/#leaderboard/GAME/SPEED`): its 50 highest
 * rated players in untimed, live or days-per-move games (each kind of time control has its own
 * ratings), computers marked, the reader's own line picked out; a tab for every game and a
 * switch between the kinds (protocol.md 2.10). */

import { element } from "./dom.js";
import { ratingText } from "./players.js";
import { setTitle } from "./turns.js";
import { title } from "./words.js";

/** The kinds of time control ratings are kept for, as the switch and the heading name them. */
export const SPEEDS = [
  { speed: "none", label: "Untimed", words: "untimed games" },
  { speed: "live", label: "Live", words: "live games" },
  { speed: "days", label: "Days per move", words: "games of days per move" },
];

/** The page's address for `game`'s leaderboard of `speed` (untimed with no speed named). */
export function leaderboardPath(game, speed = "none") {
  return speed && speed !== "none" ? `/#leaderboard/${game}/${speed}` : `/#leaderboard/${game}`;
}

/** The leaderboard page. */
export class LeaderboardView {
  constructor(root, connection, game, navigate, speed = null) {
    this.root = root;
    this.connection = connection;
    this.navigate = navigate;
    const games = connection.games;
    this.game = games.some((each) => each.name === game) ? game : (games[0]?.name ?? game);
    this.kind = SPEEDS.find((each) => each.speed === speed) ?? SPEEDS[0];
    this.speed = this.kind.speed;
    this.onReconnect = () => this.load();
  }

  show() {
    const info = this.connection.games.find((each) => each.name === this.game);
    const gameTitle = info?.title ?? title(this.game);
    setTitle(`Leaderboard · ${gameTitle}, ${this.kind.words} · Parlour`);
    const tabs = element(
      "nav",
      { class: "game-tabs", "aria-label": "Games" },
      ...this.connection.games.map((each) => {
        const link = this.link(leaderboardPath(each.name, this.speed), each.title, { "data-game": each.name, "aria-current": each.name === this.game ? "page" : null });
        return link;
      }),
    );
    const speeds = element(
      "div",
      { class: "speed-switch", id: "speed-switch", role: "group", "aria-label": "Ratings of" },
      ...SPEEDS.map((each) => {
        const chosen = each.speed === this.speed;
        return element("button", { type: "button", "data-speed": each.speed, "aria-pressed": String(chosen) }, each.label);
      }),
    );
    for (const choice of speeds.querySelectorAll("button")) {
      choice.addEventListener("click", () => {
        if (choice.dataset.speed !== this.speed) this.navigate(leaderboardPath(this.game, choice.dataset.speed));
      });
    }
    this.body = element("tbody", {});
    this.note = element("p", { class: "note", id: "leaderboard-note" }, "Asking the server…");
    this.root.replaceChildren(
      element(
        "section",
        { class: "leaderboard", id: "leaderboard", "data-game": this.game, "data-speed": this.speed },
        element("h1", { id: "leaderboard-title" }, `Leaderboard: ${gameTitle}, ${this.kind.words}`),
        tabs,
        speeds,
        element("p", { class: "note" }, "Ranked by a rating each player very likely has (the rating less three times its uncertainty), so a few lucky games do not top the list. ? marks a rating still provisional: too few games to be sure."),
        element(
          "table",
          { class: "board-list", id: "leaderboard-table" },
          element(
            "thead",
            {},
            element("tr", {}, ...["#", "Player", "Rating", "Games"].map((h) => element("th", { scope: "col" }, h))),
          ),
          this.body,
        ),
        this.note,
        element("p", {}, this.link("/", "Back to the lobby")),
      ),
    );
    this.connection.addEventListener("reconnected", this.onReconnect);
    this.load();
  }

  destroy() {
    this.left = true;
    this.connection.removeEventListener("reconnected", this.onReconnect);
  }

  link(href, text, attributes = {}) {
    const link = element("a", { href, ...attributes }, text);
    link.addEventListener("click", (event) => {
      event.preventDefault();
      this.navigate(href);
    });
    return link;
  }

  async load() {
    let reply;
    try {
      reply = await this.connection.request({ type: "leaderboard", game: this.game, speed: this.speed });
    } catch (error) {
      if (!this.left && error.code !== "connection_lost") this.note.textContent = error.message;
      return;
    }
    if (this.left) return;
    const me = this.connection.player?.id;
    const players = reply.players ?? [];
    this.body.replaceChildren(
      ...players.map((line) => {
        const name = element("span", { class: "name" }, line.name);
        const who = line.computer
          ? [name, " ", element("span", { class: "badge computer" }, "computer")]
          : [name, ...(line.player === me ? [" ", element("span", { class: "badge you" }, "you")] : [])];
        return element(
          "tr",
          { "data-player": line.player, class: [line.computer ? "computer" : "", line.player === me ? "me" : ""].join(" ").trim() || null },
          element("td", { class: "rank" }, String(line.rank)),
          element("td", {}, ...who),
          element("td", { class: "rating", title: line.provisional ? "provisional: too few games to be sure" : null }, ratingText(line)),
          element("td", { class: "games" }, String(line.games)),
        );
      }),
    );
    this.note.textContent = players.length ? "" : `Nobody is rated at this game in ${this.kind.words} yet: every rated game counts.`;
  }
}
