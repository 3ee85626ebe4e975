// Regenerate the last answer and edit-and-resend the last question. Either way the new question takes the
// place of the last turn: the request carries `replaces_seq` (the last question's seq) and the server sets
// the old turn aside as a whole (question, tool rounds, answer), so the history sent to the model stays
// valid and the chat shows the new turn only.
import { newId } from "./api.js";
import { announce, h, icon } from "./dom.js";

export class TurnActions {
  /** @param {import("./chat.js").ChatPane} pane */
  constructor(pane) {
    this.pane = pane;
    this.editing = null;
    pane.input.addEventListener("input", () => { if (this.editing && !pane.input.value) this.cancelEdit(); });
  }

  questions() { return [...this.pane.messages.querySelectorAll(".message.user")]; }

  decorateQuestion(el) {
    // an icon only: the question's text stays the article's whole text
    el.append(h("div.question-actions", {}, h("button.icon-button.edit-question", {
      type: "button", "aria-label": "Edit and resend this question", title: "Edit and resend", hidden: true,
      onclick: () => this.edit(el),
    }, icon("edit", 14))));
  }

  decorateAnswer(view) {
    view.actions.append(h("button.ghost.small.regenerate", {
      type: "button", text: "Regenerate", "aria-label": "Regenerate this answer", hidden: true,
      onclick: () => this.regenerate(),
    }));
  }

  /** Only the last turn has Edit / Regenerate, and only while nothing is being written. */
  refresh() {
    const msgs = this.pane.messages;
    const lastQ = this.questions().pop();
    const lastA = [...msgs.querySelectorAll(".message.assistant")].pop();
    const answered = lastA && lastQ && (lastQ.compareDocumentPosition(lastA) & Node.DOCUMENT_POSITION_FOLLOWING);
    for (const b of msgs.querySelectorAll(".edit-question")) b.hidden = this.pane.busy || !lastQ || !lastQ.contains(b);
    for (const b of msgs.querySelectorAll(".regenerate")) {
      b.hidden = this.pane.busy || !answered || !lastA.contains(b) || lastA.classList.contains("streaming");
    }
  }

  /** ↑ in the empty message box: edit the last question. */
  editLast() {
    const last = this.questions().pop();
    if (!last) return false;
    this.edit(last);
    return true;
  }

  edit(el) {
    if (this.pane.busy) return;
    this.cancelEdit(false);
    this.editing = el;
    el.classList.add("editing");
    this.pane.form.classList.add("editing");
    const input = this.pane.input;
    input.value = el.querySelector(".user-text").textContent;
    this.pane.autosize();
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
    announce("Editing your last question. Enter sends it in its place, Esc cancels.");
  }

  cancelEdit(clearInput = true) {
    if (!this.editing) return;
    this.editing.classList.remove("editing");
    this.pane.form.classList.remove("editing");
    this.editing = null;
    if (clearInput) { this.pane.input.value = ""; this.pane.autosize(); }
  }

  /** Send `text` in place of the question being edited. */
  async resend(text) {
    const el = this.editing;
    this.cancelEdit(false);
    await this.replace(el, text);
  }

  /** Ask the last question again in its own place. */
  async regenerate() {
    const el = this.questions().pop();
    if (!el || this.pane.busy) return;
    await this.replace(el, el.querySelector(".user-text").textContent);
  }

  async replace(el, text) {
    const seq = await this.seqOf(el);
    if (el.isConnected) {
      while (el.nextElementSibling) el.nextElementSibling.remove();
      el.remove();
    }
    await this.pane.ask(text, newId(), seq ? { replacesSeq: seq } : {});
  }

  /** The stored seq of the last question (a question asked in this page learns it from the server). */
  async seqOf(el) {
    if (el.dataset.seq) return Number(el.dataset.seq);
    const id = this.pane.sessionId;
    if (!id) return null;
    try {
      const history = await this.pane.api.get(`/v1/sessions/${encodeURIComponent(id)}/messages`);
      const last = (history.items || []).filter((m) => m.role === "user").pop();
      return last ? Number(last.seq) : null;
    } catch (err) {
      this.pane.onError(err);
      return null;
    }
  }
}
