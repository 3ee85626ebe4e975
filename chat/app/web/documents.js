// The documents panel of the current project: drag-and-drop upload of several files, a progress
// bar per document fed by the workflow's SSE events, the failure reason, the ready documents — each
// expandable to its summary and outline of headings (document_summarizer).
import { ApiError, Unreachable, isAbort, sleep } from "./api.js";
import { announce, clear, confirmDialog, formatBytes, h, icon } from "./dom.js";

const TERMINAL = new Set(["completed", "failed"]);
// files sent at once; their processing is watched separately (it never holds up the next upload)
export const UPLOAD_CONCURRENCY = 3;
const FAILED_KEY = "docchat.failedUploads";

const STATUS_TEXT = {
  uploading: "Uploading",
  pending: "Queued",
  in_progress: "Analyzing",
  completed: "Ready",
  failed: "Failed",
  duplicate: "Already in this project",
};

/** Uploads that failed before the server took them, kept per user and project until dismissed. */
export class FailedUploads {
  constructor(user, storage = globalThis.localStorage) {
    this.key = `${FAILED_KEY}:${user || ""}`;
    this.storage = storage;
  }

  all() {
    try {
      const v = JSON.parse(this.storage?.getItem(this.key) || "{}");
      return v && typeof v === "object" && !Array.isArray(v) ? v : {};
    } catch {
      return {};
    }
  }

  list(projectId) {
    const items = this.all()[projectId];
    return Array.isArray(items) ? items : [];
  }

  save(projectId, items) {
    const all = this.all();
    if (items.length) all[projectId] = items.slice(-50);
    else delete all[projectId];
    try { this.storage?.setItem(this.key, JSON.stringify(all)); } catch { /* storage full or disabled */ }
  }

  add(projectId, entry) {
    this.save(projectId, [...this.list(projectId).filter((e) => e.id !== entry.id), entry]);
  }

  remove(projectId, id) {
    this.save(projectId, this.list(projectId).filter((e) => e.id !== id));
  }
}

let localIds = 0;

/** A file name as text pieces with a line-break opportunity (<wbr>) after "_", "-", ".", "/" and spaces and
 * between lower→upper case, so a long name wraps between its parts ("normal_4pages" / ".pdf"), not mid-word. */
export function breakable(name) {
  const parts = String(name).split(/(?<=[_\-./\s])|(?=\.[^.]+$)|(?<=[a-z])(?=[A-Z])/u).filter(Boolean);
  const out = [];
  parts.forEach((p, i) => { if (i) out.push(document.createElement("wbr")); out.push(p); });
  return out;
}

/** The step being worked on, from a workflow's steps map ({name: {status, label}}). */
export function currentStep(steps) {
  if (!steps || typeof steps !== "object") return null;
  for (const [name, st] of Object.entries(steps)) {
    if (st && (st.status === "in_progress" || st.status === "running")) {
      const label = st.label || name.replace(/_/g, " ");
      return st.total ? `${label} ${st.done || 0}/${st.total}` : label;
    }
  }
  return null;
}

