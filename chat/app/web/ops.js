// The Operations page (/ops) and the Usage page (/usage): read models only (issue 17, seed 003).
//
// Operations: current-state cards from LATEST, charts for the chosen window (uPlot, vendored under
// /static/vendor/uplot), errors by code and the dead-lettered documents with a redrive button.
// Usage: the signed-in user's own totals by day. Every number comes from a few precomputed items;
// each answer says how many it read.
import { ApiError, Api } from "./api.js";
import { CognitoAuth, LocalAuth, OidcAuth } from "./auth.js";

const $ = (sel) => document.querySelector(sel);
const CHARTS = [
  ["questions", "Questions", "count"],
  ["ttft_seconds", "Time to first token (s)", "timing"],
  ["answer_seconds", "Answer latency (s)", "timing"],
  ["tokens_out", "Tokens out", "count"],
  ["pages_processed", "Pages processed", "count"],
  ["docs_failed", "Documents failed", "count"],
];

function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("data-")) node.setAttribute(k, v);
    else node[k] = v;
  }
  for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}

function fmt(v, digits = 0) {
  if (v === null || v === undefined) return "–";
  if (typeof v !== "number") return String(v);
  return v.toLocaleString("en-US", { maximumFractionDigits: digits });
}

function secs(v) { return v === null || v === undefined ? "–" : `${fmt(v, 2)} s`; }

function card(label, value, { warn = false, name = "" } = {}) {
  return el("div", { class: warn ? "card warn" : "card", "data-card": name || label },
    el("div", { class: "label" }, label), el("div", { class: "value" }, value));
}

function banner(text) {
  const b = $("#banner");
  b.textContent = text;
  b.hidden = !text;
}

async function boot() {
  const config = await (await fetch("/v1/config", { cache: "no-store" })).json();
  const Aws = config.oidc_issuer ? OidcAuth : CognitoAuth;
  const auth = config.mode === "aws" ? new Aws(config) : new LocalAuth();
  if (!(await auth.restore())) { $("#signed-out").hidden = false; return; }
  $("#user-name").textContent = auth.user || "";
  const api = new Api(() => auth.fresh(), { onUnauthorized: () => { $("#signed-out").hidden = false; } });
  const usagePage = location.pathname.startsWith("/usage");
  $(usagePage ? "#nav-usage" : "#nav-ops").setAttribute("aria-current", "page");
  if (usagePage) await showUsage(api); else await showOps(api);
}

// ---- operations ------------------------------------------------------------------------------

async function showOps(api) {
  $("#ops").hidden = false;
  const select = $("#window");
  const load = async () => {
    try {
      await renderOps(api, select.value);
      banner("");
    } catch (err) {
      if (err instanceof ApiError && err.status === 403) { $("#ops-denied").hidden = false; return; }
      banner(err.message);
    }
  };
  select.addEventListener("change", load);
  await load();
  setInterval(load, 30000);
}

async function renderOps(api, windowName) {
  const s = await api.get(`/v1/ops/summary?window=${encodeURIComponent(windowName)}`);
  const latest = s.latest || {};
  const t = s.totals, tm = s.timings;
  const cards = [
    card("Queue (high)", fmt(latest["queue_depth.high"]), { name: "queue_high" }),
    card("Queue (low)", fmt(latest["queue_depth.low"]), { name: "queue_low" }),
    card("Workers busy", fmt(latest.workers_busy), { name: "workers_busy" }),
    card("Documents pending / running", `${fmt(latest["docs.pending"])} / ${fmt(latest["docs.in_progress"])}`, { name: "docs_open" }),
    card("Documents completed / failed", `${fmt(latest["docs.completed"])} / ${fmt(latest["docs.failed"])}`, { name: "docs_done" }),
    card("Dead-lettered", fmt(latest.dlq), { warn: (latest.dlq || 0) > 0, name: "dlq" }),
    card(`Questions (${s.window})`, fmt(t.questions), { name: "questions" }),
    card("Declined answers", fmt(t.declined), { name: "declined" }),
    card("p95 time to first token", secs(tm.ttft_seconds.p95), { name: "ttft_p95" }),
    card("Answer latency (avg)", secs(tm.answer_seconds.avg), { name: "answer_avg" }),
    card("Tokens in / out", `${fmt(t.tokens_in)} / ${fmt(t.tokens_out)}`, { name: "tokens" }),
    card("Pages processed", fmt(t.pages_processed), { name: "pages" }),
    card("Failure rate", `${fmt(100 * s.failure_rate, 1)} %`, { warn: s.failure_rate > 0.05, name: "failure_rate" }),
  ];
  if (latest.last_error) {
    cards.push(card("Last error", `${latest.last_error.code}: ${latest.last_error.reason}`, { warn: true, name: "last_error" }));
  }
  $("#cards").replaceChildren(...cards);
  let read = s.items_read;
  const charts = [];
  for (const [metric, title, kind] of CHARTS) {
    const series = await api.get(`/v1/ops/series?metric=${metric}&window=${encodeURIComponent(windowName)}`);
    read += series.items_read;
    charts.push(chart(title, kind, series));
  }
  $("#charts").replaceChildren(...charts.map((c) => c.box));
  for (const c of charts) c.draw();
  $("#items-read").textContent = `${read} items read`;
  const errors = Object.entries(s.errors || {});
  $("#errors").textContent = errors.length ? "Errors by code: " + errors.map(([k, v]) => `${k} ${fmt(v)}`).join(", ") : "No errors in this window.";
  await renderDlq(api);
}

