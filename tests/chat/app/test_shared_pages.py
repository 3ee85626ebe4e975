"""Issue 16: a chat shared read-only opens the pages its answers cite — those and no other (full embedded
service over HTTP: ingest, the extractive reader, the page renderer)."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from chat.evaluation.service import EvalClient, serve_in_process
from ingest.sample_docs import write_text_pdf
from store.config import Settings

ALICE, BOB, CAROL = ({"Authorization": f"Bearer dev:{u}"} for u in ("alice", "bob", "carol"))


def _pdf(path: Path, lines: list[str]) -> Path:
    return write_text_pdf(path, 1, text_for=iter([lines]))


async def test_a_shared_viewer_opens_the_cited_page_and_nothing_else(tmp_path: Path) -> None:
    settings = Settings.from_env(env={}, data_dir=tmp_path / "data")
    cited = _pdf(tmp_path / "policy.pdf", ["Leave policy", "Employees receive 25 days of annual leave per year."])
    other = _pdf(tmp_path / "menu.pdf", ["Canteen menu", "Tuesday is noodle soup day in the canteen."])
    async with serve_in_process(settings) as url, EvalClient(url, user="alice") as ec:
        pid = await ec.project("HR", "en")
        docs = [await ec.wait(await ec.upload(pid, p, p.name)) for p in (cited, other)]
        assert [d.status for d in docs] == ["completed", "completed"]
        async with httpx.AsyncClient(base_url=url, timeout=60) as c:
            sid = (await c.post("/v1/sessions", json={"project_id": pid}, headers=ALICE)).json()["session_id"]
            r = await c.post(f"/v1/sessions/{sid}/messages", headers=ALICE,
                             json={"text": "How many days of annual leave do employees receive?", "project_id": pid})
            cites = [json.loads(line[5:]) for line in r.text.splitlines() if line.startswith("data:")
                     and '"document_id"' in line]
            assert cites and {c["document_id"] for c in cites} == {docs[0].document_id}
            page = f"/documents/{docs[0].document_id}/pages/{cites[0]['page']}.png"
            not_cited = f"/v1/shared/{sid}/documents/{docs[1].document_id}/pages/1.png"
            # before the share bob gets nothing, the owner gets the page through the chat too
            assert (await c.get(f"/v1/shared/{sid}{page}", headers=BOB)).status_code == 404
            assert (await c.get(f"/v1/shared/{sid}{page}", headers=ALICE)).status_code == 200
            assert (await c.post(f"/v1/sessions/{sid}/shares", json={"user": "bob"}, headers=ALICE)).status_code == 201
            r = await c.get(f"/v1/shared/{sid}{page}", headers=BOB)
            assert r.status_code == 200 and r.content.startswith(b"\x89PNG") and r.headers["X-Page-Width-Pt"]
            assert (await c.get(f"/v1{page}", headers=BOB)).status_code == 404  # the document is still alice's
            assert (await c.get(not_cited, headers=BOB)).status_code == 404  # her other documents stay hers
            assert (await c.get(f"/v1/shared/{sid}{page}", headers=CAROL)).status_code == 404
            assert (await c.delete(f"/v1/sessions/{sid}/shares/bob", headers=ALICE)).status_code == 204
            assert (await c.get(f"/v1/shared/{sid}{page}", headers=BOB)).status_code == 404
