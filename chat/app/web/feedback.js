// Thumbs up/down with an optional comment on one answer, stored with the turn:
// PUT /v1/sessions/{id}/messages/{seq}/feedback {"rating": "up"|"down"|null, "comment"?}.
import { announce, h } from "./dom.js";

const LABELS = { up: "Good answer", down: "Bad answer" };
// stroke icons (no emoji: a machine without an emoji font shows boxes)
const THUMBS = {
  up: "M7 11v9H4v-9h3zM7 11l4-8c1.7 0 2.6 1 2.3 2.7L12.8 9H19c1.2 0 2 1 1.8 2.2l-1.3 7c-.2 1-1 1.8-2 1.8H7",
  down: "M7 13V4H4v9h3zM7 13l4 8c1.7 0 2.6-1 2.3-2.7L12.8 15H19c1.2 0 2-1 1.8-2.2l-1.3-7c-.2-1-1-1.8-2-1.8H7",
};

function thumb(rating) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: "16", height: "16", "aria-hidden": "true",
    class: "icon" })) svg.setAttribute(k, v);
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", THUMBS[rating]);
  svg.append(path);
  return svg;
}

export class FeedbackControls {
  /** @param {{api, sessionId: string, seq: number, feedback?: {rating, comment}|null, onError?: (e) => void}} opts */
  constructor({ api, sessionId, seq, feedback = null, onError = () => {} }) {
    Object.assign(this, { api, sessionId, seq, onError });
    this.rating = feedback?.rating || null;
    this.comment = feedback?.comment || "";
    this.buttons = {};
    for (const rating of ["up", "down"]) {
      this.buttons[rating] = h(`button.ghost.small.feedback-${rating}`, {
        type: "button", "aria-label": LABELS[rating], title: LABELS[rating], "aria-pressed": "false",
        onclick: () => this.rate(this.rating === rating ? null : rating),
      }, thumb(rating));
    }
    this.input = h("input.feedback-comment", {
      type: "text", maxlength: 2000, placeholder: "Add a comment (optional)", "aria-label": "Feedback comment",
    });
    this.save = h("button.ghost.small", { type: "button", text: "Save" });
    this.form = h("form.feedback-form", { hidden: true }, this.input, this.save);
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.saveComment(); });
    this.save.addEventListener("click", (e) => { e.preventDefault(); this.saveComment(); });
    this.shown = h("p.feedback-note.muted.small");
    this.el = h("div.feedback", { role: "group", "aria-label": "Rate this answer" },
      this.buttons.up, this.buttons.down, this.form, this.shown);
    this.paint();
  }

  get url() {
    return `/v1/sessions/${encodeURIComponent(this.sessionId)}/messages/${this.seq}/feedback`;
  }

  paint() {
    for (const [rating, b] of Object.entries(this.buttons)) b.setAttribute("aria-pressed", String(this.rating === rating));
    this.el.dataset.rating = this.rating || "";
    this.shown.textContent = this.rating && this.comment ? `“${this.comment}”` : "";
    this.shown.hidden = !this.shown.textContent;
  }

  async send(rating, comment) {
    const body = rating ? { rating, comment: comment || null } : { rating: null };
    const r = await this.api.json("PUT", this.url, { json: body });
    this.rating = r?.feedback?.rating || null;
    this.comment = r?.feedback?.comment || "";
    this.paint();
  }

  async rate(rating) {
    const before = this.rating;
    try {
      await this.send(rating, rating ? this.comment : "");
      this.form.hidden = !rating;
      if (rating) { this.input.value = this.comment; this.input.focus(); }
      announce(rating ? "Thanks for the feedback" : "Feedback removed");
    } catch (err) {
      this.rating = before;
      this.paint();
      this.onError(err);
    }
  }

  async saveComment() {
    if (!this.rating) return;
    try {
      await this.send(this.rating, this.input.value.trim());
      this.form.hidden = true;
      announce("Comment saved");
    } catch (err) {
      this.onError(err);
    }
  }
}
