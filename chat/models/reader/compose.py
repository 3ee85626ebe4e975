"""Answer text from evidence (pure), in the question's language (English, Korean, Japanese).

A direct first sentence states the value with its citation — ``Total net sales were $117,154 million in the
three months ended December 31, 2022 [S1].`` — then the supporting quote (the table row under its header, the
field line or the sentence) as a blockquote. A change is computed from the two cited cells and says so.
"""

from __future__ import annotations

import re

from chat.models.extractive import Language, terms
from chat.models.reader.balances import PER_SHARE
from chat.models.reader.evidence import Evidence
from chat.models.reader.numbers import (
    Amount,
    Unit,
    decimals_of,
    format_amount,
    korean_won,
    percent_change,
    rescaled,
)
from chat.models.reader.question import Question
from chat.models.reader.referents import stated
from chat.models.reader.tables import Table, column_text
from chat.models.reader.text import display, match_terms

NOTE: dict[Language, str] = {
    "en": "(Extractive answer: no generative model is configured, so this only restates what the quoted "
    "documents say.)",
    "ko": "(추출형 답변: 생성형 모델이 설정되어 있지 않아 인용한 문서의 내용만 전합니다.)",
    "ja": "（抽出型の回答：生成モデルは設定されていないため、引用した資料の記載のみをお伝えします。）",
    "zh": "（抽取式回答：未配置生成式模型，只转述所引用文档的内容。）",
}
UNSURE: dict[Language, str] = {
    "en": "I'm not sure the documents answer this. The closest evidence [{ref}]:",
    "ko": "문서가 이 질문에 답하는지 확실하지 않습니다. 가장 가까운 근거입니다 [{ref}]:",
    "ja": "資料がこの質問に答えているか確かではありません。最も近い根拠です [{ref}]：",
    "zh": "不确定文档是否回答了这个问题。最接近的依据 [{ref}]：",
}


def josa(word: str, pair: str) -> str:
    """Korean particle after ``word``: ``pair`` is "은는", "이가", "을를" or "으로"."""
    last = word.rstrip()[-1:] if word.strip() else ""
    if "\uac00" <= last <= "\ud7a3":
        final = (ord(last) - 0xAC00) % 28
        if pair == "으로":
            return "로" if final in (0, 8) else "으로"
        return pair[0] if final else pair[1]
    if pair == "으로":
        return "(으)로"
    return f"{pair[0]}({pair[1]})"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text and text[0].islower() and not re.match(r"[a-z]+[A-Z]", text) else text


def _plural(subject: str) -> bool:
    last = subject.split()[-1].lower() if subject.split() else ""
    return (last.endswith("s") and not last.endswith(("ss", "us", "is"))) or last in ("proceeds", "earnings")


#: sections that order a statement or a note rather than qualify the row ("Denominator:", "Investing activities:")
_STRUCTURAL_SECTION = re.compile(
    r"(?i)^\s*(?:numerator|denominator|(?:operating|investing|financing)\s+activities|adjustments\s+to\s+reconcile|"
    r"changes\s+in\s+operating\s+assets|supplemental\b)")


def subject_of(q: Question, ev: Evidence) -> str:
    """The row label, with the question's words for what the row label leaves implicit (``iPhone`` + revenue)."""
    label = ev.label
    section_terms = match_terms(ev.row.section) if ev.row is not None else set()
    if (
        ev.row is not None
        and ev.row.section
        and (section_terms <= match_terms(ev.row.label) or any(t.startswith("§") for t in section_terms)
             or _STRUCTURAL_SECTION.search(ev.row.section))
    ):
        # "Net sales:" / "Operating expenses:" name the measure, "Denominator:" / "Financing activities:" the
        # table's structure: not a qualifier
        label = ev.row.label
    elif ev.row is not None and ev.row.section:
        row_label = ev.row.label
        if re.match(r"[A-Z][a-z]", row_label):
            row_label = row_label[0].lower() + row_label[1:]
        label = f"{ev.row.section} {row_label}"
    have = match_terms(label) | set(terms(label))
    words = q.focus.split()
    missing = [i for i, w in enumerate(words)
               if match_terms(w) and not match_terms(w) <= have and w.lower() not in label.lower()]
    present = [i for i, w in enumerate(words) if match_terms(w) and i not in missing]
    # the asked words the label lacks, said after it when they follow what it has ("iPhone" + revenue); a
    # modifier before the label's own noun ("share" of "share repurchases" for "Repurchases of common stock")
    # would garble it
    extra = [words[i] for i in missing] if not present or min(missing, default=0) > max(present) else []
    if match_terms(q.focus) <= have:
        extra = []  # "capital expenditure" asked, "Purchases of property and equipment" found: the same item
    if extra and q.language == "en" and len(extra) <= 3:
        label = f"{label} {' '.join(extra)}"
    return label


_COUNT_HEADER = re.compile(
    r"(?i)\bnumber of\b|\bshares\b|\bunits\b|\bemployees\b|\bheadcount\b|\bcount\b|\bquantity\b|\bqty\b|"
    r"주식\s*수|주식수|수량|인원|株式数|株数|件数|人数|数量"
)


