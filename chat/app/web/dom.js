// Tiny DOM helpers. Text always goes in through textContent; the only innerHTML in the UI is the
// output of markdown.js, which escapes everything first.

/**
 * h("button.primary", {type: "button", onclick: fn, "aria-label": "Send"}, "Send", child…)
 * Attributes starting with "on" become listeners; strings become text nodes.
 */
export function h(spec, attrs = {}, ...children) {
  const [tag, ...classes] = spec.split(".");
  const el = document.createElement(tag || "div");
  if (classes.length) el.className = classes.join(" ");
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key === "text") el.textContent = value;
    else if (value === true) el.setAttribute(key, "");
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function $(selector, root = document) {
  return root.querySelector(selector);
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** "3 minutes ago" style, in the browser's language. */
export function relativeTime(value) {
  const t = typeof value === "number" ? (value < 1e12 ? value * 1000 : value) : Date.parse(value);
  if (!Number.isFinite(t)) return "";
  const seconds = Math.round((t - Date.now()) / 1000);
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  const units = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600],
    ["minute", 60]];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return rtf.format(Math.round(seconds / size), unit);
  }
  return rtf.format(0, "minute");
}

/** A short-lived status message read out by screen readers. */
export function announce(text) {
  const live = document.getElementById("live");
  if (!live) return;
  live.textContent = "";
  setTimeout(() => { live.textContent = text; }, 30);
}

export function formatBytes(n) {
  if (!Number.isFinite(n)) return "";
  const units = ["B", "KB", "MB", "GB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return `${n < 10 && i ? n.toFixed(1) : Math.round(n)} ${units[i]}`;
}

const SVG_NS = "http://www.w3.org/2000/svg";
const ICONS = {
  plus: "M12 5v14M5 12h14",
  trash: "M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3",
  edit: "M4 20h4L19 9l-4-4L4 16v4zM13.5 6.5l4 4",
  doc: "M6 3h8l5 5v13H6zM14 3v5h5M9 13h7M9 17h5",
  close: "M6 6l12 12M18 6L6 18",
};

/** A small stroke icon (decorative: hidden from screen readers; the button carries the label). */
export function icon(name, size = 16) {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 24 24");
  svg.setAttribute("width", String(size));
  svg.setAttribute("height", String(size));
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "icon");
  const path = document.createElementNS(SVG_NS, "path");
  path.setAttribute("d", ICONS[name]);
  svg.append(path);
  return svg;
}

/**
 * An in-app confirmation (instead of the browser's confirm()): resolves true when the user confirms.
 * Escape, the backdrop or "Cancel" resolve false. The dialog is modal and keeps focus inside.
 */
export function confirmDialog(message, { title = "Are you sure?", confirmLabel = "Delete", danger = true } = {}) {
  return new Promise((resolve) => {
    const ok = h(danger ? "button.danger" : "button.primary", { type: "button", value: "ok", text: confirmLabel });
    const cancel = h("button.ghost", { type: "button", value: "cancel", text: "Cancel" });
    const dialog = h("dialog.confirm-dialog", { "aria-labelledby": "confirm-title", "aria-describedby": "confirm-text" },
      h("h2", { id: "confirm-title", text: title }),
      h("p", { id: "confirm-text", text: message }),
      h("div.confirm-actions", {}, cancel, ok));
    let answer = false;
    const done = (value) => { answer = value; dialog.close(); };
    ok.addEventListener("click", () => done(true));
    cancel.addEventListener("click", () => done(false));
    dialog.addEventListener("click", (e) => { if (e.target === dialog) done(false); });
    dialog.addEventListener("close", () => { dialog.remove(); resolve(answer); });
    document.body.append(dialog);
    dialog.showModal();
    cancel.focus();
  });
}
