// Issue 16: share a chat read-only with another user of this deployment, the "Shared with me" list, and the
// read-only view a share link (/s/<session id>) opens. The link carries no secret: the page signs the viewer in
// and the API decides (the owner or a user the chat is shared with; anyone else gets 404).
import { ApiError } from "./api.js";
import { $, announce, clear, h, relativeTime } from "./dom.js";

/** The session id of a share link ("/s/<id>"), or null. */
export function sharedRoute(path = location.pathname) {
  const m = path.match(/^\/s\/([^/]+)\/?$/);
  return m ? decodeURIComponent(m[1]) : null;
}

export function shareLink(sessionId) {
  return `${location.origin}/s/${encodeURIComponent(sessionId)}`;
}

/** The "Share" button of the top bar and its dialog (owner only). */
export class ShareControl {
  constructor({ api, before, onError }) {
    this.api = api;
    this.onError = onError;
    this.sessionId = null;
    this.button = h("button.ghost", { id: "share-chat", type: "button", "aria-haspopup": "dialog", hidden: true,
      text: "Share", onclick: () => this.open() });
    before.before(this.button);
    this.input = h("input", { id: "share-user", name: "user", autocomplete: "off", maxlength: "128", required: true,
      placeholder: "their user id, e.g. bob" });
    this.error = h("p.error-text.small", { role: "alert" });
    this.list = h("ul.share-list", { "aria-label": "People this chat is shared with" });
    this.link = h("input", { id: "share-link", readonly: true, "aria-label": "Share link" });
    const form = h("form.share-form.row", { onsubmit: (e) => { e.preventDefault(); this.add(); } },
      h("label.visually-hidden", { for: "share-user", text: "User to share with" }), this.input,
      h("button.primary", { type: "submit", text: "Share" }));
    this.dialog = h("dialog.share-dialog", { id: "share-dialog", "aria-labelledby": "share-title" },
      h("div.viewer-head", {},
        h("h2", { id: "share-title", text: "Share this chat" }),
        h("button.icon-button", { type: "button", "aria-label": "Close", text: "✕", onclick: () => this.dialog.close() })),
      h("p.muted.small", { text: "Read-only, for people signed in to this docchat. They can read the chat; " +
        "they cannot ask, stop or change anything." }),
      form, this.error, this.list,
      h("div.row", {}, this.link,
        h("button.ghost", { type: "button", text: "Copy link", onclick: () => this.copy() })));
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.dialog.close(); });
    document.body.append(this.dialog);
  }

  /** Show the button for the open chat when the signed-in user owns it. */
  setChat(sessionId, access = "owner") {
    this.sessionId = sessionId;
    this.button.hidden = !sessionId || access !== "owner";
  }

  async open() {
    if (!this.sessionId) return;
    this.error.textContent = "";
    this.link.value = shareLink(this.sessionId);
    this.dialog.showModal();
    this.input.focus();
    await this.refresh();
  }

  async refresh() {
    const id = this.sessionId;
    let body;
    try {
      body = await this.api.get(`/v1/sessions/${encodeURIComponent(id)}/shares`);
    } catch (err) {
      this.error.textContent = `Could not load the shares: ${err.message}`;
      return;
    }
    if (id !== this.sessionId) return;
    clear(this.list);
    const items = body.items || [];
    if (!items.length) this.list.append(h("li.muted.small", { text: "Not shared with anyone yet." }));
    for (const s of items) {
      this.list.append(h("li.share", { dataset: { user: s.user } },
        h("span.share-user", { text: s.user }),
        h("span.muted.small", { text: relativeTime(s.shared_at) }),
        h("button.ghost.small", { type: "button", "aria-label": `Stop sharing with ${s.user}`, text: "Remove",
          onclick: () => this.remove(s.user) })));
    }
  }

  async add() {
    const user = this.input.value.trim();
    if (!user || !this.sessionId) return;
    this.error.textContent = "";
    try {
      await this.api.post(`/v1/sessions/${encodeURIComponent(this.sessionId)}/shares`, { user });
    } catch (err) {
      this.error.textContent = err.message;
      return;
    }
    this.input.value = "";
    announce(`Shared with ${user}`);
    await this.refresh();
  }

  async remove(user) {
    try {
      await this.api.del(`/v1/sessions/${encodeURIComponent(this.sessionId)}/shares/${encodeURIComponent(user)}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) { this.error.textContent = err.message; return; }
    }
    announce(`No longer shared with ${user}`);
    await this.refresh();
  }

  async copy() {
    try {
      await navigator.clipboard.writeText(this.link.value);
      announce("Link copied");
    } catch {
      this.link.select();
    }
  }
}

/** "Shared with me" in the chats sidebar: chats other users shared with you (hidden while there are none). */
export class SharedList {
  constructor({ api, after, currentId = null }) {
    this.api = api;
    this.currentId = currentId;
    this.list = h("ul.session-list.shared-list", { "aria-label": "Chats shared with you" });
    this.el = h("section.shared-with-me", { hidden: true, "aria-labelledby": "shared-title" },
      h("h2.small.muted", { id: "shared-title", text: "Shared with me" }), this.list);
    after.after(this.el);
  }

  async load() {
    let body;
    try {
      body = await this.api.get("/v1/shared");
    } catch {
      return; // an older server: no list
    }
    clear(this.list);
    const items = body.items || [];
    this.el.hidden = !items.length;
    for (const s of items) {
      const a = h("a.session-open", { href: `/s/${encodeURIComponent(s.session_id)}` },
        h("span.session-title", { text: s.title || "Untitled chat" }),
        h("span.session-time", { text: `from ${s.owner}` }));
      if (s.session_id === this.currentId) a.setAttribute("aria-current", "page");
      this.list.append(h("li.session", { dataset: { sharedId: s.session_id } }, a));
    }
  }
}

/** The open chat is someone else's, shared with you: no message box, a notice saying whose it is. */
export function showReadOnly(info) {
  const form = $("#composer");
  form.hidden = true;
  $("#composer-hint").hidden = true;
  let note = $("#read-only-note");
  if (!note) {
    note = h("p.read-only-note", { id: "read-only-note", role: "status" });
    form.before(note);
  }
  note.textContent = `Shared with you by ${info.owner} — read-only.`;
}
