// The sources panel of one answer: each citation with its file, page, quoted snippet and relevance.
// Clicking one opens the page viewer on that page, its quoted lines highlighted, its quote as the banner.
import { h } from "./dom.js";

/** "0.83" for a relevance score; "" when there is none. */
export function formatScore(score) {
  if (typeof score !== "number" || !Number.isFinite(score)) return "";
  return score >= 100 ? score.toFixed(0) : Number(score.toPrecision(2)).toString();
}

export class SourcesPanel {
  /** @param {{onCitation: (c, all) => void, all: () => object[]}} opts */
  constructor({ onCitation, all }) {
    this.onCitation = onCitation;
    this.all = all;
    this.count = h("span.sources-count");
    this.list = h("ol.sources-list");
    this.el = h("details.sources", { hidden: true },
      h("summary", {}, "Sources ", this.count), this.list);
  }

  /** Rebuild from the answer's citations (in ref order, S before P). */
  render(citations) {
    const items = [...citations].sort((a, b) => refOrder(a.ref) - refOrder(b.ref));
    const top = Math.max(0, ...items.map((c) => (typeof c.score === "number" ? c.score : 0)));
    this.list.replaceChildren(...items.map((c) => this.item(c, top)));
    this.count.textContent = `(${items.length})`;
    this.el.hidden = !items.length;
  }

  item(c, top) {
    const score = formatScore(c.score);
    const where = `${c.file_name || "document"} · page ${c.page}`;
    const meta = [h("span.source-ref", { text: c.ref || "" }), h("span.source-where", { text: where })];
    if (score) {
      const meter = h("meter.source-relevance", { min: "0", max: String(top || 1), value: String(c.score),
        "aria-label": `relevance ${score}` });
      meta.push(h("span.source-score", { title: "Relevance score from the search" }, meter, ` ${score}`));
    }
    const button = h("button.source-open", {
      type: "button", "aria-label": `Open ${c.ref || "source"}: ${where}`,
      onclick: () => this.onCitation(c, this.all()),
    }, h("span.source-meta", {}, ...meta), h("q.source-quote", { text: c.quote || "" }));
    return h("li.source", { dataset: { ref: c.ref || "" } }, button);
  }
}

function refOrder(ref) {
  const m = /^([SP])(\d+)$/.exec(String(ref || ""));
  return m ? (m[1] === "S" ? 0 : 100000) + Number(m[2]) : 1e9;
}
