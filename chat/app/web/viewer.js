// The page viewer: a cited page's rendered image (fetched with the Authorization header into a
// blob: URL), with the cited region(s) highlighted when the citation knows a bounding box.
import { ApiError } from "./api.js";
import { h } from "./dom.js";

/**
 * A citation bbox as {x0, y0, x1, y1} in PDF points from the top-left of the page.
 * Accepts {x0,y0,x1,y1}, [x0,y0,x1,y1] or {left,top,right,bottom}; anything else → null.
 */
export function normalizeBox(b) {
  if (!b) return null;
  let box = null;
  if (Array.isArray(b) && b.length === 4) box = { x0: b[0], y0: b[1], x1: b[2], y1: b[3] };
  else if (typeof b === "object" && "x0" in b) box = { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1, page: b.page };
  else if (typeof b === "object" && "left" in b) box = { x0: b.left, y0: b.top, x1: b.right, y1: b.bottom };
  if (!box || ![box.x0, box.y0, box.x1, box.y1].every(Number.isFinite)) return null;
  if (box.x1 <= box.x0 || box.y1 <= box.y0) return null;
  return box;
}

/**
 * Percent rectangle of a PDF-point box on the page image. `page` is the page size in points when
 * the server sent it (exact, whatever the render scale); otherwise the image is taken to be
 * rendered at `dpi`.
 */
export function boxToPercent(box, imageWidth, imageHeight, { dpi = 150, page = null } = {}) {
  const sx = page ? 1 / page.width : dpi / 72 / imageWidth;
  const sy = page ? 1 / page.height : dpi / 72 / imageHeight;
  const clamp = (v) => Math.max(0, Math.min(100, v));
  const left = clamp(box.x0 * sx * 100);
  const top = clamp(box.y0 * sy * 100);
  return {
    left, top,
    width: clamp(box.x1 * sx * 100) - left,
    height: clamp(box.y1 * sy * 100) - top,
  };
}

const ZOOM_STEP = 1.25;
const MIN_ZOOM = 0.25;
const MAX_ZOOM = 6;

export class PageViewer {
  constructor({ api, dpi }) {
    this.api = api;
    this.dpi = dpi || 150;
    this.dialog = document.getElementById("viewer");
    this.title = document.getElementById("viewer-title");
    this.quote = document.getElementById("viewer-quote");
    this.pageEl = document.getElementById("viewer-page");
    this.img = document.getElementById("viewer-img");
    this.status = document.getElementById("viewer-status");
    this.prev = document.getElementById("viewer-prev");
    this.next = document.getElementById("viewer-next");
    this.url = null;
    this.seq = 0;
    document.getElementById("viewer-close").addEventListener("click", () => this.dialog.close());
    this.dialog.addEventListener("close", () => this.release());
    this.dialog.addEventListener("click", (e) => { if (e.target === this.dialog) this.dialog.close(); });
    this.prev.addEventListener("click", () => this.show(this.page - 1));
    this.next.addEventListener("click", () => this.show(this.page + 1));
    this.body = document.getElementById("viewer-body");
    this.zoomLabel = document.getElementById("viewer-fit");
    this.zoom = 1; // 1 = the page fills the viewer's width ("fit width")
    this.wireZoom();
  }

  // ---- zoom and pan: wheel (Ctrl/⌘ or a trackpad pinch), two-finger pinch, +/−, fit width, drag ----

