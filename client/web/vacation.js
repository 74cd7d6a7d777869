/**
 * The account's vacation (protocol.md 2.12): whether the player is on one and till when (in
 * their own time), the days left this year, taking N days (after saying which clocks stop
 * and till when) and ending it early. A typed number the server would refuse is said in
 * words first; the server's refusals are said beside the field.
 */

import { dateText, DAY_MS } from "./dates.js";
import { openDialog } from "./dialogs.js";
import { button, element } from "./dom.js";
import { count } from "./words.js";

/** The most days one vacation (and one year's vacations) may take. */
export const MOST_DAYS = 30;

/** Typed days (`10`, `10 days`): `{days}` to take, or `{problem}` in words. `daysLeft` is the
 * year's days not taken, where known. */
export function readDays(typed, daysLeft = MOST_DAYS) {
  const text = String(typed ?? "").trim();
  if (!text) return { problem: `Type how many days you will be away, 1 to ${MOST_DAYS}.` };
  const found = /^([+-]?\d{1,6})\s*(d|days?)?$/i.exec(text);
  if (!found) return { problem: "Write the days as a number, as 10." };
  const days = Number(found[1]);
  if (days < 0) return { problem: `Days away cannot be fewer than none: type 1 to ${MOST_DAYS}.` };
  if (days === 0) return { problem: `A vacation of no days is none: type 1 to ${MOST_DAYS}.` };
  if (days > MOST_DAYS) return { problem: `At most ${MOST_DAYS} days: that is all a year has.` };
  if (days > daysLeft) return { problem: daysLeft ? `You have only ${count(daysLeft, "day")} left this year.` : "You have no vacation days left this year." };
  return { days };
}

/** The server's refusal of a vacation, in words for the person. */
export function refusalText(error) {
  if (error.code === "no_vacation_left") return "You have not that many vacation days left this year.";
  if (error.code === "no_key") return "Vacations are for players with a key, and this page plays as a guest.";
  const words = error.message ?? "";
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}.` : "The server refused that.";
}

/** The vacation part of the account screen. `now()` is the page's clock, in ms since 1970. */
export class VacationSection {
  constructor(connection, { now = () => Date.now() } = {}) {
    this.connection = connection;
    this.now = now;
    this.state = null;
    this.busy = false;
    this.status = element("p", { id: "vacation-status" }, "Asking the server…");
    this.left = element("p", { id: "vacation-left" });
    this.problem = element("p", { class: "error", role: "alert", id: "vacation-problem" });
    this.said = element("p", { class: "note", role: "status", id: "vacation-said" });
    this.daysInput = element("input", { id: "vacation-days", type: "text", inputmode: "numeric", maxlength: "20", class: "short" });
    this.takeButton = element("button", { type: "submit", id: "vacation-take", class: "primary" }, "Take a vacation");
    const form = element(
      "form",
      { class: "account-row", id: "vacation-form" },
      element("label", { for: "vacation-days" }, `Days away (1 to ${MOST_DAYS})`),
      element("div", { class: "key-row" }, this.daysInput, this.takeButton),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      this.take();
    });
    // What was wrong goes as the person mends it.
    this.daysInput.addEventListener("input", () => {
      this.problem.textContent = "";
    });
    this.endButton = button("End my vacation now", () => this.end(), { id: "vacation-end" });
    this.element = element(
      "section",
      { class: "account-part", id: "vacation-box", "aria-labelledby": "vacation-heading" },
      element("h2", { id: "vacation-heading" }, "Vacation"),
      element("p", { class: "note" }, `Away for a while? A vacation stops your clocks in games of days per move (live clocks run on). You have ${MOST_DAYS} days a year; a vacation ended early gives back its whole days not begun.`),
      this.status,
      this.left,
      form,
      this.problem,
      element("p", {}, this.endButton),
      this.said,
    );
    this.show(null);
  }

  /** Ask the server how the player's vacation stands. */
  async load() {
    try {
      this.show(await this.connection.request({ type: "get_vacation" }));
    } catch (error) {
      if (error.code !== "connection_lost") this.status.textContent = refusalText(error);
    }
  }

  /** Show `state` (a `vacation` answer, or null before one came). */
  show(state) {
    this.state = state;
    const on = typeof state?.until === "number";
    if (state === null) this.status.textContent = "Asking the server…";
    else if (on) this.status.replaceChildren("On vacation until ", element("strong", {}, dateText(state.until * 1000)), ": your clocks in games of days per move stand still till then.");
    else this.status.textContent = "Not on vacation.";
    this.status.dataset.state = state === null ? "asking" : on ? "on" : "off";
    this.left.textContent = state === null ? "" : `${count(state.days_left, "day")} of vacation left this year.`;
    this.endButton.hidden = !on;
    this.takeButton.textContent = on ? "Take a new vacation" : "Take a vacation";
  }

  async take() {
    if (this.busy || this.state === null) return;
    this.problem.textContent = "";
    this.said.textContent = "";
    const on = typeof this.state.until === "number";
    // A vacation on is ended first, giving back its whole days not begun.
    const back = on ? Math.floor((this.state.until * 1000 - this.now()) / DAY_MS) : 0;
    const read = readDays(this.daysInput.value, this.state.days_left + Math.max(0, back));
    if (read.problem) {
      this.problem.textContent = read.problem;
      this.daysInput.focus();
      return;
    }
    const till = dateText(this.now() + read.days * DAY_MS);
    const { dialog, result } = openDialog(
      `Take ${count(read.days, "day")} of vacation?`,
      [
        element("p", {}, "Your clocks in games of days per move stop till ", element("strong", {}, till), " (your time), in every such game you are playing now. Live clocks run on."),
        on ? element("p", {}, "This ends the vacation you are on and starts this one.") : null,
      ].filter(Boolean),
      [
        { label: `Take ${count(read.days, "day")}`, value: "take", primary: true },
        { label: "Cancel", value: "cancel" },
      ],
    );
    dialog.id = "vacation-dialog";
    if ((await result) !== "take") return;
    const answer = await this.ask({ type: "vacation", days: read.days });
    if (answer) {
      this.daysInput.value = "";
      this.said.textContent = `Enjoy your time away: your clocks stand still till ${dateText(answer.until * 1000)}.`;
    }
  }

  async end() {
    const answer = await this.ask({ type: "vacation", days: 0 });
    if (answer) this.said.textContent = "Welcome back: your clocks run again.";
  }

  /** Send `message` (one at a time) and show the answer; a refusal is said by the field. */
  async ask(message) {
    if (this.busy) return null;
    this.busy = true;
    this.problem.textContent = "";
    try {
      const answer = await this.connection.request(message);
      this.show(answer);
      return answer;
    } catch (error) {
      this.problem.textContent = refusalText(error);
      // What the page showed may be out of date (days taken in another browser): show what is.
      if (error.code === "no_vacation_left") this.load();
      return null;
    } finally {
      this.busy = false;
    }
  }
}
