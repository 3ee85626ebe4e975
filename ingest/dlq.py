"""Dead-lettered documents (issue 13 item 5): list them, redrive them — one service for ``docchat dlq`` and the
``/v1/ops/dlq`` API, over either queue backend (``JobQueue.list_dead`` / ``drop_dead`` / ``release_dead``).

A job reaches a dead-letter queue after ``queue_max_receives`` deliveries that each failed with a retryable
error (or killed their worker). Its workflow is ``failed`` and says why. A listing joins each message with its
workflow: document, project, owner, file, lane, reason, attempts and when it failed. A redrive of a document
resets its workflow (``failed`` → ``pending``, fresh steps and attempts, back in the outbox), sends its job
again, and only then deletes the dead message — so a crash half-way leaves either the message (redrive
again) or a sent job (the next redrive drops the stale message, at most sending a harmless duplicate). A
message whose workflow is still ``pending`` (its job died before any claim) is sent again; one whose
workflow is gone, completed or running again is dropped. Only admins may do any of it (``Admins``).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ingest.jobs import enqueue
from ingest.queue import PRIORITIES, DeadLetter, JobQueue
from store.config import Settings
from store.errors import Conflict, Forbidden, NotFound, RetryableError
from store.logging import get_logger
from store.metrics import MetricsRecorder, record_safely
from store.workflows import WorkflowRecord, WorkflowStore

log = get_logger(__name__)

#: how long a redrive keeps the dead messages it is working on from other readers
REDRIVE_HOLD_SECONDS = 120
ADMIN_GROUP = "admin"


class Admins:
    """Who is an operator. ``DOCCHAT_ADMIN_USERS`` (comma-separated user ids) lists them; empty means every local
    user in local mode. In aws mode members of the Cognito group ``admin`` are admins too (``groups_of`` reads
    a verified token's ``cognito:groups``)."""

    def __init__(self, settings: Settings, *, groups_of: Callable[[str], Collection[str]] | None = None) -> None:
        self.local = settings.server.backend == "local"
        self.users = frozenset(u.strip() for u in settings.auth.admin_users.split(",") if u.strip())
        self.groups_of = groups_of

    def is_admin(self, user: str, auth: object) -> bool:
        """``auth`` is what the auth middleware verified: an identity with its ``groups`` (aws mode, OIDC), or the
        raw token (read with ``groups_of``)."""
        if user in self.users or (self.local and not self.users):
            return True
        if self.local:
            return False
        groups = getattr(auth, "groups", None)
        if groups is not None:
            return ADMIN_GROUP in groups
        if self.groups_of is None or not isinstance(auth, str) or not auth:
            return False
        return ADMIN_GROUP in self.groups_of(auth)

    def require(self, user: str, auth: object) -> None:
        if not self.is_admin(user, auth):
            raise Forbidden("operators only: the dead-letter queues need an admin (DOCCHAT_ADMIN_USERS or the "
                            "Cognito group 'admin')")


def cognito_groups(verify: Callable[[str], dict[str, Any]]) -> Callable[[str], Collection[str]]:
    """``groups_of`` for ``Admins`` from a token verifier returning the claims (``CognitoVerifier.verify``)."""

    def groups(token: str) -> Collection[str]:
        value = verify(token).get("cognito:groups") or []
        return [str(g) for g in value] if isinstance(value, list) else [str(value)]

    return groups


def _iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return datetime.fromtimestamp(ts, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@dataclass(frozen=True)
class _Group:
    """The dead messages of one workflow (a job sent twice can die twice)."""

    workflow_id: str
    document_id: str
    letters: tuple[DeadLetter, ...]


class DeadLetters:
    """Blocking (call off the event loop). The handlers receive it as ``dead_letters``."""

    def __init__(self, settings: Settings, *, store: WorkflowStore, queue: JobQueue, admins: Admins) -> None:
        self.settings = settings
        self.store = store
        self.queue = queue
        self.admins = admins
        self.metrics: MetricsRecorder | None = None  # the read models (store/metrics.py), set by the wiring

    def _groups(self, *, hold_seconds: int) -> list[_Group]:
        by_wf: dict[str, list[DeadLetter]] = {}
        for lane in PRIORITIES:
            for letter in self.queue.list_dead(lane, hold_seconds=hold_seconds):
                by_wf.setdefault(str(letter.body.get("workflow_id", "")), []).append(letter)
        return [_Group(wid, str(ls[0].body.get("document_id", "")), tuple(ls)) for wid, ls in by_wf.items()]

    def list(self) -> list[dict[str, Any]]:
        """One row per dead-lettered workflow, oldest failure first."""
        rows = []
        for g in self._groups(hold_seconds=0):
            wf = self.store.workflow_item(g.document_id, g.workflow_id) if g.document_id and g.workflow_id else None
            data = (wf or {}).get("data") or {}
            dead_at = [d.dead_at for d in g.letters if d.dead_at is not None]
            rows.append({
                "document_id": g.document_id,
                "workflow_id": g.workflow_id,
                "project_id": data.get("project_id") or g.letters[0].body.get("project_id"),
                "owner": (wf or {}).get("owner"),
                "file_name": data.get("file_name"),
                "lane": g.letters[0].priority,
                "status": (wf or {}).get("status", "missing"),
                "reason": data.get("error") or ("the document was deleted" if wf is None else None),
                "attempts": int((wf or {}).get("attempts") or 0),
                "messages": len(g.letters),
                "failed_at": (wf or {}).get("updated_at") or _iso(min(dead_at) if dead_at else None),
                "dead_lettered_at": _iso(min(dead_at)) if dead_at else None,
            })
        rows.sort(key=lambda r: str(r["failed_at"] or ""))
        return rows

    def redrive(self, document_ids: Sequence[str] | None = None) -> dict[str, Any]:
        """Redrive every dead-lettered document (``None``) or those named. Returns what happened to each."""
        wanted = None if document_ids is None else set(document_ids)
        groups = self._groups(hold_seconds=REDRIVE_HOLD_SECONDS)
        skipped = [d for g in groups if wanted is not None and g.document_id not in wanted for d in g.letters]
        self.queue.release_dead(skipped)
        results: list[dict[str, Any]] = []
        found = set()
        for g in groups:
            if wanted is not None and g.document_id not in wanted:
                continue
            found.add(g.document_id)
            outcome = self._redrive_one(g)
            results.append({"document_id": g.document_id, "workflow_id": g.workflow_id, "result": outcome})
        for did in sorted((wanted or set()) - found):
            results.append({"document_id": did, "workflow_id": None, "result": "not_dead_lettered"})
        gone = sum(r["result"] not in ("busy", "not_dead_lettered") for r in results)
        if gone:  # the read model's LATEST dead-letter count (the workers add one per dead letter)
            record_safely(self.metrics, latest_add={"dlq": -gone})
        return {"items": results, "redriven": sum(r["result"] == "redriven" for r in results)}

    def _redrive_one(self, g: _Group) -> str:
        wf = self.store.workflow_item(g.document_id, g.workflow_id) if g.document_id and g.workflow_id else None
        if wf is None:
            outcome = "dropped_missing"  # the document was deleted: nothing to redo
        elif wf.get("status") in ("failed", "pending"):
            rec = WorkflowRecord.of(wf)
            if wf.get("status") == "failed":
                try:
                    rec = self.store.reset_workflow(g.document_id, g.workflow_id)
                except (Conflict, NotFound):  # it changed under us (a reprocess, a delete): look again next time
                    self.queue.release_dead(list(g.letters))
                    return "busy"
            # pending: its job died before any claim (this may be its only message): send it again — if another
            # is on its way, the worker makes the duplicate a no-op
            try:
                enqueue(self.queue, self.settings, workflow_id=g.workflow_id, document_id=g.document_id,
                        project_id=rec.project_id, page_count=rec.page_count, store=self.store)
            except RetryableError as exc:  # reset and in the outbox: the sweeper sends it
                log.warning("enqueue_deferred", workflow_id=g.workflow_id, error=exc.message)
            outcome = "redriven"
        else:  # completed, or in progress again (reprocessed since): the dead message is stale
            outcome = f"dropped_{wf.get('status')}"
        for letter in g.letters:
            self.queue.drop_dead(letter)
        log.info("dead_letter_redrive", workflow_id=g.workflow_id, result=outcome, messages=len(g.letters))
        return outcome
