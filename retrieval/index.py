"""The index port (one Protocol, defined with the other retrieval types) and its adapters.

- ``retrieval.lance_index.LanceIndex`` — embedded default (LanceDB under ``<data_dir>/lance``)
- ``retrieval.opensearch_index.OpenSearchIndex`` — AWS (Amazon OpenSearch Service / Serverless)
"""

from __future__ import annotations

from retrieval.types import Index

__all__ = ["Index"]
