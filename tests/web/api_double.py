"""A scripted double of the docchat HTTP API, answered inside the browser by Playwright routing.

The UI behaviours that a real server cannot be made to show on cue — a stream that drops half-way
and is resumed with ``Last-Event-ID``, a server that stops answering, a model answer full of HTML —
are tested against this double. The page and its modules are the real files from ``chat/web``.
The end-to-end test (``test_e2e.py``) runs the same UI against a real ``docchat up``.
"""

from __future__ import annotations

import hashlib
import io
import json
import mimetypes
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qs, urlsplit

from chat.app.web_routes import WEB_DIR

ORIGIN = "http://docchat.localhost"  # *.localhost is a secure context (crypto.subtle for PKCE)

Event = tuple[str, dict[str, Any]]  # (event name, data)


def sse(events: list[Event], *, generation: str = "g1", first: int = 1) -> str:
    out = []
    for i, (name, data) in enumerate(events):
        out.append(f"id: {generation}.{first + i}\nevent: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n")
    return "".join(out)


def _multipart_file(body: bytes) -> tuple[str, bytes]:
    """(file name, bytes) of the multipart field "file" of an upload."""
    m = re.search(rb'filename="([^"]*)"\r\n(?:[^\r\n]+\r\n)*\r\n(.*?)\r\n--', body or b"", re.S)
    return (m.group(1).decode(), m.group(2)) if m else ("", b"")


def page_png(width: int = 1275, height: int = 1650) -> bytes:
    """A blank 'page' (Letter at 150 DPI) with a few grey lines."""
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(img)
    for y in range(150, height - 150, 60):
        draw.rectangle((150, y, width - 150, y + 18), fill=(200, 200, 200))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


