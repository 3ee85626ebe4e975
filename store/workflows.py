"""Seed 000: projects, documents, workflows, steps and segments in one table.

Layout (``data`` holds the seed's fields; a few control attributes live at the top level because
conditions and atomic counters address top-level attributes only):

=========================  ===================  ==============================================================
PK                         SK                   what
=========================  ===================  ==============================================================
``PROJ#{pid}``             ``META``             ``data`` {name, language, owner, document_prompt, ocr_model};
                                                ``GSI2PK=USER#{owner}``, ``GSI2SK=PROJ#{created_at}#{pid}``
``PROJ#{pid}``             ``STATS``            read model (seed 003): ``documents``, ``pages`` and one counter
                                                per status, updated in the same transaction as every transition
``PROJ#{pid}``             ``DOC#{did}``        ``data`` {file_name, file_type, page_count, size, workflow_id, status,
                                                error (the failure reason, None otherwise)}; ``summary`` (the
                                                document_summarizer's record: kind, title, text, outline, lead)
``PROJ#{pid}``             ``WF#{wid}``         ``data`` {file_name, status, document_id, error}
``PROJ#{pid}``             ``HASH#{sha256}``    content-hash claim: the same bytes in a project → the same ids
``DOC#{did}``              ``WF#{wid}``         ``data`` {project_id, file_uri, file_name, file_type, status,
                                                total_segments, preprocess, …}; ``status``, ``claim_id``,
                                                ``lease_until``, ``retryable``, ``attempts`` (the claim);
                                                until its job is sent ``GSI2PK=OUTBOX#INGEST``,
                                                ``GSI2SK={when}#{wid}`` (the outbox, ``store/workflow_outbox.py``)
``WF#{wid}``               ``STEP``             ``GSI1PK=STEP#ANALYSIS_STATUS``, ``GSI1SK=<status>``; one top-level
                                                attribute per step {status, label, started_at, ended_at, error,
                                                done, total}
``WF#{wid}``               ``SEG#{index:04d}``  ``data`` {segment_index, s3_key, image_uri, image_analysis, …}
=========================  ===================  ==============================================================

A workflow's status is read from two items (``WF#/STEP`` and ``DOC#/WF#``) whatever the document's size.
Only the holder of the current claim (``claim_id``) writes a workflow's steps, segments and status; every
such write is conditional on it, so a worker that lost its lease cannot overwrite its successor.

``WorkflowStore`` is assembled from one mixin per responsibility: projects (``store/workflow_projects.py``),
documents (``store/workflow_documents.py``), the workflow and its steps (``store/workflow_steps.py``),
segments (``store/workflow_segments.py``) and the outbox (``store/workflow_outbox.py``); the values it takes
and returns are in ``store/workflow_types.py`` (ids as fields: no caller parses a key).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from store.items import ItemTable
from store.workflow_documents import DocumentsMixin
from store.workflow_outbox import OutboxMixin
from store.workflow_projects import ProjectsMixin
from store.workflow_segments import SegmentsMixin
from store.workflow_steps import StepsMixin
from store.workflow_types import (
    Claim,
    ClaimOutcome,
    Created,
    NewDocument,
    RefPage,
    WorkflowRecord,
    WorkflowRef,
    new_id,
)

__all__ = ["Claim", "ClaimOutcome", "Created", "NewDocument", "RefPage", "WorkflowRecord", "WorkflowRef",
           "WorkflowStore", "new_id"]


class WorkflowStore(ProjectsMixin, DocumentsMixin, StepsMixin, SegmentsMixin, OutboxMixin):
    """Seed-000 state over any ``ItemTable`` (SQLite or DynamoDB)."""

    def __init__(self, items: ItemTable, *, clock: Callable[[], float] = time.time) -> None:
        self.items = items
        self.clock = clock
