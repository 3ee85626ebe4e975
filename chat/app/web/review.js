// The Review view (issue 15): a project's review queue, one item at a time with the cropped page region beside
// the extracted value; accept / correct / unreadable from the keyboard (J/K or ↓/↑ move, A accept, C correct,
// U unreadable, Enter saves a correction, Esc leaves the input). Also the project's audit log and the exports.
import { ApiError } from "./api.js";
import { $, announce, clear, h } from "./dom.js";

const PAD_PT = 24; // points of context around the field's box

export class ReviewPanel {
  constructor({ api, dialog, getProjectId, onError }) {
    this.api = api;
    this.dialog = dialog;
    this.getProjectId = getProjectId;
    this.onError = onError;
    this.items = [];
    this.index = 0;
    this.busy = false;
    this.seq = 0;
    this.pages = new Map(); // "did:page" -> {bitmap, widthPt, heightPt}
    this.list = $("#review-list", dialog);
    this.detail = $("#review-detail", dialog);
    this.canvas = $("#review-crop", dialog);
    this.value = $("#review-value", dialog);
    this.meta = $("#review-meta", dialog);
    this.input = $("#review-input", dialog);
    this.status = $("#review-status", dialog);
    this.audit = $("#review-audit", dialog);
    this.exports = $("#review-exports", dialog);
    $("#review-close", dialog).onclick = () => dialog.close();
    $("#review-accept", dialog).onclick = () => this.decide("accept");
    $("#review-unreadable", dialog).onclick = () => this.decide("unreadable");
    $("#review-correct-form", dialog).onsubmit = (e) => { e.preventDefault(); this.decide("correct", this.input.value); };
    $("#review-show-audit", dialog).onclick = () => this.loadAudit();
    dialog.addEventListener("keydown", (e) => this.key(e));
    dialog.addEventListener("close", () => { for (const p of this.pages.values()) p.bitmap.close?.(); this.pages.clear(); });
  }

  /** Open the queue of the current project, or of ``projectId`` (a project shared with me, titled ``name``). */
  async open(projectId, name) {
    const pid = projectId || this.getProjectId();
    if (!pid) return;
    this.projectId = pid;
    $("#review-title", this.dialog).textContent = name ? `Review · ${name}` : "Review";
    this.dialog.showModal();
    clear(this.audit);
    this.audit.hidden = true;
    this.status.textContent = "Loading the review queue…";
    try {
      const out = await this.api.get(`/v1/projects/${encodeURIComponent(pid)}/review?status=open`);
      this.items = out.items;
    } catch (err) {
      this.status.textContent = "";
      this.onError(err);
      return;
    }
    this.index = 0;
    this.renderList();
    this.show();
    this.dialog.focus();
  }

  renderList() {
    clear(this.list);
    this.items.forEach((it, i) => {
      const conf = typeof it.confidence === "number" ? it.confidence.toFixed(3) : "—";
      const reason = (it.reasons || []).map((r) => r.split(":")[0]).join(", ");
      this.list.append(h("li.review-row", {
        role: "option", "aria-selected": String(i === this.index), dataset: { index: String(i) },
        onclick: () => { this.index = i; this.renderList(); this.show(); },
      }, h("span.review-field", { text: it.field }), h("span.review-reason.muted.small", { text: reason }),
      h("span.review-conf.small", { text: conf })));
    });
    this.status.textContent = this.items.length ? `${this.items.length} to review` : "Nothing to review.";
  }

  current() { return this.items[this.index] || null; }

  async show() {
    const it = this.current();
    this.detail.hidden = !it;
    if (!it) return;
    this.value.textContent = it.value ?? "(not found)";
    const reasons = (it.reasons || []).join("; ");
    const source = it.source ? ` · read by ${it.source}` : "";
    this.meta.textContent = `${it.field} · page ${it.page ?? "?"} · confidence ${it.confidence ?? "—"}${source} · ${reasons}`;
    this.input.value = it.value ?? "";
    this.exports.replaceChildren(
      h("button.ghost.small", { type: "button", onclick: () => this.download(it.document_id, "markdown") }, "Export Markdown"),
      h("button.ghost.small", { type: "button", onclick: () => this.download(it.document_id, "json") }, "Export JSON"));
    await this.crop(it);
  }

  async crop(it) {
    const seq = ++this.seq;
    const ctx = this.canvas.getContext("2d");
    ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
    this.canvas.dataset.state = "loading";
    if (!it.page || !it.document_id) { this.canvas.dataset.state = "none"; return; }
    const key = `${it.document_id}:${it.page}`;
    let page = this.pages.get(key);
    if (!page) {
      try {
        const r = await this.api.fetch("GET", `/v1/documents/${encodeURIComponent(it.document_id)}/pages/${it.page}.png`);
        const widthPt = Number(r.headers.get("X-Page-Width-Pt")) || 0;
        const heightPt = Number(r.headers.get("X-Page-Height-Pt")) || 0;
        page = { bitmap: await createImageBitmap(await r.blob()), widthPt, heightPt };
        this.pages.set(key, page);
      } catch (err) {
        if (seq === this.seq) this.canvas.dataset.state = err instanceof ApiError ? "missing" : "error";
        return;
      }
    }
    if (seq !== this.seq) return;
    const { bitmap } = page;
    const sx = page.widthPt ? bitmap.width / page.widthPt : 1;
    const sy = page.heightPt ? bitmap.height / page.heightPt : 1;
    const [x0, y0, x1, y1] = it.bbox || [0, 0, page.widthPt || bitmap.width, page.heightPt || bitmap.height];
    const cx = Math.max(0, (x0 - PAD_PT) * sx), cy = Math.max(0, (y0 - PAD_PT) * sy);
    const cw = Math.min(bitmap.width - cx, (x1 - x0 + 2 * PAD_PT) * sx);
    const ch = Math.min(bitmap.height - cy, (y1 - y0 + 2 * PAD_PT) * sy);
    this.canvas.width = Math.max(1, Math.round(cw));
    this.canvas.height = Math.max(1, Math.round(ch));
    ctx.drawImage(bitmap, cx, cy, cw, ch, 0, 0, this.canvas.width, this.canvas.height);
    ctx.strokeStyle = "#e8a200";
    ctx.lineWidth = 2;
    ctx.strokeRect((x0 * sx) - cx, (y0 * sy) - cy, (x1 - x0) * sx, (y1 - y0) * sy);
    this.canvas.dataset.state = "ready";
  }

