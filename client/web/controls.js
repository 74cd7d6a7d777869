/** The room's commands, as buttons in three groups: hints (help from the computer), the
 * game (take back, offer a draw, resign or abort, claim it, play again, its card and replay) and files (save, load, export, import);
 * and the host's setting up (fill the open seats, start), shown with the seats. A button that cannot apply to this person is not shown; one that is off just now
 * says why, in its tooltip, to screen readers (aria-describedby), under its group, and when
 * pressed. */

import { element } from "./dom.js";

/** Every command: its button's words and what it does. */
export const ACTIONS = Object.freeze({
  possible: { label: "Possible", does: "Mark every move you can make" },
  best: { label: "Best", does: "Mark the original game's best move (the game then counts for nobody's rating)" },
  suggest: { label: "Suggest", does: "The strongest computer level's choice (the game then counts for nobody's rating)" },
  thinking: { label: "Show thinking", does: "Show or hide what the computer is thinking", toggle: true },
  start: { label: "Start the game", does: "Begin the game with the seats as they are", primary: true },
  fill: { label: "Fill", does: "Give every open seat to the computer" },
  undo: { label: "Undo", does: "Take back your last move (other players are asked)" },
  "offer-draw": { label: "Offer draw", does: "Offer to end the game as it stands: a draw of two, a ranking by the scores of three (the others are asked)" },
  resign: { label: "Resign", does: "Give up this game (you are asked first)" },
  abort: { label: "Abort", does: "End the game before everyone has moved: it counts for nobody (you are asked first)" },
  claim: { label: "Claim", does: "Win the game now: everyone else is away, the computer playing for them (you are asked first)" },
  "new-game": { label: "New game", does: "Play again with the same seats (other players are asked during a game)" },
  "score-card": { label: "Score card", does: "Wins, losses and the best score on this board" },
  replay: { label: "Replay", does: "Step through the game move by move, with who was winning" },
  save: { label: "Save", does: "Keep the game on the server under a name" },
  load: { label: "Load", does: "Play a saved game instead, before anyone has moved" },
  export: { label: "Export", does: "The game as a file to download" },
  import: { label: "Import", does: "Play a game file instead, before anyone has moved" },
});

/** The groups, in order, with their commands; `setup` goes with the seats, not the toolbar. */
export const GROUPS = Object.freeze([
  { name: "setup", label: "Seats", actions: ["fill", "start"] },
  { name: "hints", label: "Hints", actions: ["possible", "best", "suggest", "thinking"] },
  { name: "game", label: "Game", actions: ["undo", "offer-draw", "resign", "abort", "claim", "new-game", "score-card", "replay"] },
  { name: "files", label: "Files", actions: ["save", "load", "export", "import"] },
]);
const TOOLBAR = ["hints", "game", "files"];

/** The grouped buttons of one room: `run(action, button)` does a command, `said(reason)`
 * tells why one that is off did nothing; `beside` puts controls of its own after a
 * command's button (a level for Fill), shown with it. */
export class RoomControls {
  constructor(run, said, { beside = {} } = {}) {
    this.beside = beside;
    this.buttons = {};
    this.whys = {};
    this.notes = {};
    this.groups = {};
    for (const group of GROUPS) {
      const buttons = group.actions.map((action) => {
        const info = ACTIONS[action];
        const why = element("span", { class: "visually-hidden", id: `why-${action}` });
        const node = element(
          "button",
          {
            type: "button",
            "data-action": action,
            class: info.primary ? "primary" : null,
            "aria-pressed": info.toggle ? "false" : null,
          },
          info.label,
        );
        node.addEventListener("click", () => {
          if (node.getAttribute("aria-disabled") === "true") said(why.textContent);
          else run(action, node);
        });
        this.buttons[action] = node;
        this.whys[action] = why;
        return [node, ...(beside[action] ?? []), why];
      });
      const note = element("p", { class: "why", id: `why-${group.name}` });
      this.notes[group.name] = note;
      const box = element(
        "div",
        { class: `control-group ${group.name}`, role: "group", "aria-labelledby": `group-${group.name}` },
        element("span", { class: "group-label", id: `group-${group.name}` }, group.label),
        element("div", { class: "group-buttons" }, ...buttons.flat()),
        note,
      );
      this.groups[group.name] = box;
    }
    this.element = element("section", { class: "controls", id: "controls", "aria-label": "Commands" }, ...TOOLBAR.map((name) => this.groups[name]));
    this.setup = this.groups.setup;
  }

  /** Show each command as `states` says: `{action: {show, reason}}`, `reason` null for a
   * command that works now. A group with nothing to show goes. */
  show(states) {
    for (const [action, node] of Object.entries(this.buttons)) {
      const { show = false, reason = null } = states[action] ?? {};
      node.hidden = !show;
      for (const other of this.beside[action] ?? []) other.hidden = !show;
      const why = this.whys[action];
      why.textContent = reason ?? "";
      if (reason) {
        node.setAttribute("aria-disabled", "true");
        node.setAttribute("aria-describedby", why.id);
        node.title = reason;
      } else {
        node.removeAttribute("aria-disabled");
        node.removeAttribute("aria-describedby");
        node.title = ACTIONS[action].does;
      }
    }
    for (const group of GROUPS) {
      const shown = group.actions.filter((action) => !this.buttons[action].hidden);
      this.groups[group.name].hidden = shown.length === 0;
      const reasons = [...new Set(shown.map((action) => states[action]?.reason).filter(Boolean))];
      this.notes[group.name].textContent = reasons.join(" ");
    }
  }
}
