// The documents panel of the current project: drag-and-drop upload of several files, a progress
// bar per document fed by the workflow's SSE events, the failure reason, the ready documents.
import { ApiError, Unreachable, isAbort, sleep } from "./api.js";
import { announce, clear, formatBytes, h, icon } from "./dom.js";

const TERMINAL = new Set(["completed", "failed"]);
const UPLOAD_CONCURRENCY = 2;

const STATUS_TEXT = {
  uploading: "Uploading",
  pending: "Queued",
  in_progress: "Analyzing",
  completed: "Ready",
  failed: "Failed",
};

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
  constructor(doc, onDelete = null) {
    this.documentId = doc.document_id || null;
    this.workflowId = doc.workflow_id || null;
    this.name = h("span.doc-name", { text: doc.file_name || "document" });
    this.state = h("span.doc-state");
    this.del = h("button.icon-button.doc-delete", {
      type: "button", "aria-label": `Delete ${doc.file_name || "document"}`, title: "Delete", hidden: true,
      onclick: () => onDelete?.(this),
    }, icon("trash"));
    this.bar = h("progress.doc-progress", { max: "1", value: "0", "aria-label": `Progress of ${doc.file_name}` });
    this.reason = h("p.doc-reason.error-text", { hidden: true });
    this.el = h("li.doc", {}, h("div.doc-line", {}, icon("doc"), this.name,
      this.state, this.del), this.bar, this.reason);
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
    } else if (status === "completed") {
      progress = 1;
      const pages = doc.page_count ?? doc.total_segments;
      text = pages ? `Ready · ${pages} page${pages === 1 ? "" : "s"}` : "Ready";
    }
    this.state.textContent = text;
    if (status === "completed" || status === "failed") {
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
    this.watchers = new AbortController();
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
    clear(this.list);
    if (!docs.length) this.list.append(h("li.muted.small.placeholder", { text: "No documents yet." }));
    docs.sort((a, b) => String(b.created_at || "").localeCompare(String(a.created_at || "")));
    for (const d of docs) {
      const row = new DocumentRow(d, (r) => this.remove(r));
      this.rows.set(row.documentId, row);
      this.list.append(row.el);
      if (!TERMINAL.has(row.status) && row.workflowId) this.watch(row, this.watchers.signal);
      else if (row.status === "failed" && !d.error && row.workflowId) this.explainFailure(row);
    }
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
      const row = new DocumentRow({ file_name: file.name, status: "uploading", progress: 0 }, (r) => this.remove(r));
      this.list.prepend(row.el);
      return { file, row };
    });
    announce(`Uploading ${files.length} file${files.length === 1 ? "" : "s"}`);
    const signal = this.watchers.signal;
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) await this.uploadOne(projectId, job.file, job.row, signal);
    };
    await Promise.all(Array.from({ length: Math.min(UPLOAD_CONCURRENCY, files.length) }, worker));
  }

  async uploadOne(projectId, file, row, signal) {
    if (this.maxBytes && file.size > this.maxBytes) {
      row.update({ status: "failed", error: `${file.name} is ${formatBytes(file.size)}; the limit is ${formatBytes(this.maxBytes)}.` });
      return;
    }
    let reply;
    try {
      reply = await this.api.upload(`/v1/projects/${encodeURIComponent(projectId)}/documents`, file,
        (p) => row.update({ status: "uploading", progress: p }), signal);
    } catch (err) {
      if (isAbort(err)) { row.el.remove(); return; }
      const reason = err instanceof Unreachable ? "the server could not be reached" : err.message;
      row.update({ status: "failed", error: reason });
      return;
    }
    const existing = this.rows.get(reply.document_id);
    if (existing && existing !== row) {
      // the same bytes were uploaded before: the server returned the existing document
      row.el.remove();
      existing.el.classList.add("flash");
      announce(`${file.name} is already in this project`);
      return;
    }
    row.update({ ...reply, file_name: file.name, status: reply.status || "pending", progress: 0 });
    this.rows.set(row.documentId, row);
    if (!TERMINAL.has(row.status) && row.workflowId) await this.watch(row, signal);
  }

  /** Delete a document after confirmation: its pages, segments and search entries go with it. */
  async remove(row) {
    const name = row.name.textContent;
    if (!confirm(`Delete “${name}”? Answers will no longer cite it. This cannot be undone.`)) return;
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
