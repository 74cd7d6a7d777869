/** Small helpers for building the page's elements and speaking to screen readers. */

/** A new element with attributes (a `class`, `data-*`, ...) and children (nodes or text). */
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

/** A button that runs `action` when pressed. */
export function button(label, action, attributes = {}) {
  const node = element("button", { type: "button", ...attributes }, label);
  node.addEventListener("click", action);
  return node;
}

/** A button that copies `text` to the clipboard, or selects it in `field` for the person
 * to copy where the browser will not; `told(copied, node)` says which happened. */
export function copyButton(label, text, field, told, attributes = {}) {
  const node = button(label, async () => {
    try {
      await navigator.clipboard.writeText(text);
      told(true, node);
    } catch {
      field.select();
      told(false, node);
    }
  }, attributes);
  return node;
}

/** Say `text` in the page's live region, for screen readers. */
export function announce(text) {
  const region = document.getElementById("announcer");
  if (!region) return;
  const line = element("p", {}, text);
  region.append(line);
  while (region.childElementCount > 5) region.firstElementChild.remove();
}

/**
 * Rebuild `container` from `build()` only when `key` differs from what it was built from, and
 * keep the keyboard focus on the control with the same `data-key` (a rebuilt list must not
 * throw a keyboard user back to the top of the page).
 */
export function rebuild(container, key, build) {
  if (container.dataset.builtFrom === key) return;
  container.dataset.builtFrom = key;
  const active = document.activeElement;
  const focused = active && container.contains(active) ? active.dataset.key : undefined;
  container.replaceChildren(...build());
  if (focused) container.querySelector(`[data-key="${CSS.escape(focused)}"]`)?.focus();
}

let toldNext = null;

/** A sentence for the next view to show at its top: why the page moved there (the host sent
 * this person out of a room, so the lobby says so). */
export function tellNext(text) {
  toldNext = text;
}

/** The sentence `tellNext` left, once: null when there is none. */
export function takeTold() {
  const text = toldNext;
  toldNext = null;
  return text;
}
