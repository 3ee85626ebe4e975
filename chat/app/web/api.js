// The HTTP client of the page: every call carries "Authorization: Bearer <token>".
//
// Errors come in two kinds the UI treats differently:
//   ApiError     the server answered with an error status ({"error": {code, message}})
//   Unreachable  no answer at all (server down, network gone) -> the "cannot reach" banner
import { readEvents } from "./sse.js";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || `HTTP ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = code || "http_error";
  }
}

export class Unreachable extends Error {
  constructor(cause) {
    super("The docchat server cannot be reached.");
    this.name = "Unreachable";
    this.cause = cause;
  }
}

export function isAbort(err) {
  return err && (err.name === "AbortError" || err.name === "TimeoutError");
}

async function errorFrom(response) {
  let code = "http_error";
  let message = `${response.status} ${response.statusText}`.trim();
  try {
    const body = await response.json();
    if (body && body.error) {
      code = body.error.code || code;
      message = body.error.message || message;
    } else if (body && body.detail) {
      message = typeof body.detail === "string" ? body.detail : JSON.stringify(body.detail);
    }
  } catch {
    // not JSON: keep the status line
  }
  return new ApiError(response.status, code, message);
}

export class Api {
  /**
   * @param {() => Promise<string|null>} getToken  the bearer token (null when signed out)
   * @param {{onUnauthorized?: Function, onReachable?: (ok: boolean) => void}} hooks
   */
  constructor(getToken, hooks = {}) {
    this.getToken = getToken;
    this.hooks = hooks;
  }

  async headers(extra = {}) {
    const h = { ...extra };
    const token = await this.getToken();
    if (token) h.Authorization = `Bearer ${token}`;
    return h;
  }

  /** fetch() with auth; resolves to an ok Response or throws ApiError / Unreachable / AbortError. */
  async fetch(method, path, { json, body, headers = {}, signal } = {}) {
    const init = { method, headers: await this.headers(headers), signal, cache: "no-store" };
    if (json !== undefined) {
      init.body = JSON.stringify(json);
      init.headers["Content-Type"] = "application/json";
    } else if (body !== undefined) {
      init.body = body;
    }
    let response;
    try {
      response = await fetch(path, init);
    } catch (err) {
      if (isAbort(err)) throw err;
      this.hooks.onReachable?.(false);
      throw new Unreachable(err);
    }
    this.hooks.onReachable?.(true);
    if (response.status === 401) this.hooks.onUnauthorized?.();
    if (!response.ok) throw await errorFrom(response);
    return response;
  }

  /** JSON call; 204 -> null. */
  async json(method, path, opts = {}) {
    const response = await this.fetch(method, path, opts);
    if (response.status === 204) return null;
    const text = await response.text();
    return text ? JSON.parse(text) : null;
  }

  get(path, opts) { return this.json("GET", path, opts); }
  post(path, json, opts = {}) { return this.json("POST", path, { ...opts, json }); }
  patch(path, json, opts = {}) { return this.json("PATCH", path, { ...opts, json }); }
  del(path, opts) { return this.json("DELETE", path, opts); }

  /**
   * Open an event stream and yield {event, data, id}. A reply that is not an event stream (e.g. 204
   * "nothing to replay") yields nothing. The server sends a keep-alive every 15 s, so a stream
   * silent for `idleMs` is dead (a sleeping laptop, a dropped proxy): it ends with Unreachable and
   * the caller resumes it.
   */
  async *events(method, path, { json, lastEventId, signal, idleMs = 45_000 } = {}) {
    const headers = { Accept: "text/event-stream" };
    if (lastEventId) headers["Last-Event-ID"] = lastEventId;
    const stall = new AbortController();
    const onAbort = () => stall.abort(signal.reason);
    signal?.addEventListener("abort", onAbort);
    let timer = 0;
    let stalled = false;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => { stalled = true; stall.abort(); }, idleMs);
    };
    try {
      arm();
      const response = await this.fetch(method, path, { json, headers, signal: stall.signal });
      const type = response.headers.get("content-type") || "";
      if (response.status === 204 || !type.includes("text/event-stream") || !response.body) return;
      yield* readEvents(response, { onChunk: arm });
    } catch (err) {
      if (stalled) throw new Unreachable(err);
      if (isAbort(err) || err instanceof ApiError || err instanceof Unreachable) throw err;
      // the connection broke mid-stream: the caller reconnects with Last-Event-ID
      this.hooks.onReachable?.(false);
      throw new Unreachable(err);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  }

  /**
   * Upload one file (multipart field "file") with upload progress, which fetch() cannot report.
   * @returns {Promise<object>} the JSON reply
   */
  async upload(path, file, onProgress, signal) {
    const token = await this.getToken();
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", path);
      if (token) xhr.setRequestHeader("Authorization", `Bearer ${token}`);
      xhr.upload.onprogress = (e) => { if (e.lengthComputable) onProgress?.(e.loaded / e.total); };
      xhr.onload = () => {
        this.hooks.onReachable?.(true);
        let body = null;
        try { body = JSON.parse(xhr.responseText); } catch { /* not JSON */ }
        if (xhr.status >= 200 && xhr.status < 300) { resolve(body); return; }
        if (xhr.status === 401) this.hooks.onUnauthorized?.();
        const err = body && body.error ? body.error : {};
        reject(new ApiError(xhr.status, err.code, err.message || `upload failed (HTTP ${xhr.status})`));
      };
      xhr.onerror = () => { this.hooks.onReachable?.(false); reject(new Unreachable(null)); };
      xhr.onabort = () => reject(new DOMException("upload cancelled", "AbortError"));
      signal?.addEventListener("abort", () => xhr.abort());
      const form = new FormData();
      form.append("file", file, file.name);
      xhr.send(form);
    });
  }
}

/** Wait ms milliseconds (rejects with AbortError when the signal fires). */
export function sleep(ms, signal) {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => { clearTimeout(t); reject(new DOMException("aborted", "AbortError")); });
  });
}

/** A random id for turn_id (crypto.randomUUID needs a secure context; loopback is one). */
export function newId() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
