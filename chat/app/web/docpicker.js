// Issue 16: which documents a chat uses — all of the project (the default) or a selection — chosen next to the
// message box and stored on the session (PUT /v1/sessions/{id}/documents); the chat's search tools search only
// those documents. A new chat's choice is stored as soon as the chat exists (before its first question).
import { $, announce, clear, h, icon } from "./dom.js";

/** The row of tools at the start of the message box (shared by the attach button and the picker). */
export function composerTools() {
  let tools = $(".composer-tools");
  if (!tools) {
    tools = h("div.composer-tools");
    $("#composer-input").before(tools);
  }
  return tools;
}

export class DocPicker {
  /** @param {{api, getProjectId: () => string|null, onError: (err) => void}} opts */
  constructor(opts) {
    Object.assign(this, opts);
    this.sessionId = null;
    this.selection = null; // null = every document of the project
    this.names = new Map(); // document_id -> file name (for the button's label)
    this.button = h("button.ghost.docpicker-button", { id: "docpicker-button", type: "button",
      "aria-haspopup": "dialog", onclick: () => this.open() });
    composerTools().append(this.button);
    this.all = h("input", { type: "radio", name: "docpicker-mode", id: "docpicker-all", value: "all" });
    this.some = h("input", { type: "radio", name: "docpicker-mode", id: "docpicker-some", value: "some" });
    this.list = h("ul.docpicker-list", { "aria-label": "Documents of the project" });
    this.status = h("p.muted.small", { role: "status" });
    const form = h("form", { method: "dialog", onsubmit: (e) => { e.preventDefault(); this.apply(); } },
      h("fieldset", {},
        h("legend.visually-hidden", { text: "Documents this chat uses" }),
        h("label.row", {}, this.all, h("span", { text: "All documents of the project" })),
        h("label.row", {}, this.some, h("span", { text: "Only the documents checked below" }))),
      this.list, this.status,
      h("div.docpicker-actions", {},
        h("button.ghost", { type: "button", text: "Cancel", onclick: () => this.dialog.close() }),
        h("button.primary", { type: "submit", text: "Use these" })));
    this.dialog = h("dialog.docpicker-dialog", { id: "docpicker", "aria-labelledby": "docpicker-title" },
      h("h2", { id: "docpicker-title", text: "Documents for this chat" }), form);
    this.list.addEventListener("change", (e) => { if (e.target.type === "checkbox") this.some.checked = true; });
    this.all.addEventListener("change", () => this.updateChecks());
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.dialog.close(); });
    document.body.append(this.dialog);
    this.render();
  }

  render() {
    const n = this.selection ? this.selection.length : 0;
    let label = "All documents";
    if (this.selection) {
      label = n === 1 ? this.names.get(this.selection[0]) || "1 document" : `${n} documents`;
    }
    clear(this.button);
    this.button.append(icon("doc", 16), h("span.label", { text: label }));
    this.button.setAttribute("aria-label", `Documents this chat uses: ${label}`);
    this.button.title = "Choose which documents this chat uses";
  }

  /** A chat was opened (its session info) or a new one started (null). */
  setSession(info) {
    this.sessionId = info ? info.session_id : null;
    this.selection = info && Array.isArray(info.document_ids) && info.document_ids.length ? [...info.document_ids] : null;
    this.render();
    if (this.selection) this.loadNames();
  }

  async documents() {
    const pid = this.getProjectId();
    if (!pid) return [];
    const body = await this.api.get(`/v1/projects/${encodeURIComponent(pid)}/documents`);
    const docs = Array.isArray(body) ? body : body.items || body.documents || [];
    for (const d of docs) this.names.set(d.document_id, d.file_name || d.document_id);
    return docs;
  }

  async loadNames() {
    try { await this.documents(); } catch { return; }
    this.render();
  }

  async open() {
    clear(this.list);
    this.status.textContent = "Loading…";
    (this.selection ? this.some : this.all).checked = true;
    this.dialog.showModal();
    let docs;
    try {
      docs = await this.documents();
    } catch (err) {
      this.status.textContent = `Could not load the documents: ${err.message}`;
      return;
    }
    this.status.textContent = docs.length ? "" : "This project has no documents yet.";
    const chosen = new Set(this.selection || []);
    for (const d of docs) {
      const id = `docpick-${d.document_id}`;
      this.list.append(h("li", {},
        h("label", { for: id },
          h("input", { type: "checkbox", id, value: d.document_id, checked: chosen.has(d.document_id) }),
          h("span", { text: d.file_name || d.document_id }))));
    }
    this.updateChecks();
    (this.selection ? this.some : this.all).focus();
  }

  updateChecks() {
    if (this.all.checked) for (const box of this.list.querySelectorAll("input[type=checkbox]")) box.checked = false;
  }

  async apply() {
    const ids = this.some.checked
      ? [...this.list.querySelectorAll("input[type=checkbox]:checked")].map((b) => b.value)
      : null;
    if (ids && !ids.length) { this.status.textContent = "Check at least one document, or choose all."; return; }
    const before = this.selection;
    this.selection = ids;
    try {
      await this.save();
    } catch (err) {
      this.selection = before;
      this.status.textContent = `Could not save: ${err.message}`;
      return;
    }
    this.dialog.close();
    this.render();
    announce(ids ? `This chat uses ${ids.length} document${ids.length === 1 ? "" : "s"}` : "This chat uses all documents");
  }

  async save() {
    if (!this.sessionId) return; // a new chat: stored once it exists (beforeAsk)
    await this.api.json("PUT", `/v1/sessions/${encodeURIComponent(this.sessionId)}/documents`,
      { json: { document_ids: this.selection } });
  }

  /** Called by the chat pane before a question is sent: a new chat gets its selection first. */
  async beforeAsk(sessionId, created) {
    this.sessionId = sessionId;
    if (created && this.selection) await this.save();
  }

  /** An attached file joins the selection when the chat has one (all documents already include it). */
  async include(documentId, fileName) {
    if (fileName) this.names.set(documentId, fileName);
    if (!this.selection || this.selection.includes(documentId)) return;
    this.selection = [...this.selection, documentId];
    this.render();
    await this.save();
  }
}
