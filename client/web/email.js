/**
 * The account's email (protocol.md 2.13): the address the server mails about games waiting
 * on the player, whether it is confirmed, and the hours between digests; giving, changing or
 * removing it, and typing the code mailed to it. What the page can tell is wrong with a
 * typed text is said in words before anything is sent; the server's refusals are said next
 * to what caused them, with the tries left or the minutes to wait.
 */

import { button, element } from "./dom.js";
import { count } from "./words.js";

const LONGEST_ADDRESS = 254;
const LONGEST_LOCAL = 64;
const CODE_DIGITS = 6;
export const FEWEST_HOURS = 1;
export const MOST_HOURS = 168;
const EXAMPLE = "ann@example.org";

/** A typed address: `{address}` to send, or `{problem}` in words: the shape the server takes
 * (protocol/fields.py `read_email_address`), so that what it would refuse is not sent. */
export function readAddress(typed) {
  const text = String(typed ?? "").trim();
  if (!text) return { problem: `Type your email address first, as ${EXAMPLE}.` };
  if (!text.includes("@")) {
    if (/\s(at)\s/i.test(text) || /\s(dot)\s/i.test(text)) {
      return { problem: `Write the address with “@” and “.” rather than in words: as ${EXAMPLE}.` };
    }
    return { problem: `That is not an email address: it needs an “@”, as ${EXAMPLE}.` };
  }
  if (/\s/.test(text)) return { problem: `An email address has no spaces in it: as ${EXAMPLE}.` };
  const parts = text.split("@");
  if (parts.length !== 2) return { problem: `An email address has one “@”, as ${EXAMPLE}.` };
  const [local, domain] = parts;
  if (!local) return { problem: `Your name at the mail service comes before the “@”, as ${EXAMPLE}.` };
  if (/[^\x21-\x7e]/.test(text)) return { problem: "The server takes addresses written in plain ASCII letters, digits and signs only." };
  if (text.length > LONGEST_ADDRESS) return { problem: `That is too long for an address: at most ${LONGEST_ADDRESS} characters.` };
  if (local.length > LONGEST_LOCAL) return { problem: `The part before the “@” is at most ${LONGEST_LOCAL} characters.` };
  if (/[<>()[\]\\,;:"]/.test(local)) return { problem: "The part before the “@” has none of < > ( ) [ ] \\ , ; : \" in it." };
  if (local.startsWith(".") || local.endsWith(".") || local.includes("..")) {
    return { problem: "The part before the “@” neither starts nor ends with a dot, nor has two in a row." };
  }
  const labels = domain.split(".");
  const label = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
  if (labels.length < 2 || !labels.every((each) => label.test(each)) || /^\d+$/.test(labels[labels.length - 1])) {
    return { problem: `After the “@” comes the mail service's domain: letters, digits and dashes between dots, as ${EXAMPLE}.` };
  }
  return { address: text };
}

/** A typed code: `{code}` (its 6 digits; spaces and dashes in it do not matter, as the
 * server reads it), or `{problem}`. */
export function readCode(typed) {
  const text = String(typed ?? "").replace(/[\s-]/g, "");
  if (!text) return { problem: "Type the 6-digit code from the mail first." };
  if (!/^\d+$/.test(text)) return { problem: "The code is 6 digits, as 042 917: copy it from the mail." };
  if (text.length !== CODE_DIGITS) return { problem: `The code is 6 digits; that is ${count(text.length, "digit")}.` };
  return { code: text };
}

/** Typed hours between digests (`12`, `12 h`, `12 hours`): `{hours}` or `{problem}`. */
export function readHours(typed) {
  const text = String(typed ?? "").trim();
  if (!text) return { problem: `Type how many hours, ${FEWEST_HOURS} to ${MOST_HOURS}.` };
  const found = /^(\d{1,6})\s*(h|hrs?|hours?)?$/i.exec(text);
  if (!found) return { problem: "Write the hours as a number, as 12." };
  const hours = Number(found[1]);
  if (hours < FEWEST_HOURS || hours > MOST_HOURS) return { problem: `From ${FEWEST_HOURS} to ${MOST_HOURS} hours (a week).` };
  return { hours };
}

/** The server's refusal of a request about the address, in words for the person. */
export function refusalText(error) {
  const detail = error.detail ?? {};
  if (error.code === "bad_code") {
    if (detail.tries_left === 0) return "That is not the code, again: it no longer works. Send a new code and type that one.";
    if (typeof detail.tries_left === "number") return `That is not the code mailed to you: ${count(detail.tries_left, "try", "tries")} left.`;
    return "No code is waiting to be typed: it was never sent, or its hour ran out. Send a new code.";
  }
  if (error.code === "rate_limited" && typeof detail.retry_after_s === "number") {
    const minutes = Math.max(1, Math.ceil(detail.retry_after_s / 60));
    return `Enough codes went out this hour: ask for another in ${count(minutes, "minute")}.`;
  }
  if (error.code === "bad_field" && detail.field === "address") return `The server does not take that as an email address: write it as ${EXAMPLE}.`;
  if (error.code === "no_email") return "This server sends no mail.";
  if (error.code === "no_key") return "Email is for players with a key, and this page plays as a guest.";
  const words = error.message ?? "";
  return words ? `${words.charAt(0).toUpperCase()}${words.slice(1)}.` : "The server refused that.";
}

/** A labelled field with its button, as a form of its own (Enter presses the button) that
 * runs `act`, and the line that says what is wrong with it (gone as the person mends it). */
function row(id, label, field, action, act, problemId) {
  const problem = element("p", { class: "error", role: "alert", id: problemId });
  const form = element("form", { class: "account-row", id: `${id}-form` }, element("label", { for: field.id }, label), element("div", { class: "key-row" }, field, action));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act();
  });
  field.addEventListener("input", () => {
    problem.textContent = "";
  });
  return { form, problem, box: element("div", { class: "account-field", id }, form, problem) };
}