class DocumentRow {
  constructor(doc, onDelete = null, actions = {}) {
    this.localId = doc.local_id || `u${Date.now().toString(36)}${(localIds++).toString(36)}`;
    this.file = actions.file || null;
    this.documentId = doc.document_id || null;
    this.workflowId = doc.workflow_id || null;
    this.name = h("span.doc-name", {}, ...breakable(doc.file_name || "document"));
    this.state = h("span.doc-state");
    this.del = h("button.icon-button.doc-delete", {
      type: "button", "aria-label": `Delete ${doc.file_name || "document"}`, title: "Delete", hidden: true,
      onclick: () => onDelete?.(this),
    }, icon("trash"));
    this.bar = h("progress.doc-progress", { max: "1", value: "0", "aria-label": `Progress of ${doc.file_name}` });
    this.reason = h("p.doc-reason.error-text", { hidden: true });
    // whose document it is, read off its cover at ingest (ingest/steps/identity.py): "Apple Inc. · AAPL"
    this.company = h("p.doc-company.muted.small", { hidden: true });
    this.summaryBody = h("div.doc-summary-body");
    this.summary = h("details.doc-summary", { hidden: true },
      h("summary", { text: "Summary and outline" }), this.summaryBody);
    this.summaryShown = null;
    // a failed upload (the server never took it) or a duplicate: Retry / Dismiss
    this.retry = h("button.ghost.small.doc-retry", {
      type: "button", text: "Retry", "aria-label": `Retry uploading ${doc.file_name || "document"}`, hidden: true,
      onclick: () => actions.onRetry?.(this),
    });
    this.dismiss = h("button.ghost.small.doc-dismiss", {
      type: "button", text: "Dismiss", "aria-label": `Dismiss ${doc.file_name || "document"}`, hidden: true,
      onclick: () => actions.onDismiss?.(this),
    });
    this.actions = h("div.doc-actions", { hidden: true }, this.retry, this.dismiss);
    this.el = h("li.doc", { dataset: { localId: this.localId } }, h("div.doc-line", {}, icon("doc"), this.name,
      this.state, this.del), this.company, this.bar, this.reason, this.actions, this.summary);
    this.update(doc);
  }

  update(doc) {
    const status = doc.status || "pending";
    this.status = status;
    if (doc.document_id) this.documentId = doc.document_id;
    if (doc.workflow_id) this.workflowId = doc.workflow_id;
    this.el.dataset.status = status;
    this.el.dataset.searchable = doc.searchable || status === "completed" ? "true" : "false";
    if (this.documentId) this.el.dataset.documentId = this.documentId;
    let text = STATUS_TEXT[status] || status;
    let progress = typeof doc.progress === "number" ? doc.progress : null;
    if (status === "uploading") {
      text = `Uploading ${Math.round((progress ?? 0) * 100)}%`;
    } else if (status === "in_progress" || status === "pending") {
      const step = currentStep(doc.steps) || doc.step_label || doc.label || null;
      // issue 18: keyword search finds the document before its vectors are all written ("ready")
      if (doc.searchable) text = "Searchable";
      if (step) text = `${text}: ${step}`;
      if (progress !== null) text += ` ${Math.round(progress * 100)}%`;
    } else if (status === "duplicate") {
      progress = 1;
      if (doc.existing_name && doc.existing_name !== doc.file_name) text = `${text} (as “${doc.existing_name}”)`;
    } else if (status === "completed") {
      progress = 1;
      const pages = doc.page_count ?? doc.total_segments;
      text = pages ? `Ready · ${pages} page${pages === 1 ? "" : "s"}` : "Ready";
    }
    this.state.textContent = text;
    if (status === "completed" || status === "failed" || status === "duplicate") {
      this.bar.hidden = true;
    } else {
      this.bar.hidden = false;
      if (progress === null) this.bar.removeAttribute("value");
      else this.bar.value = Math.max(0, Math.min(1, progress));
    }
    // a document can be deleted once it is not being worked on (the server refuses while it is processed)
    this.del.hidden = !(this.documentId && TERMINAL.has(status));
    const reason = status === "failed" ? (doc.error?.message || doc.error || doc.reason || "unknown reason") : "";
    this.reason.hidden = !reason;
    this.reason.textContent = reason ? String(reason) : "";
    const local = !this.documentId && (status === "failed" || status === "duplicate");
    this.actions.hidden = !local;
    this.dismiss.hidden = !local;
    this.retry.hidden = !(local && status === "failed");
    if (doc.summary && typeof doc.summary === "object") this.showSummary(doc.summary);
    if (doc.identity && typeof doc.identity === "object") this.showCompany(doc.identity);
  }

  /** The company the document's cover names, with its trading symbols (text only, never markup). */
  showCompany(identity) {
    const company = String(identity.company || "").trim();
    const tickers = Array.isArray(identity.tickers) ? identity.tickers.map(String).filter(Boolean) : [];
    const text = [company, tickers.join(", ")].filter(Boolean).join(" · ");
    this.company.textContent = text;
    this.company.hidden = !text;
  }

