// The conversation pane: history, the streamed answer, tool activity, citation chips, stop, and
// resuming a dropped stream with Last-Event-ID.
import { ApiError, Unreachable, isAbort, newId, sleep } from "./api.js";
import { AnswerView, toolLabel } from "./answer.js";
import { announce, clear, h } from "./dom.js";
import { FeedbackControls } from "./feedback.js";
import { TurnActions } from "./turn_actions.js";

const MAX_RESUMES = 10;

export class ChatPane {
  /**
   * @param {{api, messages: HTMLElement, input: HTMLTextAreaElement, form: HTMLFormElement,
   *   send: HTMLElement, stop: HTMLElement, getProjectId: () => string|null,
   *   onCitation: (c, all) => void, onSessionCreated: (s) => void, onTurnDone: (id) => void,
   *   onSessionInfo: (info) => void,
   *   onError: (err) => void}} opts
   */
  constructor(opts) {
    Object.assign(this, opts);
    this.sessionId = null;
    this.busy = false;
    this.ctrl = null;
    this.stopWanted = null; // the ctrl of the answer a stop was asked for (see stopAnswer)
    this.view = null;
    this.form.addEventListener("submit", (e) => { e.preventDefault(); this.submit(); });
    this.input.addEventListener("keydown", (e) => {
      // Enter sends, Shift+Enter is a new line; never send while an IME is composing (Korean, Japanese)
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing && e.keyCode !== 229) {
        e.preventDefault();
        this.submit();
      } else if (e.key === "ArrowUp" && !this.input.value && !e.isComposing) {
        // ↑ in the empty box: edit the last question (to correct it and send it again, in its place)
        if (!this.busy && this.turns.editLast()) e.preventDefault();
      } else if (e.key === "Escape" && this.turns.editing) {
        e.preventDefault();
        this.turns.cancelEdit();
      }
    });
    document.addEventListener("keydown", (e) => {
      if (e.defaultPrevented || document.querySelector("dialog[open]")) return;
      // Esc stops the answer being written
      if (e.key === "Escape" && this.busy) { e.preventDefault(); this.stopAnswer(); return; }
      // "/" outside a text field focuses the search over your chats (the message box where there is none)
      const typing = e.target instanceof HTMLElement && e.target.closest("input, textarea, select, [contenteditable]");
      if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        const search = document.getElementById("chat-search-input");
        (search && search.offsetParent !== null ? search : this.input).focus();
      }
    });
    this.input.addEventListener("input", () => this.autosize());
    this.stop.addEventListener("click", () => this.stopAnswer());
    this.turns = new TurnActions(this);
    this.empty();
  }

  autosize() {
    this.input.style.height = "auto";
    this.input.style.height = `${Math.min(this.input.scrollHeight, 240)}px`;
  }

  setBusy(on) {
    this.busy = on;
    if (!on) { this.stopWanted = null; this.stop.disabled = false; }
    this.send.hidden = on;
    this.stop.hidden = !on;
    this.messages.setAttribute("aria-busy", on ? "true" : "false");
    this.turns?.refresh();
  }

  /** Stop showing the current stream (it keeps running on the server until its disconnect rule). */
  detach() {
    this.ctrl?.abort();
    this.ctrl = null;
    this.setBusy(false);
  }

  empty() {
    clear(this.messages);
    this.messages.append(h("div.empty", {},
      h("h2", { text: "Ask your documents" }),
      h("p.muted", { text: "Upload PDFs or scans in the Documents panel, then ask a question. " +
        "Answers cite the pages they come from — click a source to see the page." })));
  }

  newChat() {
    this.detach();
    this.sessionId = null;
    this.empty();
    this.input.focus();
  }

  async open(sessionId) {
    this.detach();
    this.sessionId = sessionId;
    clear(this.messages);
    this.messages.append(h("p.muted.center.loading", { text: "Loading…" }));
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    let history;
    try {
      history = await this.api.get(`/v1/sessions/${encodeURIComponent(sessionId)}/messages`, { signal: ctrl.signal });
    } catch (err) {
      if (isAbort(err)) return;
      clear(this.messages);
      if (err instanceof ApiError && err.status === 404) {
        this.messages.append(h("p.muted.center", { text: this.missingText || "This chat no longer exists." }));
        this.sessionId = null;
        this.onMissing?.(sessionId);
      } else {
        this.messages.append(h("p.error-text.center", { text: `Could not load this chat: ${err.message}` }));
      }
      this.onError(err, { quiet: true });
      return;
    }
    if (sessionId !== this.sessionId) return;
    clear(this.messages);
    const items = history.items || [];
    for (const m of items) this.renderStored(m);
    if (!items.length) this.empty();
    this.turns.refresh();
    this.scrollToEnd(true);
    // an answer may still be running (another tab, or a reload mid-answer): attach to it
    this.resumeRunning(sessionId, ctrl);
  }

  renderStored(m) {
    if (m.role === "user") {
      const el = h("article.message.user", { "aria-label": "Your message" }, h("p.user-text", { text: m.text || "" }));
      if (m.seq) el.dataset.seq = String(m.seq);
      this.messages.append(el);
      this.turns.decorateQuestion(el);
      return;
    }
    const view = new AnswerView(this.messages, { onCitation: this.onCitation });
    this.turns.decorateAnswer(view);
    if (m.seq && !m.repaired) this.attachFeedback(view, m.seq, m.feedback);
    for (const c of m.citations || []) view.citation(c);
    view.setText(m.text || "");
    if (m.usage) view.usage(m.usage);
    if (m.interrupted || m.stop_reason === "interrupted") view.note("Stopped — the partial answer was saved.");
    for (const [i, t] of (m.tools || []).entries()) {
      // with its input the stored call reads like the live one ("searching: “q” — 3 results")
      const summary = t.input && Object.keys(t.input).length ? undefined : t.summary;
      view.tool({ ...t, summary, id: `stored-${i}`, status: t.error ? "error" : "done" });
    }
    view.activity.classList.add("settled");
  }

  async resumeRunning(sessionId, ctrl) {
    let info;
    try {
      info = await this.api.get(`/v1/sessions/${encodeURIComponent(sessionId)}`, { signal: ctrl.signal });
    } catch {
      return;
    }
    if (sessionId === this.sessionId) this.onSessionInfo?.(info);
    if (info && info.access === "viewer") return; // a chat shared with you: read it, never attach to its stream
    const running = info && (info.generating || info.running || info.status === "generating");
    if (!running || sessionId !== this.sessionId || this.busy) return;
    const view = new AnswerView(this.messages, { onCitation: this.onCitation });
    view.setStreaming(true);
    await this.follow({ sessionId, view, lastEventId: null, finished: false, ctrl, resumeOnly: true });
  }

  async submit() {
    if (!this.input.value.trim() || this.busy || this.waiting) return;
    if (this.beforeSubmit) {
      // issue 16: a question waits until the files attached to it are searchable
      this.waiting = true;
      this.send.disabled = true;
      this.send.textContent = "Waiting…";
      this.send.setAttribute("aria-label", "Waiting for the attached files");
      try {
        if (!(await this.beforeSubmit())) return;
      } finally {
        this.waiting = false;
        this.send.disabled = false;
        this.send.textContent = "Send";
        this.send.setAttribute("aria-label", "Send");
      }
    }
    const text = this.input.value.trim();
    if (!text || this.busy) return;
    this.afterSubmit?.();
    this.input.value = "";
    this.autosize();
    if (this.turns.editing) { await this.turns.resend(text); return; }
    await this.ask(text, newId());
  }

  /** Feedback buttons on a stored answer (its display seq). */
  attachFeedback(view, seq, feedback = null) {
    if (!this.sessionId || !seq || view.feedback) return;
    view.feedback = new FeedbackControls({ api: this.api, sessionId: this.sessionId, seq, feedback,
      onError: (err) => this.onError(err) });
    view.actions.append(view.feedback.el);
  }

  async ask(text, turnId, { replacesSeq = null } = {}) {
    this.setBusy(true);
    const ctrl = new AbortController();
    this.ctrl = ctrl;
    if (!this.sessionId || this.messages.querySelector(".empty")) clear(this.messages);
    const question = h("article.message.user", { "aria-label": "Your message" }, h("p.user-text", { text }));
    this.messages.append(question);
    this.turns.decorateQuestion(question);
    const view = new AnswerView(this.messages, { onCitation: this.onCitation });
    this.turns.decorateAnswer(view);
    this.turns.refresh();
    view.setStreaming(true);
    this.scrollToEnd(true);
    const projectId = this.getProjectId();
    let created = false;
    try {
      if (!this.sessionId) {
        created = true;
        const s = await this.api.post("/v1/sessions", projectId ? { project_id: projectId } : {}, { signal: ctrl.signal });
        this.sessionId = s.session_id;
        this.onSessionCreated(s);
      }
    } catch (err) {
      this.setBusy(false);
      if (isAbort(err)) return;
      view.error(`Could not start a chat: ${err.message}`, () => { view.el.remove(); this.ask(text, turnId); });
      return;
    }
    const sessionId = this.sessionId;
    if (this.stopWanted === ctrl) this.sendStop(); // Esc before the chat existed
    try {
      await this.beforeAsk?.(sessionId, created); // issue 16: a new chat's document selection is stored first
    } catch (err) {
      this.setBusy(false);
      view.error(`Could not set this chat's documents: ${err.message}`);
      return;
    }
    // a chat stays with the project it was started in (the server keeps it on the session)
    const body = { text, turn_id: turnId };
    if (created && projectId) body.project_id = projectId;
    if (replacesSeq) body.replaces_seq = replacesSeq;
    const turn = { sessionId, view, lastEventId: null, finished: false, started: false, ctrl };
    try {
      const stream = this.api.events("POST", `/v1/sessions/${encodeURIComponent(sessionId)}/messages`,
        { json: body, signal: ctrl.signal });
      await this.consume(stream, turn);
    } catch (err) {
      if (isAbort(err)) { view.setStreaming(false); return; }
      if (!(err instanceof Unreachable)) {
        this.setBusy(false);
        const msg = err instanceof ApiError && err.status === 409
          ? "An answer is already being written in this chat (another tab?). Wait for it or stop it."
          : `The question could not be sent: ${err.message}`;
        view.error(msg, () => {
          view.el.previousElementSibling?.remove(); view.el.remove(); this.ask(text, turnId, { replacesSeq });
        });
        return;
      }
    }
    await this.follow(turn);
    if (sessionId === this.sessionId) this.onTurnDone(sessionId);
  }

  /** Resume until done/error: GET …/stream with Last-Event-ID after every drop. */
  async follow(turn) {
    const { sessionId, view, ctrl } = turn;
    let attempt = 0;
    try {
      while (!turn.finished) {
        if (attempt > 0 || !turn.resumeOnly) {
          if (attempt >= MAX_RESUMES) throw new Unreachable(null);
          if (attempt > 0 || turn.started || turn.lastEventId) {
            await sleep(Math.min(400 * 2 ** attempt, 8000), ctrl.signal);
          }
        }
        attempt++;
        if (turn.finished) break;
        let got = 0;
        try {
          got = await this.consume(this.api.events("GET", `/v1/sessions/${encodeURIComponent(sessionId)}/stream`,
            { lastEventId: turn.lastEventId, signal: ctrl.signal }), turn);
        } catch (err) {
          if (err instanceof Unreachable) continue;
          if (err instanceof ApiError && (err.status === 404 || err.status === 410)) got = 0;
          else throw err;
        }
        if (!turn.finished && got === 0) {
          if (!turn.started && !turn.lastEventId && !turn.resumeOnly) {
            throw new Error("the question did not reach the server. Please send it again");
          }
          // nothing left to replay: the answer ended while we were away; the store has it
          await this.reloadLast(turn);
          turn.finished = true;
        }
      }
    } catch (err) {
      if (isAbort(err)) { view.setStreaming(false); return; }
      view.error(err instanceof Unreachable
        ? "Lost the connection to the server. The answer may still be saved — reopen the chat in a moment."
        : `The answer failed: ${err.message}`);
    } finally {
      if (this.ctrl === ctrl) { this.setBusy(false); this.ctrl = null; }
    }
  }

  /** Replace the streaming view with the stored last answer (after a replay was impossible). */
  async reloadLast(turn) {
    try {
      const history = await this.api.get(`/v1/sessions/${encodeURIComponent(turn.sessionId)}/messages`,
        { signal: turn.ctrl.signal });
      const last = (history.items || []).filter((m) => m.role !== "user").pop();
      if (last) {
        for (const c of last.citations || []) turn.view.citation(c);
        turn.view.setText(last.text || "");
      }
    } catch (err) {
      if (isAbort(err)) throw err;
    }
    turn.view.finish({});
  }

  /** Apply the events of one stream to the turn; returns how many arrived. */
  async consume(stream, turn) {
    const { view } = turn;
    let count = 0;
    for await (const ev of stream) {
      count++;
      if (ev.id) turn.lastEventId = ev.id;
      const d = ev.data || {};
      switch (ev.event) {
        case "start":
          turn.started = true;
          // a stop sent before the server had started this answer found nothing to stop: send it again
          if (this.stopWanted === turn.ctrl) this.sendStop();
          break;
        case "text":
          view.append(d.delta || "");
          this.scrollToEnd();
          break;
        case "tool":
          view.tool(d);
          if (!d.status || d.status === "started") announce(toolLabel(d));
          this.scrollToEnd();
          break;
        case "citation":
          view.citation(d);
          break;
        case "usage":
          view.usage(d);
          break;
        case "done":
          view.render();
          view.finish(d);
          if (Number.isInteger(d.seq) && d.seq > 0) this.attachFeedback(view, d.seq);
          this.turns.refresh();
          turn.finished = true;
          announce("Answer complete");
          break;
        case "error":
          view.render();
          if (d.code === "replay_gap") {
            await this.reloadLast(turn);
          } else {
            view.error(d.message || "The answer failed.");
          }
          turn.finished = true;
          break;
        default:
          break;
      }
      if (turn.finished) break;
    }
    return count;
  }

  /** Stop the answer being written. A stop asked for before the question reached the server (the chat still
   * being created, the stream not started) is remembered and sent once it has: Esc right after Enter stops too. */
  async stopAnswer() {
    if (!this.busy) return;
    this.stopWanted = this.ctrl;
    if (!this.sessionId) { this.stop.disabled = true; return; } // ask() sends it once the chat exists
    await this.sendStop();
  }

  async sendStop() {
    const id = this.sessionId;
    if (!id || !this.busy) return;
    this.stop.disabled = true;
    try {
      await this.api.post(`/v1/sessions/${encodeURIComponent(id)}/stop`, {});
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) this.onError(err);
    } finally {
      this.stop.disabled = false;
    }
    // the stream normally ends with "done" right after; don't wait forever for it
    const ctrl = this.ctrl;
    setTimeout(() => {
      if (ctrl && this.ctrl === ctrl) {
        ctrl.abort();
        this.setBusy(false);
      }
    }, 8000);
  }

  scrollToEnd(force = false) {
    const el = this.messages;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 120;
    if (force || near) requestAnimationFrame(() => { el.scrollTop = el.scrollHeight; });
  }
}
