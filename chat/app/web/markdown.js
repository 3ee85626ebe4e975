// A small, safe markdown renderer for model answers.
//
// Safety rule: every character of the source is HTML-escaped BEFORE any markup is added, and the
// only tags in the output are the fixed ones produced below. Link targets are accepted only when
// they start with http:// or https:// (so no javascript:, data:, vbscript: …); attribute values are
// built from already-escaped text, so a quote cannot end an attribute. The output is therefore a
// string that is safe to assign to innerHTML whatever the model or a document said.

const ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for use in HTML element content and in double-quoted attribute values. */
export function escapeHtml(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)\s*$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const QUOTE = /^\s{0,3}>\s?(.*)$/;
const BULLET = /^(\s*)[-*+]\s+(.*)$/;
const ORDERED = /^(\s*)(\d{1,9})[.)]\s+(.*)$/;
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/;
const TABLE_SEP = /^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$/;

function isBlockStart(line) {
  return FENCE.test(line) || HEADING.test(line) || QUOTE.test(line) || BULLET.test(line) ||
    ORDERED.test(line) || RULE.test(line);
}

/** Render markdown source to a safe HTML string. */
export function renderMarkdown(source) {
  const text = String(source ?? "").replace(/\u0000/g, "").replace(/\r\n?/g, "\n");
  return renderBlocks(text.split("\n"), 0);
}

function renderBlocks(lines, depth) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (/^\s*$/.test(line)) { i++; continue; }

    const fence = line.match(FENCE);
    if (fence) {
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trim().startsWith(fence[1])) body.push(lines[i++]);
      i++; // closing fence (or end of input while the answer is still streaming)
      const lang = fence[2] ? ` class="lang-${escapeHtml(fence[2])}"` : "";
      out.push(`<pre><code${lang}>${escapeHtml(body.join("\n"))}</code></pre>`);
      continue;
    }
    if (RULE.test(line)) { out.push("<hr>"); i++; continue; }
    const heading = line.match(HEADING);
    if (heading) {
      // model headings are section titles inside a chat bubble: keep them small (h3..h6)
      const level = Math.min(6, heading[1].length + 2);
      out.push(`<h${level}>${renderInline(heading[2])}</h${level}>`);
      i++;
      continue;
    }
    if (QUOTE.test(line)) {
      const inner = [];
      while (i < lines.length && QUOTE.test(lines[i])) inner.push(lines[i++].match(QUOTE)[1]);
      out.push(depth < 4 ? `<blockquote>${renderBlocks(inner, depth + 1)}</blockquote>`
        : `<blockquote><p>${renderInline(inner.join(" "))}</p></blockquote>`);
      continue;
    }
    if (BULLET.test(line) || ORDERED.test(line)) {
      const [html, next] = renderList(lines, i);
      out.push(html);
      i = next;
      continue;
    }
    if (line.includes("|") && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1])) {
      const rows = [line];
      i += 2;
      while (i < lines.length && lines[i].includes("|") && !/^\s*$/.test(lines[i])) rows.push(lines[i++]);
      out.push(renderTable(rows));
      continue;
    }
    const para = [];
    while (i < lines.length && !/^\s*$/.test(lines[i]) && (para.length === 0 || !isBlockStart(lines[i]))) {
      para.push(lines[i++].trim());
    }
    out.push(`<p>${para.map(renderInline).join("<br>")}</p>`);
  }
  return out.join("");
}

function renderList(lines, start) {
  const ordered = ORDERED.test(lines[start]);
  const re = ordered ? ORDERED : BULLET;
  const first = lines[start].match(re);
  const indent = first[1].length;
  const items = [];
  let i = start;
  while (i < lines.length) {
    const m = lines[i].match(re);
    if (m && m[1].length === indent) {
      items.push([ordered ? m[3] : m[2]]);
      i++;
      continue;
    }
    // a nested list or a continuation line belongs to the current item
    if (items.length && /^\s+\S/.test(lines[i]) && leadingSpaces(lines[i]) > indent) {
      items[items.length - 1].push(lines[i].slice(Math.min(leadingSpaces(lines[i]), indent + 2)));
      i++;
      continue;
    }
    break;
  }
  const body = items.map((parts) => {
    const [head, ...rest] = parts;
    const nested = rest.length ? renderBlocks(rest, 1) : "";
    return `<li>${renderInline(head)}${nested}</li>`;
  }).join("");
  if (!ordered) return [`<ul>${body}</ul>`, i];
  const n = parseInt(first[2], 10);
  return [n === 1 ? `<ol>${body}</ol>` : `<ol start="${n}">${body}</ol>`, i];
}