  key(e) {
    if (e.target === this.input) {
      if (e.key === "Escape") { e.preventDefault(); this.dialog.focus(); }
      return; // Enter submits the form
    }
    const k = e.key.toLowerCase();
    if (k === "arrowdown" || k === "j") { e.preventDefault(); this.move(1); }
    else if (k === "arrowup" || k === "k") { e.preventDefault(); this.move(-1); }
    else if (k === "a") { e.preventDefault(); this.decide("accept"); }
    else if (k === "u") { e.preventDefault(); this.decide("unreadable"); }
    else if (k === "c") { e.preventDefault(); this.input.focus(); this.input.select(); }
  }

  move(step) {
    if (!this.items.length) return;
    this.index = Math.min(this.items.length - 1, Math.max(0, this.index + step));
    this.renderList();
    this.show();
  }

  async decide(decision, value) {
    const it = this.current();
    if (!it || this.busy) return;
    this.busy = true;
    const base = `/v1/projects/${encodeURIComponent(this.projectId)}/review/${encodeURIComponent(it.item_id)}`;
    try {
      if (it.status !== "claimed") { await this.api.post(`${base}/claim`, {}); it.status = "claimed"; }
      await this.api.post(`${base}/decision`, value === undefined ? { decision } : { decision, value });
      this.items.splice(this.index, 1);
      this.index = Math.min(this.index, Math.max(0, this.items.length - 1));
      announce(`${it.field}: ${decision === "correct" ? `corrected to ${value}` : decision}`);
      this.renderList();
      await this.show();
      this.dialog.focus();
    } catch (err) {
      this.onError(err);
    } finally {
      this.busy = false;
    }
  }

  async loadAudit() {
    const pid = this.projectId;
    clear(this.audit);
    this.audit.hidden = false;
    try {
      const out = await this.api.get(`/v1/projects/${encodeURIComponent(pid)}/audit`);
      for (const e of out.items) {
        const change = e.before != null || e.after != null ? ` ${e.before ?? "∅"} → ${e.after ?? "∅"}` : "";
        this.audit.append(h("li.small", { text: `${e.at} ${e.actor} ${e.action} ${e.what ?? ""}${change}` }));
      }
    } catch (err) {
      this.onError(err);
    }
  }

  async download(documentId, format) {
    try {
      const r = await this.api.fetch("GET", `/v1/documents/${encodeURIComponent(documentId)}/export?format=${format}`);
      const url = URL.createObjectURL(await r.blob());
      const a = h("a", { href: url, download: `${documentId}.${format === "json" ? "json" : "md"}` });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      this.onError(err);
    }
  }
}

// Sharing for review (issue 15 roles): the owner names a project's reviewers in the project settings; a
// reviewer sees "Projects shared with me for review" and opens each one's Review view. Others see nothing
// (the API answers 404 for a project not shared with them).
export class ReviewSharing {
  constructor({ api, review, getProjectId, onError }) {
    this.api = api;
    this.review = review;
    this.getProjectId = getProjectId;
    this.onError = onError;
    this.section = $("#shared-reviews");
    this.list = $("#shared-review-list");
    this.input = $("#share-users");
    this.status = $("#share-status");
    $("#share-save").onclick = () => this.save();
    this.input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") { e.preventDefault(); this.save(); } // not the new-project form around it
    });
    $("#project-actions").addEventListener("toggle", (e) => { if (e.target.open) this.loadReviewers(); });
  }

  /** Projects shared with me: the section shows only when there is one. */
  async loadShared() {
    try {
      const out = await this.api.get("/v1/review/projects");
      clear(this.list);
      for (const p of out.projects) {
        this.list.append(h("li", {}, h("button.ghost.small.shared-review", {
          type: "button", dataset: { projectId: p.project_id },
          onclick: () => this.review.open(p.project_id, p.name),
        }, `${p.name} (${p.owner})`)));
      }
      this.section.hidden = !out.projects.length;
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) this.onError(err); // review not wired here
    }
  }

  async loadReviewers() {
    const pid = this.getProjectId();
    if (!pid) return;
    this.status.textContent = "";
    const typed = this.input.value;
    try {
      const out = await this.api.get(`/v1/projects/${encodeURIComponent(pid)}/reviewers`);
      // what the owner typed while this loaded is kept: the stored list must not overwrite it
      if (pid === this.getProjectId() && this.input.value === typed) this.input.value = out.reviewers.join(", ");
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) this.onError(err);
    }
  }

  async save() {
    const pid = this.getProjectId();
    if (!pid) return;
    const users = this.input.value.split(/[\s,]+/).filter(Boolean);
    try {
      const out = await this.api.json("PUT", `/v1/projects/${encodeURIComponent(pid)}/reviewers`, { json: { users } });
      this.input.value = out.reviewers.join(", ");
      this.status.textContent = out.reviewers.length ? `Shared for review with ${out.reviewers.join(", ")}` : "Not shared";
      announce(this.status.textContent);
    } catch (err) {
      this.onError(err);
    }
  }
}