function chart(title, kind, series) {
  const box = el("div", { class: "chart", "data-chart": series.metric }, el("h3", {}, title));
  const target = el("div");
  box.append(target);
  const xs = series.points.map((p) => p.t);
  const data = kind === "timing"
    ? [xs, series.points.map((p) => p.avg), series.points.map((p) => p.p95), series.points.map((p) => p.max)]
    : [xs, series.points.map((p) => p.count)];
  const lines = kind === "timing"
    ? [{ label: "avg", stroke: "#2f5bd3" }, { label: "p95", stroke: "#c4320a" }, { label: "max", stroke: "#98a2b3" }]
    : [{ label: title, stroke: "#2f5bd3", fill: "rgba(47,91,211,0.12)" }];
  const draw = () => {
    const width = Math.max(280, box.clientWidth - 16);
    // eslint-disable-next-line no-undef
    new uPlot({ width, height: 180, series: [{}, ...lines], scales: { x: { time: true } } }, data, target);
  };
  return { box, draw };
}

async function renderDlq(api) {
  let items = [];
  try {
    items = (await api.get("/v1/ops/dlq")).items || [];
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
  }
  $("#dlq-empty").hidden = items.length > 0;
  $("#dlq").replaceChildren(...items.map((row) => {
    const button = el("button", { type: "button", class: "ghost" }, "Redrive");
    button.addEventListener("click", async () => {
      button.disabled = true;
      try {
        await api.post("/v1/ops/dlq/redrive", { document_ids: [row.document_id] });
        button.textContent = "Sent again";
      } catch (err) {
        button.disabled = false;
        banner(err.message);
      }
    });
    return el("tr", { "data-document": row.document_id },
      el("td", {}, row.document_id), el("td", {}, row.file_name || ""), el("td", {}, row.lane || ""),
      el("td", {}, row.reason || ""), el("td", {}, fmt(row.attempts)), el("td", {}, row.failed_at || ""),
      el("td", {}, button));
  }));
}

// ---- usage -------------------------------------------------------------------------------------

async function showUsage(api) {
  $("#usage").hidden = false;
  const select = $("#days");
  const load = async () => {
    try {
      const u = await api.get(`/v1/usage?days=${select.value}`);
      const t = u.totals;
      const ratio = t.cache_hit_ratio === null || t.cache_hit_ratio === undefined ? "–" : `${fmt(100 * t.cache_hit_ratio, 1)} %`;
      $("#usage-cards").replaceChildren(
        card("Uploads", fmt(t.uploads || 0), { name: "uploads" }),
        card("Pages", fmt(t.pages || 0), { name: "pages" }),
        card("Questions", fmt(t.questions || 0), { name: "questions" }),
        card("Tokens in / out", `${fmt(t.tokens_in || 0)} / ${fmt(t.tokens_out || 0)}`, { name: "tokens" }),
        card("Cache-hit ratio", ratio, { name: "cache_hit" }),
      );
      $("#usage-rows").replaceChildren(...u.days.map((d) => el("tr", { "data-day": d.day },
        el("td", {}, `${d.day.slice(0, 4)}-${d.day.slice(4, 6)}-${d.day.slice(6)}`), el("td", {}, fmt(d.uploads || 0)),
        el("td", {}, fmt(d.pages || 0)), el("td", {}, fmt(d.questions || 0)), el("td", {}, fmt(d.tokens_in || 0)),
        el("td", {}, fmt(d.tokens_out || 0)),
        el("td", {}, d.cache_hit_ratio === null ? "–" : `${fmt(100 * d.cache_hit_ratio, 1)} %`))));
      $("#usage-read").textContent = `${u.items_read} items read`;
      banner("");
    } catch (err) {
      banner(err.message);
    }
  };
  select.addEventListener("change", load);
  await load();
}

boot().catch((err) => banner(err.message));
