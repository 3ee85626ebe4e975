// Server-sent events over fetch(): unlike EventSource this sends the Authorization header, can
// POST a body and lets us choose how to reconnect (with Last-Event-ID).
//
// SseParser follows the WHATWG event-stream rules: lines end in \n, \r\n or \r (a \r at the end of
// a chunk waits for the next chunk), ":" lines are comments (keep-alives), one leading space after
// the colon is dropped, "id" sticks until changed, a blank line dispatches the event.

export class SseParser {
  constructor() {
    this.buffer = "";
    this.lastEventId = "";
    this.retry = null;
    this._reset();
  }

  _reset() {
    this.data = [];
    this.event = "";
  }

  /** Feed decoded text; returns the events completed by it: [{event, data, id}]. */
  push(text) {
    this.buffer += text;
    const events = [];
    for (;;) {
      const m = this.buffer.match(/\r\n|\r|\n/);
      if (!m) break;
      // a lone \r at the very end may be the first half of \r\n: wait for more input
      if (m[0] === "\r" && m.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      const ev = this._line(line);
      if (ev) events.push(ev);
    }
    return events;
  }

  /** End of stream: a trailing event without its blank line is discarded (per the spec). */
  end() {
    this.buffer = "";
    this._reset();
    return [];
  }

  _line(line) {
    if (line === "") {
      if (this.data.length === 0) { this._reset(); return null; }
      const ev = { event: this.event || "message", data: this.data.join("\n"), id: this.lastEventId };
      this._reset();
      return ev;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id") { if (!value.includes("\u0000")) this.lastEventId = value; }
    else if (field === "retry") { if (/^\d+$/.test(value)) this.retry = parseInt(value, 10); }
    return null;
  }
}

/** Parse a JSON payload, falling back to the raw string. */
export function parseData(data) {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * Read an event-stream Response body, yielding {event, data (parsed JSON), id}.
 * The UTF-8 decoder runs in streaming mode, so a Korean or Japanese character split across
 * network chunks is decoded correctly.
 */
export async function* readEvents(response, { onChunk } = {}) {
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parser = new SseParser();
  let finished = false;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) { finished = true; break; }
      onChunk?.();
      for (const ev of parser.push(decoder.decode(value, { stream: true }))) {
        yield { event: ev.event, data: parseData(ev.data), id: ev.id };
      }
    }
    for (const ev of parser.push(decoder.decode())) {
      yield { event: ev.event, data: parseData(ev.data), id: ev.id };
    }
  } finally {
    // the consumer stopped early (or an error): close the connection instead of leaking it
    if (!finished) reader.cancel().catch(() => {});
  }
}
