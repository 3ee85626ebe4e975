"""1,000 retry-safe appends to the session store on DynamoDB Local, with faults injected into the boto3
client (botocore event hooks): throttles and refused connections *before* a write, lost responses *after*
it landed. The caller retries a failed append with the same ``turn_id``, as a client retries a question.
Afterwards, every acknowledged message must be stored exactly once, at the seq it was acknowledged with."""

from __future__ import annotations

import random
import threading
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from botocore.exceptions import EndpointConnectionError, ReadTimeoutError

from chat.cli.aws_local import STAND_IN_CREDENTIALS, find_dynamodb_local, free_port
from chat.selftest.procs import Processes, wait_for
from chat.selftest.report import Result
from store.blobs import FileBlobStore
from store.config import Settings
from store.dynamo import DynamoItemTable, ensure_table
from store.errors import ConfigError, RetryableError
from store.schema import SESSIONS_TABLE
from store.sessions import SessionStore

WRITES = ("PutItem", "UpdateItem", "DeleteItem", "TransactWriteItems", "BatchWriteItem")
RETRIES = 12  # attempts per append before the caller gives up (each fault kind is drawn independently)


class Faults:
    """botocore hooks that fail a share of the calls: before the request (throttle, connection refused) or
    after a write landed (the response lost: a read timeout)."""

    def __init__(self, seed: int, *, throttle: float, refused: float, lost: float) -> None:
        self.rng = random.Random(seed)
        self.lock = threading.Lock()
        self.throttle, self.refused, self.lost = throttle, refused, lost
        self.on = True
        self.counts: Counter[str] = Counter()

    def _draw(self, p: float) -> bool:
        with self.lock:
            return self.on and self.rng.random() < p

    def before(self, model: Any, context: dict[str, Any], **_: Any) -> Any:
        if self._draw(self.throttle):
            self.counts["throttled"] += 1
            context["selftest_fault"] = True
            error = {"Error": {"Code": "ProvisionedThroughputExceededException", "Message": "injected throttle"},
                     "ResponseMetadata": {"HTTPStatusCode": 400}}
            return SimpleNamespace(status_code=400, headers={}), error
        if self._draw(self.refused):
            self.counts["refused"] += 1
            raise EndpointConnectionError(endpoint_url="http://127.0.0.1 (injected)")
        return None

    def after(self, http_response: Any, model: Any, context: dict[str, Any], **_: Any) -> None:
        if context.get("selftest_fault") or model.name not in WRITES or http_response.status_code >= 300:
            return
        if self._draw(self.lost):
            self.counts["lost_responses"] += 1
            raise ReadTimeoutError(endpoint_url="http://127.0.0.1 (injected: the write landed)")

    def install(self, client: Any) -> None:
        client.meta.events.register("before-call.dynamodb", self.before)
        client.meta.events.register("after-call.dynamodb", self.after)


def _client(endpoint: str) -> Any:
    import boto3
    from botocore.config import Config

    cfg = Config(retries={"max_attempts": 1, "mode": "standard"}, max_pool_connections=32)
    return boto3.client("dynamodb", endpoint_url=endpoint, region_name="us-east-1", config=cfg,
                        aws_access_key_id=STAND_IN_CREDENTIALS["AWS_ACCESS_KEY_ID"],
                        aws_secret_access_key=STAND_IN_CREDENTIALS["AWS_SECRET_ACCESS_KEY"])


def _dynamodb_up(endpoint: str) -> bool:
    try:
        _client(endpoint).list_tables()
        return True
    except Exception:
        return False


