"""Key fields of a document (issue 15, seed 004 "정확도와 Human-in-the-loop"), all pure.

``parse`` — amounts, dates, currencies as written in Korean, Japanese and English documents;
``extract`` — fields from a segment's lines (rows rebuilt from boxes) with an evidence-based confidence;
``rules`` — the per-project checks (amount confidence, arithmetic, required fields, plausible dates) that
send a field (or the document) to human review with a reason.

(The chat reader's ``chat/models/reader/fields.py`` parses ``label: value`` lines of a passage for answers;
ingest may not import chat (tests/test_imports.py), so the parsing shared by both lives here, below it.)
"""