function leadingSpaces(line) {
  return line.match(/^\s*/)[0].length;
}

function splitRow(row) {
  let r = row.trim();
  if (r.startsWith("|")) r = r.slice(1);
  if (r.endsWith("|")) r = r.slice(0, -1);
  return r.split("|").map((c) => c.trim());
}

function renderTable(rows) {
  const [head, ...body] = rows.map(splitRow);
  const th = head.map((c) => `<th>${renderInline(c)}</th>`).join("");
  const tb = body.map((r) => `<tr>${r.map((c) => `<td>${renderInline(c)}</td>`).join("")}</tr>`).join("");
  return `<div class="table-wrap"><table><thead><tr>${th}</tr></thead><tbody>${tb}</tbody></table></div>`;
}

// ---- inline ---------------------------------------------------------------------------------

const CODE_SPAN = /(`+)([\s\S]*?[^`])\1(?!`)/g;
// URLs are matched in escaped text: "&" may only appear as "&amp;", so an escaped quote (&quot;)
// or bracket (&lt;) always ends the URL
const URL_CHARS = "(?:[^\\s<>()&]|&amp;)";
const LINK = new RegExp(`\\[([^\\]\\n]{1,500})\\]\\((https?:\\/\\/${URL_CHARS}+)\\)`, "g");
const BARE_URL = new RegExp(`(^|[\\s(])(https?:\\/\\/${URL_CHARS}*(?:[^\\s<>().,;:!?&]|&amp;))`, "g");
const REF = /\[((?:[SP]\d{1,4})(?:\s*,\s*[SP]\d{1,4})*)\]/g;

/** Inline markdown (code, links, bold, italic, strike, [S3] refs) to safe HTML. */
export function renderInline(source) {
  const slots = [];
  const stash = (html) => `\u0000${slots.push(html) - 1}\u0000`;
  let s = String(source ?? "").replace(/\u0000/g, "");

  // 1. code spans are literal: take them out before anything else looks at the text
  s = s.replace(CODE_SPAN, (_, __, code) => stash(`<code>${escapeHtml(code.trim() || code)}</code>`));
  // 2. escape everything that is left; from here on the text holds no markup of its own
  s = escapeHtml(s);
  // 3. links: http(s) only; the URL and the label are escaped text already
  s = s.replace(LINK, (_, label, url) => stash(
    `<a href="${url}" target="_blank" rel="noopener noreferrer nofollow">${label}</a>`));
  s = s.replace(BARE_URL, (_, pre, url) => pre + stash(
    `<a href="${url}" target="_blank" rel="noopener noreferrer nofollow">${url}</a>`));
  // 4. citation markers like [S3] or [P1, S2]
  s = s.replace(REF, (_, refs) => refs.split(/\s*,\s*/).map(
    (r) => stash(`<sup class="ref" data-ref="${r}">${r}</sup>`)).join(""));
  // 5. emphasis
  s = s.replace(/\*\*(?=\S)([\s\S]*?\S)\*\*/g, "<strong>$1</strong>");
  s = s.replace(/(^|[^\w])__(?=\S)([\s\S]*?\S)__(?!\w)/g, "$1<strong>$2</strong>");
  s = s.replace(/(^|[^*\w])\*(?=[^\s*])([^*]*?[^\s*])\*(?!\*)/g, "$1<em>$2</em>");
  s = s.replace(/(^|[^\w])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)/g, "$1<em>$2</em>");
  s = s.replace(/~~(?=\S)([\s\S]*?\S)~~/g, "<del>$1</del>");
  // 6. put the stashed pieces back (they may nest: a link label inside a slot has none)
  return s.replace(/\u0000(\d+)\u0000/g, (_, n) => slots[Number(n)]);
}
