"""Generic vocabulary of the reader (pure data): line-item synonyms and question cues.

Written from general financial-statement and receipt vocabulary (English, Korean, Japanese), not from any
evaluation set. A synonym group lets "revenue" find a row labelled "Net sales" or "매출액"; the cue lists are
the languages' ordinary question words and particles.
"""

from __future__ import annotations

import re

#: Each group is one line item under its common names. Matching is on lower-cased terms / CJK substrings.
SYNONYM_GROUPS: tuple[tuple[str, ...], ...] = (
    (
        "revenue",
        "revenues",
        "net sales",
        "sales",
        "turnover",
        "net revenue",
        "net revenues",
        "매출",
        "매출액",
        "수익",
        "영업수익",
        "売上",
        "売上高",
        "売上収益",
        "営業収益",
    ),
    (
        "total",
        "grand total",
        "amount due",
        "total amount",
        "total due",
        "balance due",
        "net total",
        "sum",
        "합계",
        "총계",
        "총액",
        "합계금액",
        "결제금액",
        "받을금액",
        "合計",
        "総計",
        "総額",
        "合計金額",
        "お支払",
    ),
    (
        "net income",
        "net profit",
        "net earnings",
        "profit for the period",
        "net loss",  # a net income below zero, and the statements' "Net income (loss)", "Net (loss) earnings"
        "net income loss",
        "net earnings loss",
        "net loss income",
        "net loss earnings",
        "당기순이익",
        "순이익",
        "純利益",
        "当期純利益",
        "当期利益",
    ),
    ("operating income", "operating profit", "income from operations", "operating loss", "operating income loss",
     "loss from operations", "income loss from operations", "영업이익", "営業利益"),
    ("gross margin", "gross profit", "매출총이익", "売上総利益", "粗利"),
    ("cost of sales", "cost of revenue", "cost of revenues", "cost of goods sold", "cogs", "매출원가", "売上原価"),
    ("operating expenses", "opex", "영업비용", "판매비와관리비", "販売費及び一般管理費", "営業費用"),
    ("earnings per share", "eps", "earnings per common share", "net earnings per share",
     "net earnings per common share", "net income per share", "net income per common share", "income per common share",
     "earnings per ordinary share", "net income loss per share", "net income loss per common share",
     "net earnings loss per share", "net loss per share", "net loss per common share", "loss per share",
     "주당순이익", "1株当たり当期純利益", "一株当たり利益"),
    ("total assets", "자산총계", "총자산", "総資産", "資産合計"),
    ("total liabilities", "부채총계", "총부채", "負債合計"),
    ("equity", "shareholders equity", "stockholders equity", "자본총계", "자본", "純資産", "株主資本"),
    ("cash", "현금", "현금및현금성자산", "現金", "現金及び預金"),
    ("tax", "taxes", "vat", "gst", "sales tax", "부가세", "세금", "消費税", "税"),
    ("date", "dated", "issued", "날짜", "일자", "일시", "거래일", "日付", "日時", "発行日"),
    ("dividend", "dividends", "dividend distribution", "dividend distributions", "배당", "배당금", "配当", "配当金"),
    # a company's people, counted: "we had 9,200 employees", "the Company employed 93,516 people", "our total
    # workforce was approximately 156,000", "2.2 million employees ("associates")" — what retailers call them
    ("employees", "headcount", "staff", "workforce", "total workforce", "employed", "associates",
     "직원", "임직원", "종업원", "従業員", "社員"),
    ("price", "cost", "가격", "금액", "단가", "価格", "金額", "値段"),
)

#: Receipt lines that carry an amount but are not the grand total.
NOT_GRAND_TOTAL = re.compile(
    r"sub[\s-]*total|\btax|gst|vat|service\s*charge|rounding|round\s*adj|\bcash\b|change|tender|paid|"
    r"discount|saving|qty|quantity|items?\b|count|excl|before|소계|부가세|세액|과세|면세|할인|거스름|받은|현금|"
    r"수량|小計|税|値引|割引|お釣|釣銭|預り|お預|点数|数量",
    re.IGNORECASE,
)
#: Labels that name the grand total outright (preferred among several totals).
GRAND_TOTAL = re.compile(
    r"grand\s*total|amount\s*due|total\s*(?:amount|due|payable|incl)|balance\s*due|net\s*total|nett|"
    r"합계금액|결제금액|총\s*액|받을\s*금액|合計金額|お支払|ご請求",
    re.IGNORECASE,
)

#: Words for a kind of document: "영수증의 날짜" / "領収書の日付" name no company, so their absence is no signal.
GENERIC_DOCUMENT = re.compile(
    r"영수증|보고서|문서|자료|계산서|청구서|명세서|계약서|회사|기업|당사|제품|문단|본문|"
    r"レシート|領収書|報告書|資料|文書|請求書|明細|契約書|会社|企業|当社|製品|決算|"
    r"receipt|report|document|invoice|statement|filing"
)

MONTHS = {
    m: i + 1
    for i, names in enumerate(
        (
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        )
    )
    for m in names
}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4}
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "six": 6, "nine": 9, "twelve": 12}

# ----------------------------------------------------------------------------------------------- question cues

EN_WH = (
    "how much",
    "how many",
    "how did",
    "how does",
    "how has",
    "how have",
    "how was",
    "how were",
    "what",
    "which",
    "who",
    "whom",
    "whose",
    "when",
    "where",
    "why",
    "how",
)
EN_AUX = frozenset("is are was were do does did has have had can could will would should shall may might".split())
#: English words that are capitalised in questions but name no entity
EN_CAPS_GENERIC = frozenset(
    """what which who whom whose when where why how is are was were do does did has have had can could will would
    the a an in on of for and or to from by at as with total net gross operating quarter year fiscal q1 q2 q3 q4
    fy h1 h2 i please tell show give list compare describe explain define according using based usd eur jpy krw
    gaap eps ebitda ceo cfo coo cto sec vat gst yoy qoq ttm
    ebit ppne ppe pp&e ar ap cogs d&a sg&a r&d capex opex fcf dpo dso dio roa roe roic p&l
    inc corp ltd llc plc""".split()
)

KO_CUES = ("얼마", "무엇", "무슨", "언제", "누구", "누가", "어디", "어느", "어떤", "어떻게", "몇", "왜")
JA_CUES = ("いくら", "いつ", "誰", "だれ", "何", "なに", "なん", "どこ", "どの", "どれ", "どう", "どのくらい", "なぜ")
KO_PARTICLES = (
    "에서는",
    "으로는",
    "에서",
    "으로",
    "에는",
    "에게",
    "까지",
    "부터",
    "이나",
    "은",
    "는",
    "이",
    "가",
    "을",
    "를",
    "의",
    "에",
    "로",
    "와",
    "과",
)
JA_PARTICLES = re.compile(r"における|について|に関する|では|には|での|とは|から|まで|より|は|が|を|の|に|で|と|も|へ")

# ----------------------------------------------------------------------------------------- statement line items

from chat.models.reader.line_items import LINE_ITEM_GROUPS  # noqa: E402  (pure data)

#: the statement line-item groups (``chat.models.reader.statements``) follow the groups above
LINE_ITEM_FIRST = len(SYNONYM_GROUPS)
SYNONYM_GROUPS = SYNONYM_GROUPS + LINE_ITEM_GROUPS
LINE_ITEM_IDS = frozenset(f"§{i}" for i in range(LINE_ITEM_FIRST, len(SYNONYM_GROUPS)))