def table_unit(table: Table, col: int | None = None) -> Unit:
    """How to read the cells of column ``col``: the caption's unit; a column whose own cells show ``$`` is in
    dollars throughout; a column that counts things (``Number of Shares``, ``수량``) has no currency and no
    caption scale (a caption's "in millions" is about the amounts, not the counts)."""
    if col is not None and 0 <= col < len(table.columns) and _COUNT_HEADER.search(table.columns[col].header):
        return Unit()
    if table.unit.currency:
        return table.unit
    for row in table.rows:
        cells = row.cells if col is None else row.cells[col : col + 1]
        for cell in cells:
            if cell.startswith(("$", "US$")):
                return Unit(table.unit.scale, table.unit.word, "$")
    return table.unit


def row_unit(table: Table, col: int | None, label: str) -> Unit:
    """``table_unit``, except that a per-share row (``Diluted earnings per share``, or any row under an
    "Earnings per share" heading: pass ``section label``) is in plain currency: a caption's "(in millions, except
    per share data)" does not scale it."""
    unit = table_unit(table, col)
    if PER_SHARE.search(label) and unit.scale != 1.0:
        return Unit(1.0, "", unit.currency)
    return unit


def spoken_value(amount: Amount, unit: Unit, lang: Language) -> str:
    if lang == "ko" and unit.word == "억원" and not amount.scale_word and abs(amount.value) >= 10_000:
        text = korean_won(abs(amount.value) * 1e8)
        return ("-" if amount.value < 0 else "") + text
    return format_amount(amount, unit, lang)


def period_phrase(table: Table, col: int, lang: Language) -> str:
    spoken = column_text(table, col)
    if lang != "en" or not spoken:
        return " ".join(table.columns[col].header.replace(" / ", " ").split())
    return spoken if spoken.startswith("as of") else f"in {spoken}"


def header_lines(table: Table, text: str) -> list[str]:
    """The table's header as quoted above its rows (a Markdown header with its separator line); [] without one."""
    if table.header is None:
        return []
    header = text[table.header[0] : table.header[1]]
    if table.markdown and header.startswith("|"):
        return [header, "|" + "---|" * (header.count("|") - 1 if header.endswith("|") else len(table.columns) + 1)]
    return [display(header)]


def table_quote(ev: Evidence) -> list[str]:
    """The row under its header (the caption's unit is in the answer sentence already)."""
    assert ev.table is not None
    return [*header_lines(ev.table, ev.passage.text), ev.quote_text]


def _cell_sentence(q: Question, ev: Evidence) -> str:
    table, row, lang, ref = ev.table, ev.row, q.language, ev.passage.ref
    assert table is not None and row is not None
    amount = row.amount(ev.col)
    assert amount is not None
    subject = subject_of(q, ev)
    unit = row_unit(table, ev.col, f"{row.section} {row.label}")
    value = spoken_value(amount, unit, lang)
    if lang == "en":
        converted = rescaled(amount, unit, q.scale)
        value = f"{value} ({converted})" if converted else value
    period = period_phrase(table, ev.col, lang)
    prior = row.amount(ev.prior_col) if ev.prior_col >= 0 else None
    if q.kind in ("change", "comparison") and prior is not None:
        return _change_sentence(q, ev, subject, amount, prior)
    if lang == "ko":
        lead = f"{period} " if period else ""
        return f"{lead}{subject}{josa(subject, '은는')} {value}입니다 [{ref}]."
    if lang in ("ja", "zh"):
        lead = f"{period}の" if period else ""
        return f"{lead}{subject}は{value}です [{ref}]。"
    verb = "were" if _plural(subject) else "was"
    tail = f" {period}" if period else ""
    return f"{_cap(subject)} {verb} {value}{tail} [{ref}]."


