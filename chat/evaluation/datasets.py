"""The answer-evaluation sets, read from the evaluation data (``../shared/evaldata``; never copied into the repo).

Every document goes to one of two projects, A or B, so each is ingested once and every question is asked twice:
in its own project (a *positive*: the answer must be right and cited) and in the other (a *negative*: its document
is not there, the answer must decline).

- **FinanceBench** (local-PDF subset, 80 questions): the filings, split by company (companies in name order,
  alternately A and B). Gold: the answer's first non-year number (a text gold when it has none); the evidence
  page is 0-indexed in the data and 1-based here, as in ``retrieval/evaldata.py``. A question is in the target
  subset when its gold number appears on an evidence page as written (``evidence_text_full_page``), i.e. it
  can be quoted rather than computed; ``subset="verbatim"`` (``--subset verbatim``) asks only those questions
  and ingests only their filings (a ``limit`` then counts verbatim questions). ``subset="computed"`` is the
  complement — the 59 questions whose gold is computed or worded, not printed (ratios, averages, yes/no,
  qualitative): a *development* set for the reader that shares the analysts' wording and the filing kinds (10-Ks,
  10-Qs, 8-Ks, earnings releases) with the verbatim one but none of its questions; never the reported target.
- **KorQuAD 1.0 dev**: one document per article, one page per paragraph (page = paragraph index + 1, as in
  ``retrieval/evaldata.py``), written as a text PDF (the upload takes no plain text); the split's articles
  alternately A and B. The split (``korquad_split``): the reader's decline threshold was calibrated on the
  articles with an even index (``calibration``), the odd ones are held out (``report``, the default of
  ``docchat eval answers``); ``all`` is both. The full run is the split's first 1,000 questions over all of its
  articles (``all``: 140, ``report``/``calibration``: 70 each); ``--limit N`` asks the split's first N and
  ingests only their articles.
- **SROIE** (25 scanned receipts, the OCR path): two questions per receipt, its total and its date, naming the
  company (and, for a company with two receipts, the other field) so the question has one answer; receipts
  alternately A and B, both receipts of a company in the same project.

FinanceBench and SROIE played no part in any calibration: for them ``report`` is ``all``, and ``calibration``
is refused.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from dataclasses import field as dc_field
from pathlib import Path
from typing import Literal

from chat.evaluation.scoring import number_in, parse_dates, primary_number
from retrieval.evaldata import load_korquad as load_korquad_units
from retrieval.evaldata import resolve_root
from store.errors import InvalidInput, NotFound

Group = Literal["A", "B"]
ScoreKind = Literal["number", "text", "span", "date"]
Split = Literal["all", "calibration", "report"]
SPLITS: tuple[Split, ...] = ("all", "calibration", "report")
Subset = Literal["all", "verbatim", "computed"]
SUBSETS: tuple[Subset, ...] = ("all", "verbatim", "computed")
KORQUAD_FULL_QUESTIONS = 1000


@dataclass(frozen=True, slots=True)
class EvalDocument:
    key: str  # stable within the dataset: "3M_2018_10K", "kq000", "sroie-000"
    file_name: str  # the upload's name
    group: Group
    path: Path | None = None  # an existing file …
    pages: tuple[str, ...] = ()  # … or the text of each page, written as a PDF before the upload


def files_at(base: Path, files: dict[str, tuple[str, Group]], what: str, *, underscores: bool = False
             ) -> list[EvalDocument]:
    """The documents of a development set kept as files under ``base`` (``files``: key → (file name, group));
    ``underscores``: uploaded with spaces in the name replaced."""
    documents = []
    for key, (name, group) in files.items():
        path = base / name
        if not path.is_file():
            raise NotFound(f"{what} not found at {path}")
        documents.append(EvalDocument(key, name.replace(" ", "_") if underscores else name, group, path))
    return documents


@dataclass(frozen=True, slots=True)
class EvalQuestion:
    qid: str
    text: str
    golds: tuple[str, ...]  # the gold answer (KorQuAD: every accepted span)
    kind: ScoreKind
    document: str  # key of the document the question is about: its group is the question's own project
    pages: frozenset[tuple[str, int]]  # gold (document key, 1-based page)
    field: str = ""  # a sub-row of the report: SROIE "total"/"date"
    in_target: bool = True  # FinanceBench: the gold number is on the evidence page as written
    absent: bool = False  # no project holds the answer (a year the filing does not cover): a negative in both


@dataclass(slots=True)
class EvalDataset:
    name: str
    language: str
    documents: list[EvalDocument]
    questions: list[EvalQuestion]
    notes: dict[str, object] = dc_field(default_factory=dict)
    split: Split = "all"

    def document(self, key: str) -> EvalDocument:
        for d in self.documents:
            if d.key == key:
                return d
        raise NotFound(f"no document {key!r} in the {self.name} set")


def _alternate(keys: list[str]) -> dict[str, Group]:
    return {k: ("A" if i % 2 == 0 else "B") for i, k in enumerate(keys)}


def korquad_split(article: int) -> Literal["calibration", "report"]:
    """The split of KorQuAD dev article number ``article`` (its index in the dev file's ``data``, key ``kqNNN``).

    The one definition, shared with ``chat.models.reader.decline``: its ``calibrate`` procedure sets
    ``DECLINE_BELOW`` on the articles with an EVEN index (``calibration``) and keeps the odd ones for reporting
    (``report``), counting the articles of the dev file in order from 0.
    """
    return "calibration" if article % 2 == 0 else "report"


def default_split(name: str) -> Split:
    """``report`` for KorQuAD (the held-out articles), ``all`` for the sets no calibration used."""
    return "report" if name == "korquad" else "all"


def _no_calibration_split(name: str, split: Split) -> None:
    if split == "calibration":
        raise InvalidInput(f"the {name} set has no calibration split (only KorQuAD calibrated the reader): "
                           "use --split all (or report, the same here)")


# --------------------------------------------------------------------------- FinanceBench


def _verbatim(r: dict[str, object]) -> bool:
    """The row's gold number is printed, as written, on one of its evidence pages."""
    number = primary_number(str(r["answer"]))
    evidence = r["evidence"] if isinstance(r["evidence"], list) else []
    pages_text = [str(e.get("evidence_text_full_page") or e.get("evidence_text") or "") for e in evidence]
    return number is not None and any(number_in(number, t, rounding=False) for t in pages_text)


def load_financebench(root: Path | None = None, *, limit: int | None = None, split: Split = "all",
                      subset: Subset = "all") -> EvalDataset:
    _no_calibration_split("financebench", split)
    base = resolve_root(root) / "financebench"
    qfile = base / "financebench_subset_local_pdfs.jsonl"
    if not qfile.is_file():
        raise NotFound(f"FinanceBench questions not found at {qfile}")
    rows = [json.loads(line) for line in qfile.read_text(encoding="utf-8").splitlines() if line.strip()]
    all_companies = sorted({str(r["company"]) for r in rows})
    group_of = _alternate(all_companies)  # by all 80 questions' companies: a --limit keeps each company's side
    if subset != "all":
        rows = [r for r in rows if _verbatim(r) == (subset == "verbatim")]
    if limit is not None:
        rows = rows[:limit]
    documents: dict[str, EvalDocument] = {}
    questions: list[EvalQuestion] = []
    missing: list[str] = []
    for r in rows:
        docs = [str(r["doc_name"])] + [str(e["doc_name"]) for e in r["evidence"]]
        absent = [d for d in docs if not (base / "pdfs" / f"{d}.pdf").is_file()]
        if absent:
            missing.extend(absent)
            continue
        for d in docs:
            pdf = base / "pdfs" / f"{d}.pdf"
            documents.setdefault(d, EvalDocument(d, pdf.name, group_of[str(r["company"])], pdf))
        gold = str(r["answer"])
        number = primary_number(gold)
        verbatim = _verbatim(r)
        questions.append(EvalQuestion(
            qid=str(r["financebench_id"]), text=str(r["question"]), golds=(gold,),
            kind="number" if number is not None else "text", document=str(r["doc_name"]),
            pages=frozenset((str(e["doc_name"]), int(e["evidence_page_num"]) + 1) for e in r["evidence"]),
            field=str(r.get("question_type") or ""), in_target=verbatim,
        ))
    return EvalDataset("financebench", "en", sorted(documents.values(), key=lambda d: d.key), questions,
                       notes={"missing_documents": sorted(set(missing)), "subset": subset})


# --------------------------------------------------------------------------- KorQuAD


def load_korquad(root: Path | None = None, *, limit: int | None = None, split: Split = "all") -> EvalDataset:
    units = load_korquad_units(root)  # paragraphs (pages) and questions with their (article, page) targets
    path = resolve_root(root) / "korquad_v1" / "KorQuAD_v1.0_dev.json"
    data = json.loads(path.read_text(encoding="utf-8"))["data"]
    qas = [(qa, a) for a, article in enumerate(data) for para in article["paragraphs"] for qa in para["qas"]]
    articles = list(dict.fromkeys(c.document_id for c in units.units))  # the dev file's order: index = article
    if len(qas) != len(units.queries) or len(articles) != len(data):
        raise NotFound("the KorQuAD file changed under the loader: question or article counts differ")

    def in_split(article: int) -> bool:
        return split == "all" or korquad_split(article) == split

    keys = [k for a, k in enumerate(articles) if in_split(a)]
    n = KORQUAD_FULL_QUESTIONS if limit is None else limit
    chosen = [(q, qa_a) for q, qa_a in zip(units.queries, qas, strict=True) if in_split(qa_a[1])][:n]
    wanted = set(keys) if limit is None else {q.document_id for q, _ in chosen}
    group_of = _alternate(sorted(keys))  # within the split: every negative is asked over same-split articles
    pages: dict[str, list[tuple[int, str]]] = {}
    titles: dict[str, str] = {}
    for c in units.units:
        if c.document_id in wanted:
            pages.setdefault(c.document_id, []).append((c.page_start, c.text))
            titles[c.document_id] = c.file_name
    documents = [
        EvalDocument(k, f"{k}-{_safe_name(titles[k])}.pdf", group_of[k],
                     pages=tuple(text for _, text in sorted(pages[k])))
        for k in sorted(pages)
    ]
    questions = [
        EvalQuestion(qid=str(qa["id"]), text=q.text, golds=tuple(str(a["text"]) for a in qa["answers"]),
                     kind="span", document=q.document_id, pages=q.targets)
        for q, (qa, _) in chosen
    ]
    return EvalDataset("korquad", "ko", documents, questions, notes={"articles": len(documents)}, split=split)


def _safe_name(title: str) -> str:
    return re.sub(r"[^\w-]+", "_", title).strip("_")[:60] or "article"


# --------------------------------------------------------------------------- SROIE


def _company_key(name: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", name.upper())


def load_sroie(root: Path | None = None, *, limit: int | None = None, split: Split = "all") -> EvalDataset:
    _no_calibration_split("sroie", split)
    base = resolve_root(root) / "sroie"
    if not (base / "key").is_dir():
        raise NotFound(f"SROIE receipts not found at {base}")
    receipts = []
    for key_file in sorted((base / "key").glob("*.json")):
        image = base / "img" / f"{key_file.stem}.jpg"
        if image.is_file():
            receipts.append((key_file.stem, json.loads(key_file.read_text(encoding="utf-8")), image))
    companies = sorted({_company_key(k["company"]) for _, k, _ in receipts})
    group_of = _alternate(companies)
    count: dict[str, int] = {}
    for _, k, _ in receipts:
        count[_company_key(k["company"])] = count.get(_company_key(k["company"]), 0) + 1
    documents: list[EvalDocument] = []
    questions: list[EvalQuestion] = []
    for stem, k, image in receipts:
        key = f"sroie-{stem}"
        company = " ".join(str(k["company"]).split())
        shared = count[_company_key(company)] > 1
        documents.append(EvalDocument(key, f"receipt-{stem}.jpg", group_of[_company_key(company)], image))
        total_q = f"What is the total amount on the receipt from {company}"
        date_q = f"What is the date of the receipt from {company}"
        if shared:  # two receipts of one shop: name the other field so each question has one answer
            total_q += f" dated {k['date']}"
            date_q += f" with the total {k['total']}"
        page = frozenset({(key, 1)})
        questions.append(EvalQuestion(f"{stem}-total", total_q + "?", (str(k["total"]),), "number", key, page,
                                      field="total"))
        if parse_dates(str(k["date"])):
            questions.append(EvalQuestion(f"{stem}-date", date_q + "?", (str(k["date"]),), "date", key, page,
                                          field="date"))
    if limit is not None:
        questions = questions[:limit]
        used = {q.document for q in questions}
        documents = [d for d in documents if d.key in used]
    return EvalDataset("sroie", "en", documents, questions, notes={"receipts": len(documents)})


LOADERS = {"financebench": load_financebench, "korquad": load_korquad, "sroie": load_sroie}


def load(name: str, root: Path | None = None, *, limit: int | None = None, split: Split = "all",
         subset: Subset = "all") -> EvalDataset:
    """The set ``name``, ``split`` of it (``docchat eval answers`` defaults to ``default_split``); ``subset``
    ``verbatim`` (FinanceBench only): just the questions whose gold number is printed on the evidence page."""
    try:
        loader = LOADERS[name]
    except KeyError:
        raise NotFound(f"no answer-evaluation set {name!r} (have: {', '.join(LOADERS)})") from None
    if split not in SPLITS:
        raise InvalidInput(f"no split {split!r} (have: {', '.join(SPLITS)})")
    if subset not in SUBSETS:
        raise InvalidInput(f"no subset {subset!r} (have: {', '.join(SUBSETS)})")
    if subset != "all":
        if name != "financebench":
            raise InvalidInput(f"the {name} set has no subset {subset!r} (only financebench has 'verbatim')")
        return load_financebench(root, limit=limit, split=split, subset=subset)
    return loader(root, limit=limit, split=split)
