"""Projects (``PROJ#{pid}/META`` + the ``STATS`` read model) — the project half of ``WorkflowStore``."""

from __future__ import annotations

from collections.abc import Callable

from store.errors import Conflict, InvalidInput, NotFound
from store.items import Equals, Item, ItemTable, KeyRange, NotExists, Put, query_all
from store.workflow_types import key_id, new_id, now_iso, safe_id
from store.workflow_views import STATUSES


class ProjectsMixin:
    items: ItemTable
    clock: Callable[[], float]

    # --- projects -------------------------------------------------------------------------------

    def create_project(self, owner: str, name: str, language: str = "en") -> Item:
        name = name.strip()
        if not name or len(name) > 200:
            raise InvalidInput("a project needs a name of 1 to 200 characters")
        if not language or len(language) > 16:
            raise InvalidInput("language must be a short code such as 'en' or 'ko'")
        pid = new_id()
        now = now_iso(self.clock)
        data = {"name": name, "language": language, "owner": owner, "document_prompt": "", "ocr_model": "pp-ocrv5"}
        meta: Item = {
            "PK": f"PROJ#{pid}",
            "SK": "META",
            "data": data,
            "owner": owner,
            "created_at": now,
            "GSI2PK": f"USER#{owner}",
            "GSI2SK": f"PROJ#{now}#{pid}",
        }
        stats: Item = {"PK": f"PROJ#{pid}", "SK": "STATS", "documents": 0, "pages": 0, **dict.fromkeys(STATUSES, 0)}
        self.items.transact_write([Put(meta, NotExists()), Put(stats, NotExists())])
        return self._project_view(meta, stats)

    def get_project(self, owner: str, project_id: str) -> Item:
        meta = self._owned_meta(owner, project_id)
        return self._project_view(meta, self.items.get(f"PROJ#{project_id}", "STATS"))

    def list_projects(self, owner: str) -> list[Item]:
        out: list[Item] = []
        cursor: str | None = None
        while True:
            page = self.items.query(f"USER#{owner}", sk=KeyRange(begins_with="PROJ#"), index="GSI2", cursor=cursor)
            for meta in page.items:
                if meta.get("SK") != "META" or meta.get("owner") != owner:
                    continue
                pid = key_id(meta["PK"], "PROJ#")
                out.append(self._project_view(meta, self.items.get(f"PROJ#{pid}", "STATS")))
            if page.cursor is None:
                return out
            cursor = page.cursor

    def set_project_pii_mode(self, owner: str, project_id: str, mode: str | None) -> Item:
        """The project's own ``pii_mode`` (``mask``/``off``), or None to follow ``DOCCHAT_PII_MODE``."""
        if mode not in (None, "mask", "off"):
            raise InvalidInput("pii_mode must be 'mask', 'off' or null (the deployment's default)")
        meta = self._owned_meta(owner, project_id)
        data = {**dict(meta.get("data") or {}), "pii_mode": mode}
        if mode is None:
            data.pop("pii_mode")
        meta = {**meta, "data": data}
        self.items.put(meta, condition=Equals("owner", owner))
        return self._project_view(meta, self.items.get(f"PROJ#{project_id}", "STATS"))

    def project_pii_mode(self, project_id: str) -> str | None:
        """The project's ``pii_mode`` override (None: the deployment's default) — no owner check (workers)."""
        meta = self.items.get(f"PROJ#{project_id}", "META") if safe_id(project_id) else None
        mode = ((meta or {}).get("data") or {}).get("pii_mode")
        return str(mode) if mode in ("mask", "off") else None

    def delete_project_items(self, owner: str, project_id: str) -> None:
        """Remove an emptied project (its documents deleted first): every ``PROJ#`` item, ``META`` last,
        so a crash half-way leaves a project that still lists and can be deleted again."""
        self._owned_meta(owner, project_id)
        rest = [it for it in query_all(self.items, f"PROJ#{project_id}", consistent=True) if it["SK"] != "META"]
        if any(str(it["SK"]).startswith("DOC#") for it in rest):
            raise Conflict("the project still has documents; delete them first")
        self.items.batch_write(deletes=[(str(it["PK"]), str(it["SK"])) for it in rest])
        self.items.delete(f"PROJ#{project_id}", "META", condition=Equals("owner", owner))

    def _owned_meta(self, owner: str, project_id: str) -> Item:
        meta = self.items.get(f"PROJ#{project_id}", "META") if safe_id(project_id) else None
        if meta is None or meta.get("owner") != owner:
            raise NotFound("no such project")
        return meta

    @staticmethod
    def _project_view(meta: Item, stats: Item | None) -> Item:
        data = meta.get("data") or {}
        stats = stats or {}
        return {
            "project_id": key_id(meta["PK"], "PROJ#"),
            "name": data.get("name"),
            "language": data.get("language", "en"),
            "owner": meta.get("owner"),
            "created_at": meta.get("created_at"),
            "documents": int(stats.get("documents", 0)),
            "pages": int(stats.get("pages", 0)),
            "counts": {s: int(stats.get(s, 0)) for s in STATUSES},
            "pii_mode": data.get("pii_mode"),  # None = the deployment's DOCCHAT_PII_MODE
        }
