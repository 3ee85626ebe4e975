// The open chat's tools: pin it (pinned chats head the list; stored on the session) and export it as
// Markdown (GET /v1/sessions/{id}/export?format=markdown, saved as a download). Also the sidebar's search
// across your chats (GET /v1/sessions?q=: titles and message text, newest first).
import { announce, h, relativeTime } from "./dom.js";
import { displayTitle } from "./sessions.js";

/** The file name of a Content-Disposition header (RFC 5987 `filename*` first), or `fallback`. */
export function dispositionName(header, fallback = "chat.md") {
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header || "");
  if (star) { try { return decodeURIComponent(star[1]); } catch { /* fall through */ } }
  const plain = /filename="([^"]+)"/i.exec(header || "");
  return plain ? plain[1] : fallback;
}

export class ChatTools {
  /** @param {{api, root: HTMLElement, pin: HTMLButtonElement, exportButton: HTMLButtonElement,
   *   onPinned: (id, pinned) => void, onError: (e) => void}} opts */
  constructor(opts) {
    Object.assign(this, opts);
    this.sessionId = null;
    this.pinned = false;
    this.pin.addEventListener("click", () => this.togglePin());
    this.exportButton.addEventListener("click", () => this.download());
  }

  /** The chat on screen (null: a new, unsaved chat — nothing to pin or export). */
  show(sessionId, pinned = false) {
    this.sessionId = sessionId;
    this.root.hidden = !sessionId;
    this.setPinned(Boolean(pinned));
  }

  setPinned(on) {
    this.pinned = on;
    this.pin.setAttribute("aria-pressed", String(on));
    this.pin.textContent = on ? "Unpin" : "Pin";
    this.pin.setAttribute("aria-label", on ? "Unpin this chat" : "Pin this chat");
  }

  async togglePin() {
    const id = this.sessionId;
    if (!id) return;
    try {
      const r = await this.api.json("PUT", `/v1/sessions/${encodeURIComponent(id)}/pin`, { json: { pinned: !this.pinned } });
      if (id !== this.sessionId) return;
      this.setPinned(Boolean(r?.pinned));
      announce(this.pinned ? "Chat pinned" : "Chat unpinned");
      this.onPinned(id, this.pinned);
    } catch (err) {
      this.onError(err);
    }
  }

  async download() {
    const id = this.sessionId;
    if (!id) return;
    try {
      const r = await this.api.fetch("GET", `/v1/sessions/${encodeURIComponent(id)}/export?format=markdown`);
      const name = dispositionName(r.headers.get("Content-Disposition"));
      const url = URL.createObjectURL(await r.blob());
      const a = h("a", { href: url, download: name, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      announce(`Exported ${name}`);
    } catch (err) {
      this.onError(err);
    }
  }
}

export class ChatSearch {
  /** @param {{api, input: HTMLInputElement, results: HTMLElement, list: HTMLElement,
   *   onOpen: (id) => void, onError: (e) => void}} opts */
  constructor(opts) {
    Object.assign(this, opts);
    this.timer = 0;
    this.seq = 0;
    this.input.addEventListener("input", () => {
      clearTimeout(this.timer);
      this.timer = setTimeout(() => this.run(), 250);
    });
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && this.input.value) { e.preventDefault(); e.stopPropagation(); this.clear(); }
      if (e.key === "Enter") { e.preventDefault(); clearTimeout(this.timer); this.run(); }
    });
  }

  clear() {
    this.input.value = "";
    this.seq++;
    this.results.hidden = true;
    this.results.replaceChildren();
    this.list.hidden = false;
  }

  async run() {
    const q = this.input.value.trim();
    if (!q) { this.clear(); return; }
    const seq = ++this.seq;
    let page;
    try {
      page = await this.api.get(`/v1/sessions?${new URLSearchParams({ q, limit: "50" })}`);
    } catch (err) {
      if (seq === this.seq) this.onError(err);
      return;
    }
    if (seq !== this.seq) return;
    const items = page?.items || [];
    this.results.replaceChildren(...items.map((s) => this.item(s)));
    if (!items.length) this.results.append(h("li.muted.small.center.no-results", { text: `No chats match “${q}”.` }));
    this.list.hidden = true;
    this.results.hidden = false;
    announce(`${items.length} chat${items.length === 1 ? "" : "s"} found`);
  }

  item(s) {
    const open = h("button.session-open", { type: "button", onclick: () => this.onOpen(s.session_id) },
      h("span.session-title", { text: displayTitle(s.title) }),
      s.snippet ? h("span.session-snippet", { text: s.snippet }) : null,
      h("span.session-time", { text: relativeTime(s.updated_at) }));
    return h("li.session", { dataset: { sessionId: s.session_id, pinned: s.pinned ? "true" : "false" } }, open);
  }
}