  wireZoom() {
    document.getElementById("viewer-zoom-in").addEventListener("click", () => this.setZoom(this.zoom * ZOOM_STEP));
    document.getElementById("viewer-zoom-out").addEventListener("click", () => this.setZoom(this.zoom / ZOOM_STEP));
    this.zoomLabel.addEventListener("click", () => this.setZoom(1));
    this.dialog.addEventListener("keydown", (e) => {
      if (e.target instanceof HTMLInputElement) return;
      if (e.key === "+" || e.key === "=") { e.preventDefault(); this.setZoom(this.zoom * ZOOM_STEP); }
      else if (e.key === "-" || e.key === "_") { e.preventDefault(); this.setZoom(this.zoom / ZOOM_STEP); }
      else if (e.key === "0") { e.preventDefault(); this.setZoom(1); }
    });
    // a plain wheel scrolls (pans); Ctrl/⌘ + wheel, and a trackpad pinch (which arrives as ctrlKey wheel), zoom
    this.body.addEventListener("wheel", (e) => {
      if (!e.ctrlKey && !e.metaKey) return;
      e.preventDefault();
      this.setZoom(this.zoom * Math.exp(-e.deltaY / 300), { x: e.clientX, y: e.clientY });
    }, { passive: false });
    const pointers = new Map();
    let pinch = null;
    let drag = null;
    this.body.addEventListener("pointerdown", (e) => {
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        pinch = { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, zoom: this.zoom };
        drag = null;
      } else if (pointers.size === 1 && e.pointerType === "mouse" && e.button === 0) {
        drag = { x: e.clientX, y: e.clientY, left: this.body.scrollLeft, top: this.body.scrollTop };
      }
    });
    this.body.addEventListener("pointermove", (e) => {
      if (!pointers.has(e.pointerId)) return;
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (pinch && pointers.size === 2) {
        const [a, b] = [...pointers.values()];
        const dist = Math.hypot(a.x - b.x, a.y - b.y);
        this.setZoom(pinch.zoom * dist / pinch.dist, { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
      } else if (drag) {
        this.body.scrollLeft = drag.left - (e.clientX - drag.x);
        this.body.scrollTop = drag.top - (e.clientY - drag.y);
      }
    });
    const up = (e) => {
      pointers.delete(e.pointerId);
      if (pointers.size < 2) pinch = null;
      if (!pointers.size) drag = null;
    };
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) this.body.addEventListener(type, up);
    new ResizeObserver(() => this.applyZoom()).observe(this.body);
  }