  /** The stored summary: what kind it is, the title, the text, the outline (headings with their pages). */
  showSummary(summary) {
    const key = JSON.stringify(summary);
    if (key === this.summaryShown) return;
    this.summaryShown = key;
    clear(this.summaryBody);
    const kind = summary.kind === "generated"
      ? `Summary written by ${summary.model || "the analysis model"}`
      : "Extractive summary (quoted from the document)";
    this.summaryBody.append(h("p.doc-summary-kind.muted.small", { text: kind }));
    if (summary.title) this.summaryBody.append(h("p.doc-summary-title", { text: summary.title }));
    for (const para of String(summary.text || "").split("\n").filter((x) => x.trim())) {
      this.summaryBody.append(h("p.doc-summary-text", { text: para }));
    }
    const outline = Array.isArray(summary.outline) ? summary.outline : [];
    if (outline.length) {
      const top = Math.min(...outline.map((o) => Number(o.level) || 1));
      this.summaryBody.append(h("p.doc-outline-label.small", { text: "Outline" }), h("ol.doc-outline", {},
        outline.map((o) => h("li", { dataset: { level: String(Math.max(0, (Number(o.level) || 1) - top)) } },
          h("span.doc-outline-text", { text: String(o.text || "") }),
          o.page ? h("span.doc-outline-page.muted", { text: ` p. ${o.page}` }) : null))));
    }
    if (!summary.title && !summary.text && !outline.length) {
      this.summaryBody.append(h("p.muted.small", { text: "No text was found to summarise." }));
    }
    this.summary.hidden = false;
  }
}

export class DocumentsPanel {
  /**
   * @param {{api, list: HTMLElement, dropzone: HTMLElement, fileInput: HTMLInputElement,
   *   ensureProject: () => Promise<string>, onError: (err) => void, maxBytes: number}} opts
   */
  constructor(opts) {
    Object.assign(this, opts);
    this.projectId = null;
    this.rows = new Map(); // document_id -> row
    this.failed = new FailedUploads(opts.user);
    this.uploading = 0;
    this.watchers = new AbortController();
    // closing the tab while files are still being sent would drop them: ask first
    window.addEventListener("beforeunload", (e) => { if (this.uploading > 0) e.preventDefault(); });
    this.wireDropzone();
  }

