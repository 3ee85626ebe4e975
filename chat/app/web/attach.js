// Issue 16: attach a file from the message box. It is uploaded into the chat's project with the ordinary upload
// API, shown as a chip with its progress (upload, then processing), and a question sent meanwhile waits until
// every attached document is searchable (the workflow's `searchable` moment: keyword search finds it) — then
// the chat uses it (it joins the chat's document selection when the chat has one).
import { ApiError, Unreachable, isAbort, sleep } from "./api.js";
import { $, announce, h, icon } from "./dom.js";
import { composerTools } from "./docpicker.js";

const ACCEPT = ".pdf,.png,.jpg,.jpeg,.tif,.tiff,.webp,application/pdf,image/png,image/jpeg,image/tiff,image/webp";

/** A paperclip (decorative; the button carries the label). */
function clipIcon() {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  for (const [k, v] of Object.entries({ viewBox: "0 0 24 24", width: "18", height: "18", "aria-hidden": "true",
    class: "icon" })) svg.setAttribute(k, v);
  const path = document.createElementNS(ns, "path");
  path.setAttribute("d", "M20 11.5l-8.2 8.2a5 5 0 0 1-7.1-7.1l8.6-8.6a3.4 3.4 0 0 1 4.8 4.8l-8.5 8.5a1.8 1.8 0 0 1-2.5-2.5L15 7");
  svg.append(path);
  return svg;
}

class Attachment {
  constructor(file, onRemove) {
    this.file = file;
    this.state = "uploading";
    this.documentId = null;
    this.workflowId = null;
    this.ctrl = new AbortController();
    this.bar = h("progress", { max: "1", value: "0", "aria-label": `Progress of ${file.name}` });
    this.text = h("span.attachment-state.small", { text: "Uploading 0%" });
    this.el = h("li.chip.attachment", { dataset: { state: "uploading" } },
      h("span.chip-label", { text: file.name }), this.bar, this.text,
      h("button.icon-button", { type: "button", "aria-label": `Remove ${file.name} from this message`,
        onclick: () => onRemove(this) }, icon("close", 12)));
    this.done = new Promise((resolve) => { this.settle = resolve; });
  }

  set(state, text, progress = null) {
    this.state = state;
    this.el.dataset.state = state;
    this.text.textContent = text;
    if (state === "searchable" || state === "failed") { this.bar.hidden = true; this.settle(state); }
    else if (progress === null) this.bar.removeAttribute("value");
    else this.bar.value = Math.max(0, Math.min(1, progress));
  }
}

export class Attachments {
  /**
   * @param {{api, ensureProject: () => Promise<string>, maxBytes?: number,
   *   onSearchable: (documentId, fileName) => Promise<void>|void, onError: (err) => void}} opts
   */
  constructor(opts) {
    Object.assign(this, opts);
    this.items = [];
    this.input = h("input", { type: "file", multiple: true, hidden: true, accept: ACCEPT, id: "attach-input",
      "aria-hidden": "true", tabindex: "-1" });
    this.button = h("button.ghost", { id: "attach-button", type: "button", "aria-label": "Attach a file",
      title: "Attach a file (it is added to this project)", onclick: () => this.input.click() },
    clipIcon());
    composerTools().prepend(this.button, this.input);
    this.input.addEventListener("change", () => {
      const files = [...(this.input.files || [])];
      this.input.value = "";
      this.add(files);
    });
    this.list = h("ul.attachments", { id: "attachments", "aria-label": "Attached files", "aria-live": "polite" });
    $("#composer").before(this.list);
  }

  /** Upload and watch each file (not awaited by anyone: sending waits on `ready`). */
  add(files) {
    for (const file of files) {
      const a = new Attachment(file, (x) => this.remove(x));
      this.items.push(a);
      this.list.append(a.el);
      this.run(a);
    }
    if (files.length) announce(`Attaching ${files.length} file${files.length === 1 ? "" : "s"}`);
  }

  remove(a) {
    a.ctrl.abort();
    a.settle("removed");
    a.el.remove();
    this.items = this.items.filter((x) => x !== a);
  }

  async run(a) {
    if (this.maxBytes && a.file.size > this.maxBytes) { a.set("failed", "Too large"); return; }
    let projectId;
    let reply;
    try {
      projectId = await this.ensureProject();
      reply = await this.api.upload(`/v1/projects/${encodeURIComponent(projectId)}/documents`, a.file,
        (p) => a.set("uploading", `Uploading ${Math.round(p * 100)}%`, p), a.ctrl.signal);
    } catch (err) {
      if (isAbort(err)) return;
      a.set("failed", err instanceof Unreachable ? "Server unreachable" : err.message);
      return;
    }
    a.documentId = reply.document_id;
    a.workflowId = reply.workflow_id;
    a.set("processing", reply.duplicate ? "Already in the project" : "Processing", 0);
    if (reply.status === "completed") { await this.searchable(a); return; }
    await this.watch(a);
  }

  async watch(a) {
    let lastEventId = null;
    for (let failures = 0; a.state === "processing" && !a.ctrl.signal.aborted;) {
      try {
        const path = `/v1/workflows/${encodeURIComponent(a.workflowId)}/events`;
        for await (const ev of this.api.events("GET", path, { lastEventId, signal: a.ctrl.signal })) {
          if (ev.id) lastEventId = ev.id;
          failures = 0;
          if (await this.apply(a, ev.data || {})) return;
        }
        if (await this.apply(a, await this.api.get(`/v1/workflows/${encodeURIComponent(a.workflowId)}`,
          { signal: a.ctrl.signal }))) return;
      } catch (err) {
        if (isAbort(err)) return;
        if (err instanceof ApiError && err.status === 404) { a.set("failed", "The document was removed"); return; }
        failures++;
      }
      await sleep(Math.min(500 * 2 ** failures, 5000), a.ctrl.signal).catch(() => {});
    }
  }

  /** One workflow event; true once the attachment is settled (searchable or failed). */
  async apply(a, d) {
    const status = d.status || d.workflow_status;
    if (status === "failed") {
      const reason = d.error?.message || d.error || "processing failed";
      a.set("failed", `Failed: ${reason}`);
      announce(`${a.file.name} could not be processed`);
      return true;
    }
    if (d.searchable || status === "completed") { await this.searchable(a); return true; }
    if (typeof d.progress === "number") a.set("processing", `Processing ${Math.round(d.progress * 100)}%`, d.progress);
    return false;
  }

  async searchable(a) {
    try {
      await this.onSearchable?.(a.documentId, a.file.name);
    } catch (err) {
      this.onError(err);
    }
    a.set("searchable", "Searchable");
    announce(`${a.file.name} is searchable`);
  }

  get pending() {
    return this.items.filter((a) => a.state === "uploading" || a.state === "processing");
  }

  /** Resolves once every attached file is searchable or failed (what sending a question waits for). */
  async ready() {
    const waiting = this.pending;
    if (!waiting.length) return true;
    const names = waiting.map((a) => a.file.name).join(", ");
    announce(`Sending once ${names} ${waiting.length === 1 ? "is" : "are"} searchable`);
    await Promise.all(waiting.map((a) => a.done));
    return true;
  }

  /** The question went out: its searchable attachments are in the chat now; failed ones stay until removed. */
  sent() {
    for (const a of [...this.items]) if (a.state === "searchable") { a.el.remove(); this.items = this.items.filter((x) => x !== a); }
  }
}
