// The sidebar: the user's chats, newest activity first, loaded page by page as the list scrolls;
// new, rename (inline), delete.
import { ApiError } from "./api.js";
import { announce, clear, confirmDialog, h, icon, relativeTime } from "./dom.js";

const PAGE = 30;

export function displayTitle(title) {
  const t = String(title ?? "").trim();
  return t || "New chat";
}

export class SessionsPanel {
  /**
   * @param {{api, list: HTMLElement, status: HTMLElement, onOpen: (id) => void,
   *          onDeleted: (id) => void, onError: (err) => void}} opts
   */
  constructor(opts) {
    Object.assign(this, opts);
    this.cursor = null;
    this.exhausted = false;
    this.loading = null;
    this.currentId = null;
    this.generation = 0;
    this.sentinel = h("li.sentinel", { "aria-hidden": "true" });
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.loadMore();
    }, { root: this.list, rootMargin: "200px" });
  }

  /** Start over (sign-in, project change): first page. */
  async reset() {
    this.generation++;
    this.cursor = null;
    this.exhausted = false;
    this.loading = null;
    clear(this.list);
    this.list.append(this.sentinel);
    this.observer.disconnect();
    this.observer.observe(this.sentinel);
    await this.loadMore();
  }

  async loadMore() {
    if (this.exhausted) return;
    if (this.loading) return this.loading;
    const gen = this.generation;
    this.status.textContent = "Loading…";
    const q = new URLSearchParams({ limit: String(PAGE) });
    if (this.cursor) q.set("cursor", this.cursor);
    this.loading = (async () => {
      try {
        const page = await this.api.get(`/v1/sessions?${q}`);
        if (gen !== this.generation) return;
        for (const s of page.items || []) {
          if (!this.list.querySelector(`[data-session-id="${CSS.escape(s.session_id)}"]`)) {
            this.sentinel.before(this.item(s));
          }
        }
        this.cursor = page.next_cursor || null;
        this.exhausted = !this.cursor;
        this.status.textContent = this.list.children.length > 1 ? "" : "No chats yet.";
      } catch (err) {
        if (gen === this.generation) {
          this.status.textContent = "Could not load chats.";
          this.onError(err);
        }
      } finally {
        if (gen === this.generation) this.loading = null;
      }
    })();
    await this.loading;
    // a short first page may leave the sentinel visible: keep filling until it scrolls away
    if (gen === this.generation && !this.exhausted && this.sentinelVisible()) await this.loadMore();
  }

  sentinelVisible() {
    const a = this.sentinel.getBoundingClientRect();
    const b = this.list.getBoundingClientRect();
    return a.top < b.bottom + 200;
  }

  item(s) {
    const title = displayTitle(s.title);
    const open = h("button.session-open", {
      type: "button",
      onclick: () => this.onOpen(s.session_id),
    }, h("span.session-title", { text: title }), h("span.session-time", { text: relativeTime(s.updated_at) }));
    const rename = h("button.icon-button.session-action", {
      type: "button", "aria-label": `Rename chat “${title}”`, title: "Rename",
      onclick: () => this.startRename(s.session_id),
    }, icon("edit"));
    const del = h("button.icon-button.session-action", {
      type: "button", "aria-label": `Delete chat “${title}”`, title: "Delete",
      onclick: () => this.remove(s.session_id),
    }, icon("trash"));
    const li = h("li.session", { dataset: { sessionId: s.session_id, pinned: s.pinned ? "true" : "false" } },
      open, rename, del);
    if (s.session_id === this.currentId) open.setAttribute("aria-current", "page");
    return li;
  }

  find(id) {
    return this.list.querySelector(`[data-session-id="${CSS.escape(id)}"]`);
  }

  select(id) {
    this.currentId = id;
    for (const b of this.list.querySelectorAll(".session-open[aria-current]")) b.removeAttribute("aria-current");
    const li = id && this.find(id);
    if (li) li.querySelector(".session-open").setAttribute("aria-current", "page");
  }

  /** A session was created or had new activity: put it on top. */
  upsert(s) {
    const old = this.find(s.session_id);
    const title = s.title ?? (old ? old.querySelector(".session-title").textContent : "");
    const pinned = s.pinned ?? old?.dataset.pinned === "true";
    const li = this.item({ ...s, title, pinned, updated_at: s.updated_at || new Date().toISOString() });
    old?.remove();
    // pinned chats stay first: a chat with new activity goes to the top of the unpinned ones
    const lastPinned = pinned ? null : [...this.list.querySelectorAll('.session[data-pinned="true"]')].pop();
    if (lastPinned) lastPinned.after(li);
    else this.list.prepend(li);
    this.status.textContent = "";
    this.select(this.currentId);
  }

  startRename(id) {
    const li = this.find(id);
    if (!li || li.querySelector("input")) return;
    const openBtn = li.querySelector(".session-open");
    const titleEl = openBtn.querySelector(".session-title");
    const before = titleEl.textContent;
    const input = h("input.session-rename", { value: before, maxlength: 200, "aria-label": "New chat title" });
    let finished = false;
    const finish = async (save, refocus) => {
      if (finished) return;
      finished = true;
      const title = input.value.trim();
      input.replaceWith(openBtn);
      if (refocus) openBtn.focus();
      if (!save || !title || title === before) return;
      titleEl.textContent = title;
      try {
        await this.api.patch(`/v1/sessions/${encodeURIComponent(id)}`, { title });
        this.relabel(li, title);
        announce(`Renamed to ${title}`);
      } catch (err) {
        titleEl.textContent = before;
        this.onError(err);
      }
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.isComposing) { e.preventDefault(); finish(true, true); }
      if (e.key === "Escape") { e.preventDefault(); finish(false, true); }
    });
    input.addEventListener("blur", () => finish(true, false));
    openBtn.replaceWith(input);
    input.focus();
    input.select();
  }

  relabel(li, title) {
    const [rename, del] = li.querySelectorAll(".session-action");
    rename.setAttribute("aria-label", `Rename chat “${title}”`);
    del.setAttribute("aria-label", `Delete chat “${title}”`);
  }

  setTitle(id, title) {
    const li = this.find(id);
    if (!li || !title) return;
    li.querySelector(".session-title").textContent = displayTitle(title);
    this.relabel(li, displayTitle(title));
  }

  async remove(id) {
    const li = this.find(id);
    const title = li ? li.querySelector(".session-title").textContent : "this chat";
    if (!(await confirmDialog(`Delete “${title}”? This cannot be undone.`, { title: "Delete chat" }))) return;
    try {
      await this.api.del(`/v1/sessions/${encodeURIComponent(id)}`);
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) { this.onError(err); return; }
    }
    li?.remove();
    announce(`Deleted ${title}`);
    if (this.list.children.length <= 1 && this.exhausted) this.status.textContent = "No chats yet.";
    this.onDeleted(id);
  }
}