  wireDropzone() {
    const dz = this.dropzone;
    dz.addEventListener("click", () => this.fileInput.click());
    dz.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); this.fileInput.click(); }
    });
    this.fileInput.addEventListener("change", () => {
      const files = [...this.fileInput.files];
      this.fileInput.value = "";
      this.upload(files);
    });
    for (const type of ["dragenter", "dragover"]) {
      dz.addEventListener(type, (e) => { e.preventDefault(); dz.classList.add("dragging"); });
    }
    for (const type of ["dragleave", "dragend"]) dz.addEventListener(type, () => dz.classList.remove("dragging"));
    dz.addEventListener("drop", (e) => {
      e.preventDefault();
      dz.classList.remove("dragging");
      this.upload([...(e.dataTransfer?.files || [])]);
    });
    // a file dropped anywhere else must not make the browser navigate away from the app
    window.addEventListener("dragover", (e) => e.preventDefault());
    window.addEventListener("drop", (e) => { if (!dz.contains(e.target)) e.preventDefault(); });
  }

  /** Show the documents of a project (null: none yet). */
  async load(projectId) {
    this.watchers.abort();
    this.watchers = new AbortController();
    this.projectId = projectId;
    this.rows.clear();
    clear(this.list);
    if (!projectId) {
      this.list.append(h("li.muted.small.placeholder", { text: "No documents yet." }));
      return;
    }
    let docs;
    try {
      const body = await this.api.get(`/v1/projects/${encodeURIComponent(projectId)}/documents`);
      docs = Array.isArray(body) ? body : body.items || body.documents || [];
    } catch (err) {
      this.list.append(h("li.error-text.small", { text: `Could not load documents: ${err.message}` }));
      this.onError(err, { quiet: true });
      return;
    }
    if (projectId !== this.projectId) return;
    // rows of uploads sent to this project while the listing was on the way stay (and stay first); a document
    // one of them already shows is not listed twice
    const sentMeanwhile = [...this.list.querySelectorAll(":scope > .doc")];
    clear(this.list);
    for (const el of sentMeanwhile) this.list.append(el);
    const shown = new Set(sentMeanwhile.map((el) => el.dataset.localId));
    const failed = this.failed.list(projectId).filter((f) => !shown.has(f.id));
    if (!docs.length && !failed.length && !sentMeanwhile.length) {
      this.list.append(h("li.muted.small.placeholder", { text: "No documents yet." }));
    }
    for (const f of failed) {
      this.list.append(this.newRow({ local_id: f.id, file_name: f.file_name, status: "failed", error: f.reason }).el);
    }
    docs.sort((a, b) => String(b.created_at || "").localeCompare(String(a.created_at || "")));
    for (const d of docs) {
      if (this.rows.has(d.document_id)) continue;
      const row = new DocumentRow(d, (r) => this.remove(r));
      this.rows.set(row.documentId, row);
      this.list.append(row.el);
      if (!TERMINAL.has(row.status) && row.workflowId) this.watch(row, this.watchers.signal);
      else if (row.status === "failed" && !d.error && row.workflowId) this.explainFailure(row);
    }
  }

  newRow(doc, file = null) {
    return new DocumentRow(doc, (r) => this.remove(r), {
      file, onRetry: (r) => this.retryRow(r), onDismiss: (r) => this.dismissRow(r),
    });
  }

  dismissRow(row) {
    if (this.projectId) this.failed.remove(this.projectId, row.localId);
    row.el.remove();
    announce(`Dismissed ${row.name.textContent}`);
    if (!this.list.querySelector(".doc")) this.list.append(h("li.muted.small.placeholder", { text: "No documents yet." }));
  }

  /** Send a failed upload again; after a reload the file itself is gone, so the file chooser opens. */
  retryRow(row) {
    if (!row.file) {
      this.dismissRow(row);
      this.fileInput.click();
      return;
    }
    if (this.projectId) this.failed.remove(this.projectId, row.localId);
    const file = row.file;
    row.el.remove();
    this.upload([file]);
  }

  async upload(files) {
    if (!files.length) return;
    let projectId;
    try {
      projectId = await this.ensureProject();
    } catch (err) {
      this.onError(err);
      return;
    }
    this.list.querySelector(".placeholder")?.remove();
    const queue = files.map((file) => {
      const row = this.newRow({ file_name: file.name, status: "uploading", progress: 0 }, file);
      this.list.prepend(row.el);
      return { file, row };
    });
    announce(`Uploading ${files.length} file${files.length === 1 ? "" : "s"}`);
    const signal = this.watchers.signal;
    this.uploading += queue.length;
    // a few files are sent at once; each one's processing is watched on its own (not awaited here), so a
    // slow document never holds up the next upload and an instant rejection shows at once
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        try {
          await this.uploadOne(projectId, job.file, job.row, signal);
        } finally {
          this.uploading--;
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, files.length) }, worker));
  }

  failUpload(projectId, row, reason) {
    row.update({ status: "failed", error: reason });
    this.failed.add(projectId, { id: row.localId, file_name: row.name.textContent, reason, at: Date.now() });
  }

  async uploadOne(projectId, file, row, signal) {
    if (this.maxBytes && file.size > this.maxBytes) {
      this.failUpload(projectId, row, `${file.name} is ${formatBytes(file.size)}; the limit is ${formatBytes(this.maxBytes)}.`);
      return;
    }
    let reply;
    try {
      reply = await this.api.upload(`/v1/projects/${encodeURIComponent(projectId)}/documents`, file,
        (p) => row.update({ status: "uploading", progress: p }), signal);
    } catch (err) {
      if (isAbort(err)) { row.el.remove(); return; }
      const reason = err instanceof Unreachable ? "the server could not be reached" : err.message;
      this.failUpload(projectId, row, reason);
      return;
    }
    const existing = this.rows.get(reply.document_id);
    if (reply.duplicate || (existing && existing !== row)) {
      // the same bytes were uploaded before: the server returned the existing document; say so on this row
      // (Dismiss removes it) and point at the existing one
      const existingName = existing ? existing.name.textContent : null;
      row.update({ file_name: file.name, status: "duplicate", existing_name: existingName });
      if (existing) {
        existing.el.classList.remove("flash");
        void existing.el.offsetWidth; // restart the animation
        existing.el.classList.add("flash");
      }
      announce(`${file.name} is already in this project`);
      return;
    }
    row.update({ ...reply, file_name: file.name, status: reply.status || "pending", progress: 0 });
    this.rows.set(row.documentId, row);
    // watched separately: the next upload starts now
    if (!TERMINAL.has(row.status) && row.workflowId) this.watch(row, signal);
  }

  /** Delete a document after confirmation: its pages, segments and search entries go with it. */
  async remove(row) {
    const name = row.name.textContent;
    const ok = await confirmDialog(`Delete “${name}”? Answers will no longer cite it. This cannot be undone.`,
      { title: "Delete document" });
    if (!ok) return;
    try {
      await this.api.del(`/v1/projects/${encodeURIComponent(this.projectId)}/documents/${encodeURIComponent(row.documentId)}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) { this.onError(err); return; }
    }
    this.rows.delete(row.documentId);
    row.el.remove();
    announce(`Deleted ${name}`);
    if (!this.list.querySelector(".doc")) this.list.append(h("li.muted.small.placeholder", { text: "No documents yet." }));
  }

  /** Follow a workflow's progress events until it is completed or failed. */
  async watch(row, signal) {
    let lastEventId = null;
    let failures = 0;
    while (!TERMINAL.has(row.status) && !signal.aborted) {
      try {
        const path = `/v1/workflows/${encodeURIComponent(row.workflowId)}/events`;
        for await (const ev of this.api.events("GET", path, { lastEventId, signal })) {
          if (ev.id) lastEventId = ev.id;
          failures = 0;
          if (ev.data && typeof ev.data === "object") this.apply(row, ev.data);
          if (TERMINAL.has(row.status)) break;
        }
        if (!TERMINAL.has(row.status)) {
          // the stream ended early: read the state once (it may have finished meanwhile)
          this.apply(row, await this.api.get(`/v1/workflows/${encodeURIComponent(row.workflowId)}`, { signal }));
        }
      } catch (err) {
        if (isAbort(err)) return;
        if (err instanceof ApiError && err.status === 404) { row.update({ status: "failed", error: "the document was removed" }); return; }
        failures++;
      }
      if (!TERMINAL.has(row.status)) await sleep(Math.min(500 * 2 ** failures, 10000), signal).catch(() => {});
    }
  }

  /** The listing carries a failed document's `error`; only documents that failed before it did need the workflow. */
  async explainFailure(row) {
    try {
      this.apply(row, await this.api.get(`/v1/workflows/${encodeURIComponent(row.workflowId)}`));
    } catch {
      // keep "unknown reason"
    }
  }

  apply(row, data) {
    const before = row.status;
    const merged = { ...data };
    if (!merged.status && data.workflow_status) merged.status = data.workflow_status;
    if (!merged.status) merged.status = before === "uploading" ? "pending" : before;
    row.update(merged);
    if (row.status !== before && TERMINAL.has(row.status)) {
      const name = row.name.textContent;
      announce(row.status === "completed" ? `${name} is ready` : `${name} failed`);
      if (row.status === "completed") this.refreshRow(row);
    }
  }

  /** After completion, fetch the listing once more for the page count. */
  async refreshRow(row) {
    if (!this.projectId) return;
    try {
      const body = await this.api.get(`/v1/projects/${encodeURIComponent(this.projectId)}/documents`);
      const docs = Array.isArray(body) ? body : body.items || body.documents || [];
      const d = docs.find((x) => x.document_id === row.documentId);
      if (d && TERMINAL.has(d.status)) row.update(d);
    } catch {
      // the row already says "Ready"
    }
  }
}