def run(settings: Settings, work: Path, *, appends: int = 1000, sessions: int = 10, seed: int = 0,
        throttle: float = 0.1, refused: float = 0.05, lost: float = 0.1, threads: int = 8) -> Result:
    result = Result("appends: lost responses + throttles (DynamoDB Local)")
    t0 = time.monotonic()
    try:
        java, jar = find_dynamodb_local(settings.server.tools_dir.expanduser().resolve())
    except ConfigError as exc:
        result.skipped = exc.message
        return result
    with Processes(work) as procs:
        port = free_port()
        ddb = procs.spawn("dynamodb-local", [java, f"-Djava.library.path={jar.parent / 'DynamoDBLocal_lib'}",
                                             "-jar", str(jar), "-inMemory", "-disableTelemetry", "-port", str(port)],
                          cwd=jar.parent)
        endpoint = f"http://127.0.0.1:{port}"
        wait_for(lambda: _dynamodb_up(endpoint), what="DynamoDB Local", within_s=120, child=ddb, poll_s=0.25)
        client = _client(endpoint)
        name = f"selftest-sessions-{uuid.uuid4().hex[:8]}"
        ensure_table(client, name, SESSIONS_TABLE)
        faults = Faults(seed, throttle=throttle, refused=refused, lost=lost)
        faults.install(client)
        items = DynamoItemTable(client, name, SESSIONS_TABLE, base_delay_s=0.002, max_delay_s=0.02)
        store = SessionStore(items, FileBlobStore(work / "blobs"))
        faults.on = False
        sids = [store.create_session("selftest", f"appends {i}") for i in range(sessions)]
        faults.on = True
        acked: dict[str, tuple[str, int]] = {}  # turn_id -> (session, seq)
        retries = Counter[str]()
        lock = threading.Lock()

        def one_session(k: int) -> None:
            sid = sids[k]
            for i in range(k, appends, sessions):
                turn_id = f"t{i:05d}"
                role = "user" if (i // sessions) % 2 == 0 else "assistant"
                for attempt in range(RETRIES):
                    try:
                        seq = store.append_message(sid, role, [{"type": "text", "text": f"message {i}"}],
                                                   turn_id=turn_id)
                    except RetryableError as exc:
                        with lock:
                            retries[type(exc).__name__] += 1
                        continue
                    except Exception as exc:  # not retryable: a finding
                        with lock:
                            result.fail(f"append {turn_id} attempt {attempt + 1}: {type(exc).__name__}: {exc}")
                        break
                    with lock:
                        acked[turn_id] = (sid, seq)
                    break
                else:
                    with lock:
                        result.fail(f"append {turn_id}: still failing after {RETRIES} attempts")

        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(one_session, range(sessions)))
        faults.on = False
        result.attempts = appends
        stored: dict[str, list[tuple[str, int, str]]] = {}
        gaps = 0
        for sid in sids:
            rows, cursor = [], None
            while True:
                page = store.list_messages(sid, cursor=cursor, limit=500)
                rows += [(str(m.get("turn_id")), int(m["seq"]), str(m["content"][0]["text"])) for m in page["items"]]
                cursor = page["next_cursor"]
                if cursor is None:
                    break
            stored[sid] = rows
            seqs = [seq for _, seq, _ in rows]
            gaps += (max(seqs) - len(seqs)) if seqs else 0
        seen = Counter(turn for rows in stored.values() for turn, _, _ in rows)
        texts = Counter(text for rows in stored.values() for _, _, text in rows)
        duplicates = sum(n - 1 for n in seen.values() if n > 1) + sum(n - 1 for n in texts.values() if n > 1)
        where = {turn: (sid, seq) for sid, rows in stored.items() for turn, seq, _ in rows}
        lost_count = 0
        for turn_id, (sid, seq) in sorted(acked.items()):
            if where.get(turn_id) != (sid, seq):
                lost_count += 1
                result.fail(f"{turn_id} acknowledged at {sid} seq {seq}, stored as {where.get(turn_id)}")
        for turn, n in seen.items():
            if n > 1:
                result.fail(f"{turn} stored {n} times")
        result.notes.update(acked=len(acked), stored=sum(len(r) for r in stored.values()), duplicates=duplicates,
                            lost=lost_count, seq_gaps=gaps, **dict(faults.counts),
                            caller_retries=sum(retries.values()))
        if duplicates and not any("stored" in e for e in result.examples):
            result.fail(f"{duplicates} duplicate message texts")
        store.close()
    result.seconds = time.monotonic() - t0
    return result
