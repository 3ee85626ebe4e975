// One assistant message on screen: streamed markdown, tool activity, citation chips, notes.
import { h, icon } from "./dom.js";
import { renderMarkdown } from "./markdown.js";
import { SourcesPanel } from "./sources.js";

const TOOL_VERBS = { search_documents: "searching", read_page: "reading" };

/** "searching: “query”" / "reading: page 3" — a one-line summary of a tool call. */
export function toolLabel(ev) {
  if (ev.summary) return String(ev.summary);
  const input = ev.input || {};
  const verb = TOOL_VERBS[ev.name] || `using ${ev.name}`;
  if (ev.name === "search_documents" && input.query) return `${verb}: “${input.query}”`;
  if (ev.name === "read_page") {
    const file = ev.file_name || input.file_name;
    return `${verb}: ${file ? `${file}, ` : ""}page ${input.page ?? "?"}`;
  }
  return verb;
}

/** One assistant message on screen; text may keep arriving. */
export class AnswerView {
  constructor(container, { onCitation }) {
    this.text = "";
    this.citations = new Map();
    this.onCitation = onCitation;
    this.body = h("div.md");
    this.activity = h("ul.activity", { "aria-label": "Tool activity" });
    this.chips = h("div.citations", { role: "group", "aria-label": "Sources" });
    this.meta = h("div.meta");
    this.copyButton = h("button.ghost.small.copy-answer", {
      type: "button", text: "Copy", "aria-label": "Copy the answer", hidden: true, onclick: () => this.copy(),
    });
    this.actions = h("div.answer-actions", {}, this.copyButton);
    this.sources = new SourcesPanel({ onCitation, all: () => [...this.citations.values()] });
    this.el = h("article.message.assistant", { "aria-label": "Answer" },
      this.activity, this.body, this.chips, this.sources.el, this.actions, this.meta);
    this.el.addEventListener("click", (e) => {
      const ref = e.target.closest?.("sup.ref");
      if (!ref) return;
      const c = [...this.citations.values()].find((x) => x.ref === ref.dataset.ref);
      if (c) this.onCitation(c, [...this.citations.values()]);
    });
    this._frame = 0;
    container.append(this.el);
  }

  setStreaming(on) {
    this.el.classList.toggle("streaming", on);
    this.el.setAttribute("aria-busy", on ? "true" : "false");
  }

  append(delta) {
    this.text += delta;
    if (!this._frame) {
      this._frame = requestAnimationFrame(() => { this._frame = 0; this.render(); });
    }
  }

  setText(text) {
    this.text = text || "";
    this.render();
    this.copyButton.hidden = !this.text.trim();
  }

  /** Copy the answer as Markdown (tables, lists and [S#] references as written). */
  async copy() {
    try {
      await navigator.clipboard.writeText(this.text);
      this.copyButton.textContent = "Copied";
    } catch {
      this.copyButton.textContent = "Copy failed";
    }
    setTimeout(() => { this.copyButton.textContent = "Copy"; }, 1500);
  }

  render() {
    this.body.innerHTML = renderMarkdown(this.text);
    for (const sup of this.body.querySelectorAll("sup.ref")) {
      const known = [...this.citations.values()].some((c) => c.ref === sup.dataset.ref);
      sup.classList.toggle("linked", known);
      if (known) { sup.tabIndex = 0; sup.setAttribute("role", "button"); }
    }
  }

  tool(ev) {
    const key = ev.id || ev.tool_use_id || `${ev.name}:${JSON.stringify(ev.input || {})}`;
    let li = this.activity.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (!li) {
      li = h("li", { dataset: { key } });
      this.activity.append(li);
    }
    const status = String(ev.status || "");
    let suffix = "";
    if (status === "error" || status === "failed") suffix = ` — failed${ev.error ? `: ${ev.error}` : ""}`;
    else if (Number.isInteger(ev.results)) suffix = ` — ${ev.results} result${ev.results === 1 ? "" : "s"}`;
    li.textContent = toolLabel(ev) + suffix;
    li.className = ["done", "completed", "ok", "finished"].includes(status) ? "done"
      : ["error", "failed"].includes(status) ? "failed" : "running";
  }

  citation(c) {
    const key = `${c.document_id}#${c.page}#${c.ref || c.chunk_id || ""}`;
    if (this.citations.has(key)) return;
    this.citations.set(key, c);
    // one chip per (document, page): further refs to it add their box to the same chip
    const pageKey = `${c.document_id}#${c.page}`;
    let chip = this.chips.querySelector(`[data-page-key="${CSS.escape(pageKey)}"]`);
    if (chip) {
      chip._citations.push(c);
    } else {
      const label = `${c.file_name || "document"} · p. ${c.page}`;
      chip = h("button.chip", {
        type: "button", dataset: { pageKey },
        title: c.quote ? c.quote : label,
        "aria-label": `Open source ${label}`,
      }, icon("doc", 14), h("span.chip-refs"), h("span.chip-label", { text: label }));
      chip._citations = [c];
      chip.addEventListener("click", () => this.onCitation(chip._citations[0], chip._citations));
      this.chips.append(chip);
    }
    // the chip carries the S numbers the text uses ("S1, S3"), so [S3] in the answer finds its chip
    const refs = [...new Set(chip._citations.map((x) => x.ref).filter(Boolean))];
    chip.querySelector(".chip-refs").textContent = refs.length ? `${refs.join(", ")} ` : "";  // a word apart
    chip.querySelector(".chip-refs").hidden = !refs.length;
    chip.dataset.refs = refs.join(" ");
    // the accessible name holds what the chip shows ("Open source S1, S3 handbook.pdf · p. 2"), so speech input
    // can click it by what it shows (axe: label-content-name-mismatch)
    const label = chip.querySelector(".chip-label").textContent;
    chip.setAttribute("aria-label", `Open source ${[...refs.join(", ").split(" "), label].join(" ").trim()}`);
    this.sources.render(this.citations.values());
    this.render();
  }

  finish(data) {
    this.setStreaming(false);
    this.copyButton.hidden = !this.text.trim();
    for (const li of this.activity.querySelectorAll("li.running")) li.className = "done";
    this.activity.classList.add("settled");
    const reason = data && data.stop_reason;
    const notes = { interrupted: "Stopped — the partial answer was saved.", stopped: "Stopped — the partial answer was saved.",
      max_tokens: "The answer hit the length limit.", cancelled: "Stopped." };
    if (notes[reason]) this.note(notes[reason]);
    if (!this.text.trim() && !notes[reason]) this.note("No answer text.");
  }

  /** Token counts (a "usage" event per model round: they add up). "input" is the uncached part only, so the
   * input shown is uncached + read from cache + written to cache (it said "0 in" when all came from the cache). */
  usage(u) {
    if (!u) return;
    const t = this.tokens || (this.tokens = { input: 0, output: 0, cache_read: 0, cache_write: 0 });
    for (const k of Object.keys(t)) t[k] += Number(u[k]) || 0;
    const input = t.input + t.cache_read + t.cache_write;
    const cached = t.cache_read ? ` (${t.cache_read} from cache)` : "";
    this.meta.dataset.usage = `${input} in${cached} · ${t.output} out`;
    this.meta.title = `tokens: ${this.meta.dataset.usage}`;
  }

  note(text, kind = "note") {
    this.meta.append(h(`p.${kind}`, { text }));
  }

  error(text, retry) {
    this.setStreaming(false);
    const p = h("p.error-text", { role: "alert", text });
    if (retry) p.append(" ", h("button.ghost.small", { type: "button", onclick: () => { p.remove(); retry(); } }, "Retry"));
    this.meta.append(p);
  }
}
