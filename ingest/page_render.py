"""A page's PNG written where the viewer reads it, and rendered on demand when it is not there yet (issue 18).

The pipeline renders the pages of a PDF with a good text layer only after its vectors are written (none of the
rendering's CPU beside the text path or the embedder), so a page can be asked for before it exists: the viewer
then gets it rendered now, in a sandbox (a spare child: ``ingest.sandbox_spares``), and written at the key the
pipeline writes — the same bytes, so whichever write lands last changes nothing, and the pipeline's rendering skips
a page whose metadata is there.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from ingest.results import meta_key, page_png_key
from store.blobs import BlobStore
from store.config import Settings
from store.logging import get_logger

log = get_logger(__name__)


def store_rendered(blobs: BlobStore, workflow_id: str, rendered: Any) -> None:
    """Write a ``RenderedPage``: the PNG first, then its metadata (the mark that the page is done)."""
    blobs.put(page_png_key(workflow_id, rendered.page), rendered.png, "image/png")
    meta = {"width_pt": rendered.width_pt, "height_pt": rendered.height_pt, "width_px": rendered.width_px,
            "height_px": rendered.height_px}
    blobs.put(meta_key(workflow_id, rendered.page), json.dumps(meta).encode(), "application/json")


def render_now(settings: Settings, blobs: BlobStore, workflow_id: str, data: dict[str, Any], page: int) -> bytes | None:
    """Render one page of the workflow's PDF and store it; None when it cannot be rendered here (not a PDF, no
    original, a rendering failure: the caller answers "not rendered yet" and the pipeline's rendering follows)."""
    from ingest.steps.segment_prep import render_pages

    key = data.get("file_key")
    if (data.get("file_kind") or "pdf") != "pdf" or not key:
        return None
    tmp = Path(tempfile.mkdtemp(prefix="docchat-page-"))
    try:
        path = tmp / "original"
        with blobs.open(str(key)) as src, path.open("wb") as out:
            shutil.copyfileobj(src, out, 1024 * 1024)
        for rendered in render_pages(path, "pdf", [page], settings.ingest.render_dpi, settings=settings):
            store_rendered(blobs, workflow_id, rendered)
            log.info("page_rendered_on_demand", workflow_id=workflow_id, page=page)
            return bytes(rendered.png)
    except Exception as exc:  # the viewer is told to wait; the pipeline renders it (and reports a real failure)
        log.warning("page_render_on_demand_failed", workflow_id=workflow_id, page=page, error=type(exc).__name__)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return None