def _change_sentence(q: Question, ev: Evidence, subject: str, current: Amount, prior: Amount) -> str:
    table, ref, lang = ev.table, ev.passage.ref, q.language
    assert table is not None and ev.row is not None
    unit = row_unit(table, ev.col, f"{ev.row.section} {ev.row.label}")
    cur_text, prior_text = spoken_value(current, unit, lang), spoken_value(prior, unit, lang)
    cur_period, prior_period = period_phrase(table, ev.col, lang), period_phrase(table, ev.prior_col, lang)
    pct = percent_change(current.value, prior.value)
    decimals = max(decimals_of(current.raw), decimals_of(prior.raw))
    diff = current.value - prior.value
    currency = current.currency or prior.currency
    diff_text = spoken_value(
        Amount(abs(diff), f"{abs(diff):,.{decimals}f}", current.percent, currency, current.scale_word), unit, lang
    )
    converted = rescaled(Amount(abs(diff), f"{abs(diff):,.{decimals}f}", current.percent, currency,
                                current.scale_word), unit, q.scale) if lang == "en" else ""
    if converted:
        diff_text = f"{diff_text} ({converted})"
    pct_text = f"{abs(pct):.1f}%" if pct is not None else ""
    if current.percent and prior.percent:  # a rate's change is in points, not a percent of a percent
        points = f"{abs(diff):.{max(decimals, 1)}f}"
        pct_text = {"ko": f"{points}%p", "ja": f"{points}ポイント", "zh": f"{points}个百分点"}.get(
            lang, f"{points} percentage points"
        )
        diff_text = pct_text
    stated = ev.row.amount(ev.change_col) if ev.change_col >= 0 else None
    if lang == "ko":
        verb = "증가" if diff > 0 else "감소" if diff < 0 else "변동 없음"
        amount_part = diff_text if diff_text == pct_text else f"{diff_text}({pct_text})"
        how = f"{amount_part} {verb}했습니다" if diff else "변동이 없습니다"
        return (
            f"{subject}{josa(subject, '은는')} {prior_period} {prior_text}에서 {cur_period} {cur_text}"
            f"{josa(cur_text, '으로')} {how} [{ref}] (표의 두 수치로 계산)."
        )
    if lang in ("ja", "zh"):
        verb = "増加" if diff > 0 else "減少" if diff < 0 else "横ばい"
        amount_part = diff_text if diff_text == pct_text else f"{diff_text}（{pct_text}）"
        how = f"{amount_part}{verb}しました" if diff else "変わりませんでした"
        return (
            f"{subject}は{prior_period}の{prior_text}から{cur_period}の{cur_text}へ{how} [{ref}]（表の数値から計算）。"
        )
    verb = "were" if _plural(subject) else "was"
    direction = "up" if diff > 0 else "down" if diff < 0 else "unchanged"
    change = f"{direction} {pct_text}" if diff and pct_text else direction
    extra = f"; the table shows {ev.row.cells[ev.change_col]}" if stated is not None else ""
    computed = "computed from the table" + ("" if diff_text == pct_text else f": a difference of {diff_text}")
    return (
        f"{_cap(subject)} {verb} {change}: {cur_text} {cur_period} vs {prior_text} {prior_period} [{ref}] "
        f"({computed}{extra})."
    )


def _field_sentence(q: Question, ev: Evidence) -> str:
    field, ref, lang = ev.field, ev.passage.ref, q.language
    assert field is not None
    value = field.date.text if q.kind == "date" and field.date else (field.amount.raw if field.amount else field.value)
    label = field.label.lower() if field.label.isupper() or lang == "en" else field.label
    if not label:
        label = {"ko": "날짜", "ja": "日付", "zh": "日期"}.get(lang, "date")
    if lang == "ko":
        return f"{label}{josa(label, '은는')} {value}입니다 [{ref}]."
    if lang in ("ja", "zh"):
        return f"{label}は{value}です [{ref}]。"
    return f"The {label} is {value} [{ref}]."


_QUOTE_MARKS: dict[Language, tuple[str, str]] = {
    "en": ("“", "”"),
    "ko": ("“", "”"),
    "ja": ("「", "」"),
    "zh": ("“", "”"),
}


def _sentence_line(q: Question, ev: Evidence, *, sure: bool) -> str:
    """One line: the value (when one was found), then the sentence quoted inline, then the citation."""
    ref, lang = ev.passage.ref, q.language
    span = ev.span_text or stated(q, ev)  # Korean/Japanese: the referent of 그는/彼は, the one typed candidate
    left, right = _QUOTE_MARKS[lang]
    quoted = f"{left}{display(ev.quote_text)}{right} [{ref}]"
    if not sure:
        return {
            "ko": f"가장 가까운 근거: {quoted} (이 질문의 답인지 확실하지 않습니다.)",
            "ja": f"最も近い根拠：{quoted}（この質問の答えかどうかは確かではありません。）",
            "zh": f"最接近的依据：{quoted}（不确定是否回答了这个问题。）",
        }.get(lang, f"The closest the documents come: {quoted} (I'm not sure this answers the question.)")
    if lang == "ko":
        return f"문서에 따르면 {span}입니다: {quoted}" if span else f"문서의 관련 내용: {quoted}"
    if lang in ("ja", "zh"):
        return f"資料によると{span}です：{quoted}" if span else f"資料の該当箇所：{quoted}"
    return f"The documents say {span}: {quoted}" if span else f"The documents say: {quoted}"


def compose(
    q: Question, best: Evidence, supporting: list[Evidence], *, sure: bool
) -> tuple[str, list[tuple[str, str]]]:
    """The answer lines for one question (without the closing note) and its (ref, exact quote) pairs."""
    quotes = [(best.passage.ref, best.quote_text)]
    if best.kind == "sentence":
        lines = [_sentence_line(q, best, sure=sure)]
    else:
        if not sure:
            lead = UNSURE[q.language].format(ref=best.passage.ref)
        elif best.kind == "cell":
            lead = _cell_sentence(q, best)
        else:
            lead = _field_sentence(q, best)
        quote_lines = table_quote(best) if best.kind == "cell" else [display(best.quote_text)]
        lines = [lead, *(("> " + line).rstrip() for line in quote_lines)]
    for ev in supporting:
        lines.append(f"> {display(ev.quote_text)} [{ev.passage.ref}]")
        quotes.append((ev.passage.ref, ev.quote_text))
    return "\n".join(lines), quotes