/** The email part of the account screen. */
export class EmailSection {
  constructor(connection) {
    this.connection = connection;
    this.record = null;
    this.busy = false;
    this.status = element("p", { id: "email-status" }, "Asking the server…");
    this.said = element("p", { class: "note", role: "status", id: "email-said" });
    this.addressInput = element("input", { id: "email-address", type: "text", inputmode: "email", autocomplete: "email", spellcheck: "false", maxlength: String(LONGEST_ADDRESS + 40), placeholder: EXAMPLE });
    this.codeInput = element("input", { id: "email-code", type: "text", inputmode: "numeric", autocomplete: "one-time-code", spellcheck: "false", maxlength: "20", placeholder: "000 000", class: "short" });
    this.hoursInput = element("input", { id: "digest-hours", type: "text", inputmode: "numeric", maxlength: "20", class: "short" });
    this.sendButton = element("button", { type: "submit", id: "email-send", class: "primary" }, "Send me a code");
    this.verifyButton = element("button", { type: "submit", id: "email-verify", class: "primary" }, "Confirm");
    this.hoursButton = element("button", { type: "submit", id: "digest-save" }, "Save");
    this.address = row("email-address-row", "Your email address", this.addressInput, this.sendButton, () => this.giveAddress(), "email-problem");
    this.code = row("email-code-row", "The code", this.codeInput, this.verifyButton, () => this.verify(), "code-problem");
    this.hours = row("digest-hours-row", `Hours at least between two digests (${FEWEST_HOURS} to ${MOST_HOURS})`, this.hoursInput, this.hoursButton, () => this.saveHours(), "digest-problem");
    this.codeLabel = this.code.form.querySelector("label");
    this.resend = button("Send a new code", () => this.sendAgain(), { id: "email-resend", class: "quiet" });
    this.code.box.append(element("p", { class: "note" }, "No mail? Look among the unwanted mail, or ", this.resend, "."));
    this.removeButton = button("Remove my address", () => this.remove(), { id: "email-remove", class: "quiet" });
    this.element = element(
      "section",
      { class: "account-part", id: "email-box", "aria-labelledby": "email-heading" },
      element("h2", { id: "email-heading" }, "Email"),
      element("p", { class: "note" }, "The server can mail you a digest of the games waiting on your move while you are away, and a reminder before the time for a move of days runs out."),
      this.status,
      this.code.box,
      this.hours.box,
      this.address.box,
      element("p", {}, this.removeButton),
      this.said,
    );
    this.showRecord(null);
  }

