/** Typing in a room is talking: a printable key never runs a command. A character typed
 * while the focus is not in a text field goes into the chat box, which takes the focus, so
 * that nothing typed is lost; from then on everything goes there until Enter sends it or
 * Escape leaves. Arrows and Enter still reach a focused board; commands are buttons. */

const TEXT_INPUTS = new Set(["text", "search", "email", "url", "tel", "password", "number"]);

/** Whether typing into `node` writes into it: a text box, a text area or editable text
 * that is not read-only. */
export function inTextField(node) {
  if (!(node instanceof HTMLElement)) return false;
  if (node.isContentEditable) return true;
  if (node instanceof HTMLTextAreaElement) return !node.readOnly && !node.disabled;
  if (node instanceof HTMLInputElement) return TEXT_INPUTS.has(node.type) && !node.readOnly && !node.disabled;
  return false;
}

/** The character a key press types, or null: one character, a space too, in any case and
 * with Shift, or with Alt (Option on a Mac types letters) or AltGr; never a Ctrl or Cmd
 * shortcut, a named key (Enter, arrows, F1) or a dead key still composing. */
export function typedCharacter(event) {
  if (event.isComposing || event.metaKey) return null;
  if (event.ctrlKey && !event.getModifierState?.("AltGraph")) return null;
  const key = event.key;
  if (typeof key !== "string" || [...key].length !== 1) return null;
  return /\p{Cc}/u.test(key) ? null : key;
}

/** Sends every character typed outside a text field to a chat box, while `active()`. */
export class TypingToChat {
  /** `input` the chat box; `board` the element whose focus Enter and Escape give back after
   * typing began there; `reveal()` shows the chat box where something else was shown. */
  constructor(input, { active, board, reveal = () => {} }) {
    this.input = input;
    this.active = active;
    this.board = board;
    this.reveal = reveal;
    this.cameFrom = null;
    this.onKey = (event) => this.key(event);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Escape") {
        event.preventDefault();
        this.leave();
      }
    });
  }

  install() {
    document.addEventListener("keydown", this.onKey, true);
  }

  remove() {
    document.removeEventListener("keydown", this.onKey, true);
  }

  /** Seen before anything else on the page: a character typed outside a text field goes to
   * the chat box, and no button, menu, board or dialog under the focus sees it (but a list
   * in a dialog). A dialog open over the room keeps the focus, and the chat box what is
   * typed, for once the dialog is closed. */
  key(event) {
    if (!this.active()) return;
    const char = typedCharacter(event);
    const target = event.target;
    if (char === null || inTextField(target)) return;
    // A list in a dialog finds its entries by their first letters; the dialog's button acts.
    if (target instanceof HTMLSelectElement && target.closest("dialog")) return;
    event.preventDefault();
    event.stopPropagation();
    const input = this.input;
    if (input.maxLength > 0 && input.value.length >= input.maxLength) return;
    this.reveal();
    if (!document.querySelector("dialog[open]")) {
      this.cameFrom = target instanceof HTMLElement && this.board.contains(target) ? target : null;
      input.focus();
    }
    // What was typed before goes on at the end of what the box holds.
    const end = input.value.length;
    input.setRangeText(char, end, end, "end");
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  /** Out of the chat box: back to the board if typing began there, else to nothing. */
  leave() {
    const back = this.cameFrom;
    this.cameFrom = null;
    if (back?.isConnected) back.focus();
    else if (document.activeElement === this.input) this.input.blur();
  }
}