  /** The width the page has at zoom 1: the viewer body's inner width. */
  fitWidth() {
    const style = getComputedStyle(this.body);
    return Math.max(100, this.body.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
  }

  /** Zoom to `zoom` (× fit width), keeping the point under `at` (client coordinates) in place. */
  setZoom(zoom, at = null) {
    const z = Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, zoom));
    const rect = this.body.getBoundingClientRect();
    const ax = at ? at.x - rect.left : this.body.clientWidth / 2;
    const ay = at ? at.y - rect.top : this.body.clientHeight / 2;
    const ratio = z / this.zoom;
    const left = (this.body.scrollLeft + ax) * ratio - ax;
    const top = (this.body.scrollTop + ay) * ratio - ay;
    this.zoom = z;
    this.applyZoom();
    this.body.scrollLeft = left;
    this.body.scrollTop = top;
  }

  applyZoom() {
    this.pageEl.style.width = `${Math.round(this.fitWidth() * this.zoom)}px`;
    this.zoomLabel.textContent = `${Math.round(this.zoom * 100)}%`;
    this.zoomLabel.setAttribute("aria-label", `${this.zoomLabel.textContent}, fit width`);  // the name holds the text
    this.pageEl.classList.toggle("zoomed", this.zoom > 1.001);
  }

  /** Open the page of a citation. Its own quoted lines are highlighted and its own quote is shown; the other
   * citations of the answer on the same page (`all`) are marked more faintly. */
  open(citation, all = [citation]) {
    this.doc = { id: citation.document_id, name: citation.file_name || "document", pageCount: citation.page_count };
    this.citedPage = Number(citation.page);
    const boxesOf = (c) => (Array.isArray(c.bboxes) && c.bboxes.length ? c.bboxes : c.bbox ? [c.bbox] : [])
      .map(normalizeBox).filter(Boolean)
      .filter((b) => !b.page || Number(b.page) === Number(c.page));
    this.boxes = boxesOf(citation).map((b) => ({ ...b, current: true }));
    for (const other of all) {
      if (other === citation || other.ref === citation.ref) continue;
      if (Number(other.page) !== this.citedPage || other.document_id !== citation.document_id) continue;
      this.boxes.push(...boxesOf(other).map((b) => ({ ...b, current: false })));
    }
    this.quoteText = citation.quote || "";
    if (!this.dialog.open) { this.dialog.showModal(); this.zoom = 1; }
    this.applyZoom();
    this.show(this.citedPage);
  }

  async show(page) {
    if (!Number.isInteger(page) || page < 1) return;
    const seq = ++this.seq;
    this.page = page;
    this.title.textContent = `${this.doc.name} — page ${page}`;
    // the quote banner belongs to the cited page only
    const showQuote = Boolean(this.quoteText) && page === this.citedPage;
    this.quote.hidden = !showQuote;
    this.quote.textContent = showQuote ? `“${this.quoteText}”` : "";
    this.prev.disabled = page <= 1;
    this.next.disabled = Boolean(this.doc.pageCount) && page >= this.doc.pageCount;
    this.status.textContent = "Loading page…";
    this.pageEl.classList.add("loading");
    for (const m of this.pageEl.querySelectorAll(".highlight")) m.remove();
    let blob;
    try {
      // a chat shared with you: its cited pages come through the chat (the document is its owner's)
      const base = this.sharedSession
        ? `/v1/shared/${encodeURIComponent(this.sharedSession)}/documents/${encodeURIComponent(this.doc.id)}`
        : `/v1/documents/${encodeURIComponent(this.doc.id)}`;
      const r = await this.api.fetch("GET", `${base}/pages/${page}.png`);
      const w = Number(r.headers.get("X-Page-Width-Pt"));
      const ht = Number(r.headers.get("X-Page-Height-Pt"));
      this.pageSize = w > 0 && ht > 0 ? { width: w, height: ht } : null;
      const dpi = Number(r.headers.get("X-Render-DPI"));
      this.pageDpi = dpi > 0 ? dpi : this.dpi;
      blob = await r.blob();
    } catch (err) {
      if (seq !== this.seq) return;
      this.pageEl.classList.remove("loading");
      this.img.removeAttribute("src");
      if (err instanceof ApiError && err.status === 404) {
        this.status.textContent = page > this.citedPage ? "This is the last page." : "This page is not available.";
        if (page > this.citedPage) { this.doc.pageCount = page - 1; this.next.disabled = true; }
      } else {
        this.status.textContent = `Could not load the page: ${err.message}`;
      }
      return;
    }
    if (seq !== this.seq) return;
    this.release();
    this.url = URL.createObjectURL(blob);
    this.img.alt = `${this.doc.name}, page ${page}`;
    await new Promise((resolve) => {
      this.img.onload = resolve;
      this.img.onerror = resolve;
      this.img.src = this.url;
    });
    if (seq !== this.seq) return;
    this.pageEl.classList.remove("loading");
    this.status.textContent = "";
    this.highlight();
  }

  highlight() {
    const { naturalWidth: w, naturalHeight: ht } = this.img;
    if (!w || !ht) return;
    let first = null;
    for (const box of this.boxes) {
      const onPage = box.page ? Number(box.page) === this.page : this.page === this.citedPage;
      if (!onPage) continue;
      const p = boxToPercent(box, w, ht, { dpi: this.pageDpi, page: this.pageSize });
      const mark = h(box.current === false ? "div.highlight.other" : "div.highlight.current", { "aria-hidden": "true" });
      mark.style.left = `${p.left}%`;
      mark.style.top = `${p.top}%`;
      mark.style.width = `${p.width}%`;
      mark.style.height = `${p.height}%`;
      this.pageEl.append(mark);
      if (box.current !== false) first = first || mark;
    }
    if (first) first.scrollIntoView({ block: "center", behavior: "instant" });
  }

  release() {
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = null;
  }
}