  /** Ask the server for the address kept. */
  async load() {
    try {
      this.showRecord(await this.connection.request({ type: "get_email" }));
    } catch (error) {
      if (error.code !== "connection_lost") this.status.textContent = refusalText(error);
    }
  }

  /** Show `record` (an `email` answer, or null before one came). */
  showRecord(record) {
    this.record = record;
    const address = record?.address ?? null;
    const waiting = Boolean(address) && !record.verified;
    if (record === null) this.status.textContent = "Asking the server…";
    else if (!address) this.status.replaceChildren("No address: the server mails you nothing.");
    else if (record.verified) this.status.replaceChildren("Mail goes to ", element("strong", {}, address), ": confirmed.");
    else this.status.replaceChildren(element("strong", {}, address), " is not confirmed yet: no mail goes to it until you type the code mailed to it.");
    this.status.dataset.state = record === null ? "asking" : !address ? "none" : record.verified ? "verified" : "waiting";
    this.code.box.hidden = !waiting;
    this.codeLabel.textContent = waiting ? `The 6-digit code mailed to ${address}` : "The code";
    this.address.form.querySelector("label").textContent = address ? "Another address" : "Your email address";
    this.sendButton.classList.toggle("primary", !address);
    this.hours.box.hidden = !(address && record.verified);
    if (record) this.hoursInput.value = String(record.digest_hours);
    this.removeButton.hidden = !address;
  }

  /** Send `message` (one at a time), and show the answer; a refusal goes to `problem`. */
  async ask(message, problem) {
    if (this.busy) return null;
    this.busy = true;
    problem.textContent = "";
    this.said.textContent = "";
    try {
      const answer = await this.connection.request(message);
      this.showRecord(answer);
      return answer;
    } catch (error) {
      problem.textContent = refusalText(error);
      return null;
    } finally {
      this.busy = false;
    }
  }

  async giveAddress() {
    const read = readAddress(this.addressInput.value);
    if (read.problem) {
      this.address.problem.textContent = read.problem;
      this.addressInput.focus();
      return;
    }
    const answer = await this.ask({ type: "set_email", address: read.address }, this.address.problem);
    if (!answer) return;
    this.addressInput.value = "";
    this.code.problem.textContent = "";
    if (answer.verified) this.said.textContent = "That address is confirmed already.";
    else {
      this.said.textContent = `A code is on its way to ${answer.address}: it works for an hour.`;
      this.codeInput.value = "";
      this.codeInput.focus();
    }
  }

  async sendAgain() {
    const address = this.record?.address;
    if (!address) return;
    const answer = await this.ask({ type: "set_email", address }, this.code.problem);
    if (answer) this.said.textContent = `A new code is on its way to ${address}; the one before no longer works.`;
  }

  async verify() {
    const read = readCode(this.codeInput.value);
    if (read.problem) {
      this.code.problem.textContent = read.problem;
      this.codeInput.focus();
      return;
    }
    const answer = await this.ask({ type: "verify_email", code: read.code }, this.code.problem);
    if (answer?.verified) this.said.textContent = `Confirmed: mail about your games goes to ${answer.address}.`;
    else if (!answer) this.codeInput.select();
  }

  async saveHours() {
    const read = readHours(this.hoursInput.value);
    if (read.problem) {
      this.hours.problem.textContent = read.problem;
      this.hoursInput.focus();
      return;
    }
    const address = this.record?.address;
    if (!address) return;
    // The address goes with it: a set_email without one removes it (protocol.md 2.13).
    const answer = await this.ask({ type: "set_email", address, digest_hours: read.hours }, this.hours.problem);
    if (answer) this.said.textContent = `A digest comes at most every ${count(answer.digest_hours, "hour")}.`;
  }

  async remove() {
    const answer = await this.ask({ type: "set_email", address: null }, this.address.problem);
    if (answer) this.said.textContent = "Address removed: the server mails you nothing more.";
  }
}