@dataclass
class ApiDouble:
    """In-memory sessions/projects/documents; ``answer`` scripts what POST …/messages streams."""

    sessions: list[dict[str, Any]] = field(default_factory=list)  # newest first
    messages: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    projects: list[dict[str, Any]] = field(default_factory=lambda: [{"project_id": "p1", "name": "Handbook"}])
    documents: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: {"p1": []})
    #: events of the answer: POST streams ``answer[:cut]``, GET …/stream the rest after Last-Event-ID
    answer: list[Event] = field(default_factory=list)
    cut: int | None = None
    workflow_events: dict[str, list[Event]] = field(default_factory=dict)
    down: bool = False
    token: str = "dev:alice"
    config: dict[str, Any] = field(default_factory=lambda: {
        "mode": "local", "cognito_domain": None, "client_id": None, "render_dpi": 150,
        "max_upload_bytes": 200 * 1024 * 1024})
    #: hold POST …/messages open until POST …/stop, then end it with ``done`` {stop_reason: interrupted}
    hold_answer: bool = False
    _held: Any = None
    _stop_early: bool = False  # a stop that reached the double before the held POST did
    log: list[dict[str, Any]] = field(default_factory=list)
    on_request: Callable[[str, str], None] | None = None
    #: workflows whose event stream never answers (a document that takes long to process)
    hang_workflows: set[str] = field(default_factory=set)
    #: uploads whose file name contains one of these keys are refused with this message (HTTP 415)
    reject_uploads: dict[str, str] = field(default_factory=dict)
    #: (project, sha-1 of the file bytes) -> document_id, for duplicate uploads
    _hashes: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (session, seq) -> feedback, merged into GET …/messages (issue 16)
    feedback: dict[tuple[str, int], dict[str, Any]] = field(default_factory=dict)
    posted: list[str] = field(default_factory=list)  # the JSON bodies of POST …/messages
    #: requests ("GET /v1/projects") that wait until ``release`` (a slow listing or upload, on cue)
    hold: set[str] = field(default_factory=set)
    _holding: list[tuple[Any, Any]] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _png: bytes | None = None

    def install(self, page: Any) -> None:
        page.route(f"{ORIGIN}/**", self.handle)

    def _release_held(self) -> bool:
        """End the held answer as a stop does (its first events, then ``done`` interrupted); False when none."""
        held, self._held = self._held, None
        if held is None:
            return False
        partial = [*self.answer[:2], ("done", {"seq": 3, "stop_reason": "interrupted"})]
        held.fulfill(status=200, body=sse(partial), headers={"Content-Type": "text/event-stream"})
        return True

    def release(self, key: str) -> int:
        """Answer the held requests of ``key`` ("GET /v1/projects") and stop holding it; returns how many."""
        self.hold.discard(key)
        held = [(r, q) for r, q in self._holding if f"{q.method} {urlsplit(q.url).path}" == key]
        self._holding = [(r, q) for r, q in self._holding if f"{q.method} {urlsplit(q.url).path}" != key]
        for route, request in held:
            self.handle(route, request)
        return len(held)

    # --- routing -------------------------------------------------------------------------

    def handle(self, route: Any, request: Any) -> None:
        url = urlsplit(request.url)
        path, query = url.path, parse_qs(url.query)
        method = request.method
        headers = request.headers
        with self._lock:
            self.log.append({"method": method, "path": path, "query": query, "headers": dict(headers)})
        if path == "/" or path.startswith("/static/"):
            self._static(route, path)
            return
        if f"{method} {path}" in self.hold:
            self._holding.append((route, request))
            return
        if self.down:
            route.abort("connectionrefused")
            return
        if path == "/v1/hang":  # never answers (a dead connection)
            return
        if path == "/healthz":
            route.fulfill(json={"status": "ok"})
            return
        if path == "/v1/config":
            route.fulfill(json=self.config)
            return
        if headers.get("authorization", "") != f"Bearer {self.token}":
            route.fulfill(status=401, json={"error": {"code": "unauthorized", "message": "bad token"}})
            return
        body = request.post_data
        data = json.loads(body) if body and headers.get("content-type", "").startswith("application/json") else None
        self._api(route, method, path, query, data, headers, request)

    def _static(self, route: Any, path: str) -> None:
        name = "index.html" if path == "/" else path[len("/static/"):]
        file = (WEB_DIR / name).resolve()
        if WEB_DIR not in file.parents or not file.is_file():
            route.fulfill(status=404, body="not found")
            return
        ctype = "text/javascript" if name.endswith(".js") else mimetypes.guess_type(name)[0] or "text/plain"
        route.fulfill(status=200, body=file.read_bytes(), headers={"Content-Type": ctype})

    def _api(self, route: Any, method: str, path: str, query: dict[str, list[str]], data: Any, headers: Any,
             request: Any = None) -> None:
        if self._extras(route, method, path, query, data):
            return
        m = re.fullmatch(r"/v1/sessions(?:/([^/]+))?(?:/(messages|stream|stop))?", path)
        if m:
            self._sessions(route, method, m.group(1), m.group(2), query, data, headers)
            return
        if path == "/v1/projects":
            if method == "POST":
                p = {"project_id": f"p{len(self.projects) + 1}", "name": data["name"]}
                self.projects.append(p)
                self.documents[p["project_id"]] = []
                route.fulfill(status=201, json=p)
            else:
                route.fulfill(json={"items": self.projects})
            return
        m = re.fullmatch(r"/v1/projects/([^/]+)/documents", path)
        if m:
            pid = m.group(1)
            if method == "POST":
                name, content = _multipart_file(request.post_data_buffer if request is not None else b"")
                for key, message in self.reject_uploads.items():
                    if key in name:
                        err = {"code": "unsupported_media_type", "message": message}
                        route.fulfill(status=415, json={"error": err})
                        return
                digest = hashlib.sha1(content).hexdigest()
                known = self._hashes.get((pid, digest))
                if known is not None:
                    old = next(d for d in self.documents[pid] if d["document_id"] == known)
                    route.fulfill(status=200, json={"document_id": known, "workflow_id": old["workflow_id"],
                                                    "status": old["status"], "duplicate": True})
                    return
                n = sum(len(v) for v in self.documents.values()) + 1
                doc = {"document_id": f"d{n}", "workflow_id": f"w{n}", "status": "pending"}
                self._hashes[(pid, digest)] = doc["document_id"]
                self.documents[pid].insert(0, {**doc, "file_name": name or f"upload-{n}.pdf", "page_count": None})
                route.fulfill(status=202, json={**doc, "duplicate": False})
            else:
                route.fulfill(json={"items": self.documents.get(pid, [])})
            return
        m = re.fullmatch(r"/v1/projects/([^/]+)", path)
        if m and method == "DELETE":
            before = len(self.projects)
            self.projects = [p for p in self.projects if p["project_id"] != m.group(1)]
            self.documents.pop(m.group(1), None)
            route.fulfill(status=204 if len(self.projects) < before else 404, body="")
            return
        m = re.fullmatch(r"/v1/projects/([^/]+)/documents/([^/]+)", path)
        if m and method == "DELETE":
            docs = self.documents.get(m.group(1), [])
            keep = [d for d in docs if d["document_id"] != m.group(2)]
            if len(keep) == len(docs):
                route.fulfill(status=404, json={"error": {"code": "not_found", "message": "no such document"}})
                return
            self.documents[m.group(1)] = keep
            route.fulfill(status=204, body="")
            return
        m = re.fullmatch(r"/v1/workflows/([^/]+)/events", path)
        if m and m.group(1) in self.hang_workflows:
            return  # never answers
        if m:
            events = self.workflow_events.get(m.group(1), [])
            route.fulfill(status=200, body=sse(events, generation=m.group(1)),
                          headers={"Content-Type": "text/event-stream"})
            return
        m = re.fullmatch(r"/v1/documents/([^/]+)/pages/(\d+)\.png", path)
        if m:
            if int(m.group(2)) > 3:
                route.fulfill(status=404, json={"error": {"code": "not_found", "message": "no such page"}})
                return
            if self._png is None:
                self._png = page_png()
            route.fulfill(status=200, body=self._png, headers={"Content-Type": "image/png"})
            return
        route.fulfill(status=404, json={"error": {"code": "not_found", "message": path}})

    def _sessions(self, route: Any, method: str, sid: str | None, sub: str | None, query: Any, data: Any,
                  headers: Any) -> None:
        if sid is None:
            if method == "POST":
                s = {"session_id": f"s{len(self.sessions) + 1}", "title": None,
                     "created_at": "2026-01-01T00:00:00Z", "updated_at": "2026-01-01T00:00:00Z"}
                self.sessions.insert(0, s)
                self.messages[s["session_id"]] = []
                route.fulfill(status=201, json=s)
                return
            limit = int(query.get("limit", ["20"])[0])
            start = int(query.get("cursor", ["0"])[0])
            if query.get("q"):
                route.fulfill(json={"items": self._search(query["q"][0]), "next_cursor": None})
                return
            ordered = [s for s in self.sessions if s.get("pinned")] + [s for s in self.sessions if not s.get("pinned")]
            items = ordered[start:start + limit]
            nxt = str(start + limit) if start + limit < len(self.sessions) else None
            route.fulfill(json={"items": items, "next_cursor": nxt})
            return
        session = next((s for s in self.sessions if s["session_id"] == sid), None)
        if session is None:
            route.fulfill(status=404, json={"error": {"code": "not_found", "message": "session not found"}})
            return
        if sub is None:
            if method == "PATCH":
                session["title"] = data["title"]
                route.fulfill(json={"session_id": sid, "title": data["title"]})
            elif method == "DELETE":
                self.sessions.remove(session)
                route.fulfill(status=204, body="")
            else:
                route.fulfill(json={"generating": False, **session})
            return
        if sub == "messages" and method == "GET":
            items = [{**m, "feedback": self.feedback.get((sid, m["seq"]))} if m["role"] == "assistant" else m
                     for m in self.messages.get(sid, [])]
            route.fulfill(json={"items": items})
            return
        if sub == "messages":
            self.posted.append(json.dumps(data))
            if data.get("replaces_seq"):  # regenerate / edit-and-resend: the last turn is set aside
                self.messages[sid] = [m for m in self.messages[sid] if m["seq"] < data["replaces_seq"]]
            self.messages[sid].append({"seq": len(self.messages[sid]) + 1, "role": "user", "text": data["text"],
                                       "citations": []})
            if self.hold_answer:
                self._held = route
                if self._stop_early:  # the stop came before this request reached the double (a loaded machine)
                    self._stop_early = False
                    self._release_held()
                return
            events = self.answer[: self.cut] if self.cut is not None else self.answer
            route.fulfill(status=200, body=sse(events), headers={"Content-Type": "text/event-stream"})
            return
        if sub == "stream":
            last = headers.get("last-event-id")
            after = int(last.rsplit(".", 1)[1]) if last else 0
            rest = self.answer[after:]
            if not rest:
                route.fulfill(status=204, body="")
                return
            route.fulfill(status=200, body=sse(rest, first=after + 1), headers={"Content-Type": "text/event-stream"})
            return
        if sub == "stop":
            held = self._release_held()
            if not held and self.hold_answer:
                self._stop_early = True
            route.fulfill(json={"stopped": held or self.hold_answer})
            return
        route.fulfill(status=405, body="")

    # --- issue 16: feedback, pin, search, export ---------------------------------------------

    def _extras(self, route: Any, method: str, path: str, query: dict[str, list[str]], data: Any) -> bool:
        m = re.fullmatch(r"/v1/sessions/([^/]+)/messages/(\d+)/feedback", path)
        if m and method == "PUT":
            key = (m.group(1), int(m.group(2)))
            fb = None if data.get("rating") is None else {
                "rating": data["rating"], **({"comment": data["comment"]} if data.get("comment") else {}),
                "at": "2026-01-01T00:00:00.000Z"}
            if fb is None:
                self.feedback.pop(key, None)
            else:
                self.feedback[key] = fb
            route.fulfill(json={"session_id": key[0], "seq": key[1], "feedback": fb})
            return True
        m = re.fullmatch(r"/v1/sessions/([^/]+)/pin", path)
        if m and method == "PUT":
            s = next(s for s in self.sessions if s["session_id"] == m.group(1))
            s["pinned"] = bool(data["pinned"])
            route.fulfill(json={"session_id": s["session_id"], "pinned": s["pinned"]})
            return True
        m = re.fullmatch(r"/v1/sessions/([^/]+)/export", path)
        if m:
            s = next(s for s in self.sessions if s["session_id"] == m.group(1))
            lines = [f"# {s.get('title') or 'Untitled chat'}", ""]
            for msg in self.messages.get(s["session_id"], []):
                lines += [f"## {'Question' if msg['role'] == 'user' else 'Answer'}", "", msg.get("text", ""), ""]
            route.fulfill(status=200, body="\n".join(lines), headers={
                "Content-Type": "text/markdown; charset=utf-8",
                "Content-Disposition": "attachment; filename=\"chat.md\"; filename*=UTF-8''Vacation%20days.md"})
            return True
        return False

    def _search(self, q: str) -> list[dict[str, Any]]:
        words = q.casefold().split()
        out = []
        for s in self.sessions:
            texts = [str(m.get("text", "")) for m in self.messages.get(s["session_id"], [])]
            whole = " ".join([s.get("title") or "", *texts]).casefold()
            if all(w in whole for w in words):
                hit = next((t for t in texts if words[0] in t.casefold()), None)
                out.append({**s, "in": "text" if hit else "title", "snippet": hit})
        return out
