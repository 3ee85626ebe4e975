"""An in-memory OpenSearch behind opensearch-py's connection layer (the "fake transport").

``FakeOpenSearch.client()`` returns a real ``AsyncOpenSearch`` whose connection class answers from
memory, so the client, its serialisation, the bulk helper and error mapping all run for real. Responses
are shaped like OpenSearch 2.x's documented ones (index create, search pipeline get/put, ``_bulk`` items,
``_search`` hits). Semantics emulated: keyword/term(s) filters, BM25 over ``text`` (standard analyzer:
lower-cased words) and ``text.<lang>`` sub-fields (nori/kuromoji approximated by CJK bigrams), exact
k-NN with cosinesimil (faiss score ``1 / (1 + d)``, ``d = 1 - cos``), ``hybrid`` through a search
pipeline's normalization processor (min_max + arithmetic_mean with weights), ``sort`` + ``search_after``.
``serverless=True`` rejects custom ``_id`` values like an OpenSearch Serverless vector collection.
Every request is recorded in ``requests`` for assertions on request bodies.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from typing import Any
from urllib.parse import unquote

from opensearchpy import AsyncOpenSearch
from opensearchpy._async.http_aiohttp import AsyncConnection

_CJK = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff]+")


def standard_terms(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def cjk_terms(text: str) -> list[str]:
    out: list[str] = []
    for run in _CJK.findall(text):
        out.extend([run] if len(run) == 1 else [run[i : i + 2] for i in range(len(run) - 1)])
    return out + [t for t in standard_terms(_CJK.sub(" ", text))]


SHARDS = {"total": 1, "successful": 1, "skipped": 0, "failed": 0}


class FakeOpenSearch:
    def __init__(self, *, serverless: bool = False) -> None:
        self.indices: dict[str, dict[str, Any]] = {}  # name -> {"body": ..., "docs": {id: source}}
        self.pipelines: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str, dict[str, Any], Any]] = []
        self.serverless = serverless
        self._seq = 0
        self.fail_bulk_ids: dict[str, tuple[int, str]] = {}  # _id or chunk_id -> (status, error type)
        self.stale_head: set[str] = set()  # HEAD answers 404 for these (simulates a creation race)

    def client(self) -> AsyncOpenSearch:
        fake = self

        class Conn(AsyncConnection):
            async def perform_request(
                self,
                method,
                url,
                params=None,
                body=None,
                timeout=None,  # noqa: ASYNC109 - opensearch-py's connection signature
                ignore=(),
                headers=None,
            ):
                status, data = fake.handle(method, url, dict(params or {}), body)
                raw = json.dumps(data)
                if not (200 <= status < 300) and status not in ignore:
                    self._raise_error(status, raw, "application/json")
                return status, {"content-type": "application/json"}, raw

            async def close(self) -> None:
                return None

        return AsyncOpenSearch(hosts=["http://fake-opensearch:9200"], connection_class=Conn)

    # --- dispatch ------------------------------------------------------------------
    def handle(self, method: str, url: str, params: dict[str, Any], body: Any) -> tuple[int, Any]:
        path = unquote(url.split("?")[0]).strip("/")
        parsed = self._parse_body(path, body)
        self.requests.append((method, "/" + path, params, parsed))
        parts = path.split("/")
        if parts[0] == "_search" and parts[1:2] == ["pipeline"]:
            return self._pipeline(method, parts[2], parsed)
        if parts[-1] == "_bulk":
            return self._bulk(parts[0] if len(parts) == 2 else None, parsed, params)
        if len(parts) == 2 and parts[1] == "_search":
            return self._search(parts[0], parsed or {}, params)
        if len(parts) == 1:
            return self._index_admin(method, parts[0], parsed)
        if len(parts) == 2 and parts[1] == "_mapping":
            return self._mapping(method, parts[0], parsed)
        return 400, {
            "error": {"type": "illegal_argument_exception", "reason": f"no handler for {method} {url}"},
            "status": 400,
        }

    @staticmethod
    def _parse_body(path: str, body: Any) -> Any:
        if body is None:
            return None
        text = body.decode() if isinstance(body, bytes) else body
        if path.endswith("_bulk"):
            return [json.loads(line) for line in text.splitlines() if line.strip()]
        return json.loads(text)

    @staticmethod
    def _error(status: int, etype: str, reason: str, index: str | None = None) -> tuple[int, Any]:
        err: dict[str, Any] = {"type": etype, "reason": reason}
        if index:
            err["index"] = index
        return status, {"error": {"root_cause": [err], **err}, "status": status}

    def _index_admin(self, method: str, name: str, body: Any) -> tuple[int, Any]:
        if method == "HEAD":
            return (200, {}) if name in self.indices and name not in self.stale_head else (404, {})
        if method == "PUT":
            if name in self.indices:
                return self._error(400, "resource_already_exists_exception", f"index [{name}] already exists", name)
            self.indices[name] = {"body": body, "docs": {}}
            return 200, {"acknowledged": True, "shards_acknowledged": True, "index": name}
        if method == "DELETE":
            self.indices.pop(name, None)
            return 200, {"acknowledged": True}
        return self._error(405, "method_not_allowed", method)

    def _mapping(self, method: str, name: str, body: Any) -> tuple[int, Any]:
        if name not in self.indices:
            return self._error(404, "index_not_found_exception", f"no such index [{name}]", name)
        index_body = self.indices[name]["body"] or {}
        props = index_body.setdefault("mappings", {}).setdefault("properties", {})
        if method == "GET":
            return 200, {name: {"mappings": {"properties": props}}}
        if method == "PUT":
            for field, spec in (body or {}).get("properties", {}).items():
                if field in props and props[field] != spec:
                    return self._error(400, "illegal_argument_exception", f"mapper [{field}] cannot be changed")
                props[field] = spec
            self.indices[name]["body"] = index_body
            return 200, {"acknowledged": True}
        return self._error(405, "method_not_allowed", method)

    def _pipeline(self, method: str, pid: str, body: Any) -> tuple[int, Any]:
        if method == "GET":
            return (200, {pid: self.pipelines[pid]}) if pid in self.pipelines else (404, {})
        if method == "PUT":
            self.pipelines[pid] = body
            return 200, {"acknowledged": True}
        return self._error(405, "method_not_allowed", method)

    # --- bulk ----------------------------------------------------------------------
    def _bulk(self, default_index: str | None, lines: list[dict[str, Any]], params: dict[str, Any]) -> tuple[int, Any]:
        items = []
        i = 0
        while i < len(lines):
            ((op, meta),) = lines[i].items()
            i += 1
            source = None
            if op in ("index", "create", "update"):
                source = lines[i]
                i += 1
            name = meta.get("_index", default_index)
            idx = self.indices.setdefault(name, {"body": None, "docs": {}})
            doc_id = meta.get("_id")
            base = {"_index": name, "_shards": {"total": 2, "successful": 1, "failed": 0}, "_primary_term": 1}
            key = doc_id or (source or {}).get("chunk_id")
            if key in self.fail_bulk_ids:
                status, etype = self.fail_bulk_ids[key]
                items.append(
                    {
                        op: {
                            "_index": name,
                            "_id": doc_id or "auto",
                            "status": status,
                            "error": {"type": etype, "reason": f"[{key}] rejected"},
                        }
                    }
                )
                continue
            if op == "index":
                if doc_id is not None and self.serverless:
                    items.append(
                        {
                            op: {
                                "_index": name,
                                "_id": doc_id,
                                "status": 400,
                                "error": {
                                    "type": "illegal_argument_exception",
                                    "reason": "Document ID is not supported in create/index operation request",
                                },
                            }
                        }
                    )
                    continue
                self._seq += 1
                doc_id = doc_id or f"auto{self._seq:06d}"
                created = doc_id not in idx["docs"]
                idx["docs"][doc_id] = source
                items.append(
                    {
                        op: {
                            **base,
                            "_id": doc_id,
                            "_version": 1,
                            "result": "created" if created else "updated",
                            "_seq_no": self._seq,
                            "status": 201 if created else 200,
                        }
                    }
                )
            elif op == "delete":
                found = idx["docs"].pop(doc_id, None) is not None
                items.append(
                    {
                        op: {
                            **base,
                            "_id": doc_id,
                            "_version": 2,
                            "result": "deleted" if found else "not_found",
                            "_seq_no": self._seq,
                            "status": 200 if found else 404,
                        }
                    }
                )
        errors = any(next(iter(it.values()))["status"] >= 300 for it in items)
        return 200, {"took": 3, "errors": errors, "items": items}

    # --- search --------------------------------------------------------------------
    def _search(self, name: str, body: dict[str, Any], params: dict[str, Any]) -> tuple[int, Any]:
        if name not in self.indices:
            return self._error(404, "index_not_found_exception", f"no such index [{name}]", name)
        docs = self.indices[name]["docs"]
        query = body.get("query", {"match_all": {}})
        size = int(body.get("size", 10))
        if "hybrid" in query:
            pid = params.get("search_pipeline")
            if not pid or pid not in self.pipelines:
                return self._error(400, "illegal_argument_exception", f"Pipeline {pid} is not defined")
            scored = self._hybrid(docs, query["hybrid"]["queries"], self.pipelines[pid], size)
        else:
            scored = self._score(docs, query)
        if "sort" in body:
            field = next(iter(body["sort"][0]))
            rows = sorted(((docs[d].get(field), d) for d, _ in scored), key=lambda r: (r[0], r[1]))
            after = body.get("search_after")
            if after is not None:
                rows = [r for r in rows if r[0] > after[0]]
            hits = [
                {"_index": name, "_id": d, "_score": None, "sort": [v], **self._source(docs[d], body)}
                for v, d in rows[:size]
            ]
            max_score = None
        else:
            scored.sort(key=lambda kv: -kv[1])
            hits = [{"_index": name, "_id": d, "_score": s, **self._source(docs[d], body)} for d, s in scored[:size]]
            max_score = hits[0]["_score"] if hits else None
        return 200, {
            "took": 2,
            "timed_out": False,
            "_shards": SHARDS,
            "hits": {"total": {"value": len(scored), "relation": "eq"}, "max_score": max_score, "hits": hits},
        }

    @staticmethod
    def _source(doc: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        spec = body.get("_source", True)
        if spec is False:
            return {}
        if isinstance(spec, list):
            return {"_source": {k: v for k, v in doc.items() if k in spec}}
        return {"_source": doc}

    def _matches(self, doc: dict[str, Any], clause: dict[str, Any]) -> bool:
        ((kind, arg),) = clause.items()
        if kind == "term":
            ((f, v),) = arg.items()
            return doc.get(f) == (v["value"] if isinstance(v, dict) else v)
        if kind == "terms":
            ((f, vs),) = arg.items()
            return doc.get(f) in vs
        if kind == "bool":
            return all(self._matches(doc, c) for c in arg.get("filter", []) + arg.get("must", []))
        if kind == "match_all":
            return True
        raise ValueError(f"fake: unsupported filter {kind}")

    def _score(self, docs: dict[str, dict[str, Any]], query: dict[str, Any]) -> list[tuple[str, float]]:
        ((kind, arg),) = query.items()
        if kind == "knn":
            ((field, spec),) = arg.items()
            flt = spec.get("filter")
            cand = [d for d, doc in docs.items() if (flt is None or self._matches(doc, flt)) and field in doc]
            scored = [(d, 1.0 / (1.0 + (1.0 - _cos(docs[d][field], spec["vector"])))) for d in cand]
            return sorted(scored, key=lambda kv: -kv[1])[: spec["k"]]
        if kind == "bool":
            cand = [d for d, doc in docs.items() if all(self._matches(doc, c) for c in arg.get("filter", []))]
            musts = arg.get("must", [])
            if not musts:
                return [(d, 0.0) for d in cand]
            out = []
            for d in cand:
                s = sum(self._text_score(docs, docs[d], m) for m in musts)
                if s > 0:
                    out.append((d, s))
            return out
        return [(d, 1.0) for d, doc in docs.items() if self._matches(doc, query)]

    def _text_score(self, docs: dict[str, dict[str, Any]], doc: dict[str, Any], clause: dict[str, Any]) -> float:
        ((kind, arg),) = clause.items()
        if kind != "multi_match":
            raise ValueError(f"fake: unsupported query {kind}")
        total = 0.0
        for field in arg["fields"]:
            analyze = standard_terms if field == "text" else cjk_terms
            total += _bm25(
                analyze(arg["query"]), analyze(doc.get("text", "")), [analyze(x.get("text", "")) for x in docs.values()]
            )
        return total

    def _hybrid(
        self, docs: dict[str, dict[str, Any]], queries: list[dict[str, Any]], pipeline: dict[str, Any], size: int
    ) -> list[tuple[str, float]]:
        proc = pipeline["phase_results_processors"][0]["normalization-processor"]
        weights = proc["combination"].get("parameters", {}).get("weights") or [1.0] * len(queries)
        combined: dict[str, float] = {}
        for q, w in zip(queries, weights):
            sub = sorted(self._score(docs, q), key=lambda kv: -kv[1])[:size]
            if not sub:
                continue
            lo, hi = min(s for _, s in sub), max(s for _, s in sub)
            for d, s in sub:
                norm = 1.0 if hi == lo else (s - lo) / (hi - lo)
                combined[d] = combined.get(d, 0.0) + w * norm
        return [(d, s / sum(weights)) for d, s in combined.items()]


def _cos(a: list[float], b: list[float]) -> float:
    na = math.sqrt(sum(x * x for x in a)) or 1.0
    nb = math.sqrt(sum(x * x for x in b)) or 1.0
    return sum(x * y for x, y in zip(a, b)) / (na * nb)


def _bm25(q: list[str], d: list[str], corpus: list[list[str]], k1: float = 1.2, b: float = 0.75) -> float:
    if not d:
        return 0.0
    n = len(corpus)
    avg = sum(len(x) for x in corpus) / max(n, 1)
    tf = Counter(d)
    score = 0.0
    for t in set(q):
        if t not in tf:
            continue
        df = sum(1 for x in corpus if t in x)
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        score += idf * tf[t] * (k1 + 1) / (tf[t] + k1 * (1 - b + b * len(d) / avg))
    return score
