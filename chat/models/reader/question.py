"""What a question asks (pure): its kind, the line item, the period, the unit, the company or document named.

General linguistic cues only — wh-words and auxiliaries (English), question words and particles (Korean
``얼마/언제/누구/무엇/몇``, Japanese ``いくら/いつ/誰/何``) — plus the generic line-item vocabulary of
``lexicon``. A question with two asks (``… and how much did it change?``, two ``?`` sentences) is split into
parts; a part that says "it" borrows the line item, period and names of the part before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Literal

from chat.models.extractive import Language, detect_language
from chat.models.reader.documents import parse_selector
from chat.models.reader.lexicon import (
    EN_CAPS_GENERIC,
    GENERIC_DOCUMENT,
    JA_CUES,
    JA_PARTICLES,
    KO_CUES,
    KO_PARTICLES,
    LINE_ITEM_FIRST,
    LINE_ITEM_IDS,
    MONTHS,
)
from chat.models.reader.morph import ko_stem
from chat.models.reader.numbers import asked_scale
from chat.models.reader.periods import Period, find_periods, is_relative, quarter_span, span_months
from chat.models.reader.statements import BACK_REFERENCE, SENTENCE_SPLIT, loose_line_item, statement_kind, stems
from chat.models.reader.statements import FILLER as STATEMENT_FILLER
from chat.models.reader.text import group_words, match_terms

Kind = Literal["value", "change", "comparison", "date", "name", "yesno", "list", "definition", "other"]

_EN_KIND: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    (
        "change",
        re.compile(
            r"\b(?:chang(?:e|ed|es)|increas(?:e|ed|es)|decreas(?:e|ed|es)|grow(?:th|n)?|grew|"
            r"declin(?:e|ed|es)|drop(?:ped)?|r[io]se|fell|fall|up or down|year[- ]over[- ]year|yoy|"
            r"improv(?:e|ed|es)|worsen(?:ed|s)?|deteriorat(?:e|ed|es))\b",
            re.IGNORECASE,
        ),
    ),
    (
        "comparison",
        re.compile(
            r"\b(?:compare[ds]?|comparison|versus|vs\.?|difference between)\b|"
            r"\b(?:higher|lower|larger|smaller|greater|bigger|more|less)\s+than\b|"
            r"^\s*which\b.*\b(?:higher|lower|larger|smaller|bigger|more|less)\b",
            re.IGNORECASE,
        ),
    ),
    # "When did …" — not "When primarily referencing the income statement, what is …" (a clause, then the question)
    ("date", re.compile(r"^\s*when\b(?![^?]*[,:]\s*(?:what|which|how|who|whose|where|is|are|was|were|does|did|do)\b)|"
                        r"\b(?:what|which|on what) (?:date|day|year|month|time)\b", re.IGNORECASE)),
    (
        "name",
        re.compile(
            r"^\s*(?:who|whom|whose)\b|\b(?:which|what) (?:(?:accounting|audit|auditing|law|investment|holding|"
            r"parent) )?(?:company|person|firm|organi[sz]ation|entity|"
            r"auditor|bank|store|shop|vendor|seller|merchant)\b|\bname of\b",
            re.IGNORECASE,
        ),
    ),
    (
        "value",
        re.compile(
            r"\bhow (?:much|many)\b|\bwhat (?:was|is|were|are) (?:the )?(?:total|amount|value|number|"
            r"price|cost|rate|percentage|ratio|balance|share)\b|^\s*what (?:dollar )?(?:amount|value|sum) of\b",
            re.IGNORECASE,
        ),
    ),
    ("list", re.compile(r"^\s*(?:list|enumerate|name all)\b|\bwhat are (?:the|all)\b", re.IGNORECASE)),
    (
        "yesno",
        re.compile(r"^\s*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should)\b", re.IGNORECASE),
    ),
    (
        "definition",
        re.compile(
            r"^\s*(?:what (?:is|are|does)|define|explain|describe|why|how (?:does|do|is|are))\b|"
            r"\bmean(?:s|ing)?\b",
            re.IGNORECASE,
        ),
    ),
)
_KO_KIND: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("change", re.compile(r"증가|감소|증감|변(?:동|화|했|하)|달라졌|늘었|줄었|성장|상승|하락|대비")),
    ("comparison", re.compile(r"비교|차이|더\s?(?:많|크|큰|높|적|작|낮)")),
    (
        "date",
        re.compile(r"언제|날짜|일자|며칠|몇\s?년|몇\s?월|연도|년도|시기|시점|(?:날|해|때)(?:은|는|이|가)?\s*\??$"),
    ),
    (
        "name",
        re.compile(
            r"누구|누가|이름|(?:어느|어떤|무슨)\s?(?:회사|기업|사람|인물)|"
            r"(?:사람|인물|선수|감독|작가|회사|기업|단체|기관|상호|가게)(?:은|는|이|가)?\s*\??$"
        ),
    ),
    ("value", re.compile(r"얼마|몇|금액|총액|합계|액수|규모|비율|수치|개수")),
    ("list", re.compile(r"나열|목록|종류|모두\s?(?:무엇|알려)")),
    ("definition", re.compile(r"무엇|뭐|뜻|의미|정의|설명|왜|이유|어떻게")),
    ("yesno", re.compile(r"(?:있|했|되|인|였|많|맞)(?:나요|습니까|니까|니|어요)\s*\??$")),
)
_JA_KIND: tuple[tuple[Kind, re.Pattern[str]], ...] = (
    ("change", re.compile(r"増加|減少|増減|変化|伸び|前年比|上昇|下落|増え|減っ")),
    ("comparison", re.compile(r"比較|違い|どちら|差は")),
    ("value", re.compile(r"何\s?(?:ヶ月|か月|カ月|年間|日間|人|件|個|円|回|倍|%|割|株)")),
    ("date", re.compile(r"いつ|日付|何日|何年|何月|日時|年月日|(?:日|時期)は?\s*[？?]?$")),
    ("name", re.compile(r"誰|だれ|名前|(?:どこ|どの)の?(?:会社|企業|店)|社名|店名")),
    ("value", re.compile(r"いくら|いくつ|何円|何人|何件|何個|何%|どのくらい|どれくらい|金額|合計|総額")),
    ("list", re.compile(r"一覧|挙げ|すべて|種類")),
    ("definition", re.compile(r"何ですか|とは|意味|説明|なぜ|理由|どのよう")),
    ("yesno", re.compile(r"(?:ます|です)か\s*[？?]?$")),
)
_MEASURE_WORDS = re.compile(
    r"\b(?:total|amount|value|number|price|cost|rate|percentage|ratio|margin|balance|"
    r"revenue|sales|income|profit|loss|expense|earnings|eps|cash|assets|liabilities|equity|"
    r"debt|capex|dividend|tax|taxes|spend|spending|headcount|employees|count|"
    r"charge|impairment|proceeds|payment|obligation|compensation|backlog|fee|gain|write-?down|write-?off|"
    # "expenses", "costs", "dividends"
    r"repurchase|borrowing|deposit|reserve|allowance|provision|accrual|depreciation|amortization|"
    # earnings before interest, taxes, … ("Adjusted Property EBITDAR"), money spent ("capital expenditures"), revenue
    # per available room or per user
    r"ebit|ebitda|ebitdar|expenditure|outlay|revpar|arpu)s?\b",
    re.IGNORECASE,
)
#: an amount asked by a metric's name that names no line item ("working capital"), where no other kind is asked
_METRIC_WORDS = re.compile(r"(?i)\bworking\s+capital\b")
#: synonym groups of lexicon.SYNONYM_GROUPS that name an amount (revenue … price; not "date" or "employees")
_MEASURE_GROUPS = frozenset(f"§{i}" for i in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16)) | LINE_ITEM_IDS
_EN_LEAD = re.compile(
    r"^(?:(?:and|so|also|then|now|ok)\s+)?(?:by how much|by what (?:percent(?:age)?|amount|margin)|how much|how many|"
    r"what|which|who|whom|whose|when|where|why|how)\b\s*(?:(?:is|are|was|were|do|does|did|has|have|had|will|would|can|could)\b\s*)?",
    re.IGNORECASE,
)
_EN_FILLER = re.compile(
    r"\b(?:(?:(?:as )?compared (?:to|with) |versus |vs\.? |from |over )?(?:the )?same (?:period|quarter|months?|time) "
    r"(?:(?:of|in) )?(?:the )?(?:last|prior|previous|a) (?:fiscal )?year(?: ago| earlier| before)?|"
    r"(?:(?:in|of|from|over|during) )?(?:the )?(?:last|prior|previous) (?:fiscal )?year|a year (?:ago|earlier|before)|"
    r"the (?:amount|value|number|level|figure|size) of|(?:the )?percent(?:age)? (?:chang(?:e|ed)|increase|decrease|"
    r"growth|decline)(?: (?:in|of))?|(?:the )?(?:rate of )?growth(?: rate)?(?: (?:in|of))?|"
    r"compare[sd]? (?:to|with|against)(?! (?:the )?same\b)|chang(?:e|ed)|increas(?:e|ed)|decreas(?:e|ed)|grow|"
    r"improv(?:e|ed)|worsen(?:ed)?|deteriorat(?:e|ed)|"
    r"grew|decline[ds]?|year[- ]over[- ]year|yoy|compared (?:to|with) (?:the )?(?:prior|previous|last) (?:year|"
    r"quarter|period)|by how much|(?:the )?(?:fiscal )?(?:quarter|year|three months|six months|nine months|"
    r"period) (?:ended|ending)|(?:in|for|during|over) (?:the|this|that|its|their) (?:latest |most recent |current )?"
    r"(?:fiscal )?(?:quarter|year|period)(?! (?:ended|ending)\b)|"
    r"(?:at|as of|by) (?:the )?(?:end|close) of (?:the|this|that|its|their) (?:latest |most recent |current )?"
    r"(?:fiscal )?(?:quarter|year|period)(?! (?:ended|ending)\b)|(?:at|as of) (?:the )?(?:quarter|year|period)[- ]end|"
    r"(?:at|as of|by) (?:the )?(?:end|close) of|as of|"
    r"(?:(?:in|during|for|over) )?(?:the )?first (?:three|six|nine|twelve|3|6|9|12) months(?: of)?|"
    r"(?:(?:as )?(?:reported|stated|shown|disclosed|presented) )?in (?:its|their|the) (?:[\w-]+ )?"
    r"(?:10-q|10-k|report|filing|statement|release)s?|(?:its|their) own|"
    r"(?:of|on|in|from|for) (?:this|the|that|my|our) (?:receipt|invoice|bill|document|report|statement|filing|page|"
    r"file)s?|"
    # "unadjusted operating income": the line as printed; "expect to pay": the figure a table of estimates prints;
    # "its debt on balance sheet between 2022 and the 2021 fiscal period": where it is printed, and when
    r"unadjusted|(?:expect(?:s|ed)?|anticipat(?:es|ed)?|plan(?:s|ned)?)\s+to|(?:came|come|comes|coming)\s+from|"
    r"(?:on|in|from) (?:the |its |their )?(?:consolidated )?balance sheets?|between and(?: the)?|"
    r"(?:the )?fiscal periods?|(?:latest|most recent(?:ly)?)(?: reported)?)\b",
    re.IGNORECASE,
)
#: an instruction that opens the question ("Show me …", "Tell me …", "Give me the …")
_IMPERATIVE = re.compile(r"^(?:please\s+)?(?:show|tell|give|list|find|get|provide)(?:\s+me)?(?:\s+the)?\s+",
                         re.IGNORECASE)
#: what a company "earned" or "made", asked with no item ("How much did Acme earn in FY22?"): its net income
_EARNED = re.compile(r"(?i)(?:earn|earned|make|made)(?:\s+in\s+(?:profits?|net\s+income))?|profits?")
#: the analyst's "top line" and "bottom line": the income statement's first line (revenue) and last (net income)
_TOP_LINE = re.compile(r"(?i)top[\s-]+line")
_BOTTOM_LINE = re.compile(r"(?i)bottom[\s-]+line")
#: what a company "lost" ("How much did Acme lose in 2022?", "How much money did Acme lose?"): its net loss
_LOST = re.compile(r"(?i)(?:money\s+(?:did\s+)?)?(?:lose|lost)(?:\s+money)?")
#: a question word or an auxiliary anywhere: a sentence, not a search box's words
_SENTENCE_WORDS = re.compile(r"(?i)\b(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|do|does|did|has|"
                             r"have|had|can|could|will|would|should|we|i|you|if)\b")
#: a search-box question that opens with the company's name ("Corning net income 2022?", "General Mills operating
#: profit FY22"): the capitalised words before the first word in lower case
_KEYWORD_OWNER = re.compile(r"^(?P<name>[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*){0,3})\s+(?=[a-z])")
#: money paid out, asked with its verb ("How much cash did Acme spend on share repurchases?", "… return to
#: shareholders through dividends"): the verb says which way the cash went, the words after it name the line item
#: ("cash … generate from / use in operating activities" keeps its words: they are the item's own)
_CASH_OUT = re.compile(
    r"^(?:cash|money)\s+(?:(?:did|does|do|has|have|had|will|would)\s+)?(?=(?:spen[dt]|pa(?:y|id)|return(?:ed)?|"
    r"distribut(?:e|ed)|allocat(?:e|ed))\b)|"
    r"\breturn(?:ed)?\s+(?:(?:cash|money|capital)\s+)?(?:to\s+(?:its\s+|their\s+)?(?:share|stock)?holders|to\s+"
    r"(?:its\s+|their\s+)?(?:investors|owners))?\s*(?:through|via|in\s+the\s+form\s+of|by\s+way\s+of|as|in)\s+"
    r"(?=\w)",
    re.IGNORECASE,
)
#: the verb after the subject that closes the question ("How much interest did Acme pay?", "How much revenue did
#: Acme generate?"): the item is the noun before it
#: "(Was) there any drop in …", "(Has there been) a change in …": the asked change, not the item's words
_CHANGE_NOUN = r"(?:drop|decline|decrease|increase|rise|change|growth|reduction|improvement|fall)s?"
_THERE_A_CHANGE = re.compile(
    r"^(?:(?:has|have|had|is|was|were)\s+)?there\s+(?:(?:has|have)\s+)?(?:been\s+)?(?:(?:any|a|an)\s+)?"
    r"(?:(?:significant|material)\s+)?(?:" + _CHANGE_NOUN + r"\s+)?(?:in|of)\s+(?=\w)|"
    r"^(?:any|a|an)\s+(?:(?:significant|material)\s+)?" + _CHANGE_NOUN + r"\s+(?:in|of)\s+(?=\w)",
    re.IGNORECASE,
)
_TRAILING_VERB = re.compile(
    r"\s+(?:did|does|do|has|have|had|will|would)\s+(?:(?:the|this|that)\s+(?:company|firm|group|business|"
    r"corporation|registrant)\s+|it\s+|they\s+)?(?:pay|spend|earn|generate|record|report|recognize|incur|"
    r"receive|collect|make|owe|hold|book|post|operate|employ|run|maintain|declare|announce|distribute|approve|"
    r"open|close|acquire|remodel|relocate)$",  # "How many stores did Acme close …": the count's movement column
    re.IGNORECASE,
)
#: "How many votes against did Ann Carter receive at the annual meeting?": what the subject received, and where — no
#: words of the item
_RECEIVED = re.compile(r"\s+(?:did|does|do|has|have|had|will|would)\s+(?:receive|get|obtain|gain|garner|win)\b.*$",
                       re.IGNORECASE)
#: "How many stores were open at …": the state of the things counted, no word of their line ("Total Stores")
_COUNTED_STATE = re.compile(r"\s+(?:were|are|was|is|remained|remain)\s+(?:open|in\s+operation|operating|in\s+service)$",
                            re.IGNORECASE)
_EN_EDGE = re.compile(
    r"^(?:(?:the|a|an|of|for|in|during|on|at|by|to|from|as|and|was|were|did|does|its|their)\s+)+|"
    r"^(?:have|has|had|hold|holds|held|keep|kept)\s+(?:in|on)\s+|"  # "How much did Acme have in cash …"
    r"^(?:has|have|had|is|are|did|does|do)\s+(?=(?:its|their)\s)|"  # "Has Acme increased its debt …?"
    r"^(?:spend|spent|pay|paid)\s+(?:on\s+|for\s+)?(?=(?:buying|repurchasing|purchasing)\b)|"  # "… spend buying back"
    r"(?:\s+(?:the|a|an|of|for|in|during|on|at|by|to|from|as|and|was|were|did|does|do|have|"
    r"had|be|been|its|their|it|since|until|through|between|versus|vs))+$",
    re.IGNORECASE,
)
#: (an "&" between capitalised words joins one name: "Harlow & Harlow's", not "Harlow's")
#: (a name may start lower-case before a capital: "eZoop's")
_POSSESSIVE = re.compile(
    r"\b((?:[A-Z0-9]|[a-z]+[A-Z])[\w&.\-]*(?:\s+(?:&\s+)?[A-Z][\w&.\-]*)*)(?:['’]s\b|(?<=s)['’])(?=\s)"
)
_COMPANY = re.compile(
    r"\b([A-Z][\w&\-]*(?:\s+[A-Z][\w&\-]*)*),?\s+(?:Inc|Corp|Corporation|Co|Ltd|LLC|plc|Group|"
    r"Holdings)\b\.?(?:['’]s\b)?"
)
#: "… of Apple", "… for 3M" at the end of the question (a period or "?" may follow) or before the period or the
#: source ("… for 3M at the end of FY2018", "… for 3M on the balance sheet"): the company asked about
#: (a parenthesised capitalised word belongs to the name, "Acme (UK)"; a remark in brackets ends it: "for Acme
#: (in USD millions)?")
_OF_NAME = re.compile(
    r"\b(?:of|for|at|by|from)\s+((?:[A-Z]|\d+[A-Z])[^\s?,(]*"
    r"(?:\s+(?:\([A-Z0-9][^\s?,()]*\)|[A-Z0-9&.\-][^\s?,(]*|of|and|de|&))*"
    r"(?:,\s+(?:Inc|Corp|Corporation|Co|Ltd|LLC|plc|N\.V|S\.A|AG|SE)\b\.?)?)"
    r"(?=\s*(?:\bin\b|\bduring\b|\bfor\b|\bas of\b|\bat\s+(?:the\s+)?(?:end|close|beginning|start|year)\b|"
    r"\b(?:will|would|has|have|had|did|does|do|can|could|should)\s+[a-z]|"
    r"\bon\s+(?:the|its|a)\b|\b(?:according|based|relying|per|using)\b|\bas\s+(?:reported|shown|stated)\b|[?,]|"
    r"\((?![A-Z0-9][^\s?,()]*\))|\.?$))"
)
#: the word a title puts before "of" ("Statement of Cash Flows", "Board of Directors", "Department of Defense"):
#: what follows is the rest of the title, not a company
_STATEMENT_OF = re.compile(r"(?i)\b(?:statements?|board|department|bureau|ministry|office|secretary|committee)\s*$")
#: the company a question opens with: "For Acme, which region …", "At Acme, how many …"
_OPENING_NAME = re.compile(r"^(?i:for|at|regarding|concerning|about)\s+((?:[A-Z]|\d+[A-Z])[\w&.\-]*"
                           r"(?:\s+(?:&\s+)?[A-Z][\w&.\-]*)*),")
_MONTH_DAY = re.compile(r"(?:{})\.?\s+\d".format("|".join(MONTHS)), re.IGNORECASE)
#: the subject between an auxiliary and its lower-case verb: "did Acme Widgets generate" (not "were Greater China
#: net sales": a region there qualifies the line item)
#: (the name may be followed by a remark in brackets: "did Quillon (formerly Tarrow) generate")
_SUBJECT = re.compile(
    r"\b(?i:did|does|do|has|have|had|will|would|could|can)\s+"
    r"((?:[A-Z][\w&.\-]*|\d+[A-Z][\w&.\-]*)(?:\s+(?:&\s+)?[A-Z][\w&.\-]*)*)\s+(?=[a-z(])"
)
#: (commas join a name's words only in a series that "&" ends: "Defense, Space & Security" is one segment's name,
#: "Apple, Microsoft and Amazon" three)
_CAPS = re.compile(r"\b(?:[A-Z][\w&\-]*|\d+[A-Z][\w&\-]*|[a-z]+[A-Z][\w\-]*)"
                   r"(?:,\s+[A-Z][\w&\-]*(?=(?:,\s+[A-Z][\w&\-]*)*\s+&\s+[A-Z]))*"
                   r"(?:\s+(?:[A-Z][\w&\-]*|of|and|&)){0,3}")
_PRONOUN = re.compile(r"^(?:it|they|this|that|them|its|그것|그|それ|これ)$", re.IGNORECASE)
_KO_VERB = re.compile(
    r"(?:인가요|인가|입니까|나요|니까|습니까|했나|됐나|되나|였나|세요|줘|주세요|어요|이에요|예요|"
    r"인지|는지|했는지|된|한|하는|되는|였던|했던|있는|는가)\??$"
)
_JA_ENDINGS = re.compile(r"(?:ました|ません|ます|です|でした|でしょう)か?|教えて(?:ください)?|ください")
_KO_ENDINGS = re.compile(r"(?:습니까|입니까|인가요|었나요|였나요|했나요|나요|니까|세요|주세요|알려\s?줘)(?=[\s?？]|$)")
_JA_NOT_FOCUS = re.compile(r"^(?:前年|前期|同期)比?$|増加|減少|増減|変化|上昇|下落|増え|減っ")
#: "at the end of fiscal 2019": when the period is, not a word the answer's sentence has to hold (a sentence says
#: "As of May 26, 2019, …")
_AT_THE_END = re.compile(r"(?i)\b(?:at|as\s+of|by)\s+(?:the\s+)?(?:end|close)\s+of\b")
#: "How many stores did Acme operate …", "… does Acme own": a verb of having what is counted, which a filing says
#: as "We had 1,138 stores" or "Total stores" — no word the answer must hold (a verb that says what happened to
#: them, "opened", "closed", "delivered", is the question's)
_HELD = re.compile(r"(?i)^(how\s+many\b.*?\b(?:did|does|do)\b.*?\s)(?:operate|run|own|maintain|hold|keep)\b")
_UNIT = re.compile(
    r"\bin (?:millions|thousands|billions)\b|\bpercent(?:age)?\b|%|\b(?:dollars|usd|won|yen)\b|"
    r"억\s?원|백만\s?원|천\s?원|百万円|千円|만\s?원",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    language: Language
    kind: Kind
    focus: str  # the line item / entity as written ("total net sales", "매출액")
    focus_terms: frozenset[str]
    terms: frozenset[str]  # content terms of the whole question (focus, names, everything but cue words)
    names: tuple[str, ...] = ()  # companies / documents named ("Apple's", "Tesla Inc.", "삼성전자의")
    strong_names: tuple[str, ...] = ()  # names whose absence from every passage means the documents are about
    periods: tuple[Period, ...] = ()  # something else
    #: a question that names no company in a name's usual places ("Is Acme a capital-intensive business?", "… that
    #: Acme sells"): its capitalised names, which no passage may lack either (they decline, like strong names) but
    #: which say nothing of whose filing a document is (no cover check, no search by owner)
    insisted_names: tuple[str, ...] = ()
    span: int | None = None  # 3 for a quarter / three months, 12 for a year ended
    relative: bool = False  # year over year / 전년 대비
    unit: str = ""
    document_kind: str = ""  # "receipt" when the question is about a receipt, bill or invoice
    statement: str = ""  # the financial statement the question or its instructions name ("cash", "balance", …)
    scale: str = ""  # the scale the question or its instructions ask the amount in ("million": "in USD millions")
    parts: tuple[Question, ...] = field(default=())

    @property
    def required_names(self) -> tuple[str, ...]:
        """The names no passage may lack: the strong ones and those insisted on."""
        return (*self.strong_names, *self.insisted_names)


#: a metric's abbreviation in the focus ("net PPNE", "COGS", "DPO")
_ABBREVIATION = re.compile(r"\b[A-Z][A-Z&]{1,5}\b")


#: the cash-flow statement's result line as a question names it ("net change in cash", "net increase (decrease) in
#: cash and cash equivalents"): a line item, not a change asked — read as its other name, "net cash flow"
_CHANGE_IN_CASH = re.compile(
    r"(?i)\b(?:net\s+)?(?:change|increase|decrease)s?(?:\s*(?:\(|/|or|and)\s*(?:increase|decrease)\)?)?\s+in\s+cash"
    r"(?:\s*,?\s*(?:and\s+)?cash\s+equivalents)?(?:\s*,?\s*(?:and\s+)?restricted\s+cash(?:\s+equivalents)?)?\b")


#: words a question may run together that documents print apart ("cashflow" → "cash flow")
_RUN_TOGETHER = re.compile(r"(?i)\b(cash)(flows?)\b")


def spelled_out(question: str) -> str:
    """``question`` with run-together words apart, as filings print them ("free cashflow" → "free cash flow")."""
    return _RUN_TOGETHER.sub(r"\1 \2", question)


def _kind(text: str, lang: Language, focus: str, *, dated_amount: bool = False) -> Kind:
    """``dated_amount``: the question names a period and asks an amount's unit ("What is the FY2021 net PPNE (in
    USD millions)?") — a "what is" that asks a figure, not a definition."""
    table = _KO_KIND if lang == "ko" else _JA_KIND if lang in ("ja", "zh") else _EN_KIND
    focus_groups = match_terms(focus)
    for kind, pattern in table:
        if pattern.search(text):
            if kind in ("definition", "yesno", "value") and "§13" in focus_groups:
                return "date"  # "what is the date of …"
            if kind in ("definition", "yesno") and lang == "en" and (
                _MEASURE_WORDS.search(focus) or LINE_ITEM_IDS & focus_groups or _NUMBER_ASKED.search(text)
            ):
                return "value"
            if kind == "definition" and lang == "en" and dated_amount:
                return "value"
            return kind
    if (lang == "en" and (_MEASURE_WORDS.search(focus) or _METRIC_WORDS.search(focus) or _NUMBER_ASKED.search(text))) \
            or _MEASURE_GROUPS & match_terms(focus):
        return "value"  # "What was Acme's working capital …?": an amount, though no statement prints its line
    if "§13" in focus_groups and len(re.findall(r"\w+", text)) <= 8:
        return "date"  # a short question that names a date: "receipt date?", "Date of purchase?"
    if lang == "en" and _DATE_HEAD.match(focus):
        return "date"  # "What was the effective date of her appointment …?": a date of something
    return "other"


#: a focus whose head is a date: "effective date of …", "the record date for …", "date of the merger"
_DATE_HEAD = re.compile(r"(?i)^(?:the\s+)?(?:[a-z]+\s+){0,2}date\s+(?:of|for|on)\b")


def _strip_spans(text: str, spans: list[tuple[int, int]]) -> str:
    merged: list[list[int]] = []
    for s, e in sorted(spans):  # overlapping spans (a name "at December 31" and the date) cut once
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    out = text
    for s, e in reversed(merged):
        out = out[:s] + " " + out[e:]
    return " ".join(out.split())


#: a question's opening word before a capitalised name ("Did JnJ's …", "Has Acme's …", "Is Acme's …"): no part of it
_OPENING_WORD = re.compile(
    r"^(?:has|have|had|is|are|was|were|did|does|do|will|would|can|could|should|may|might|must|what|how|which|why|"
    r"when|where|who|whose|"
    # an imperative's verb ("Compute Acme's working capital …")
    r"calculate|compute|find|determine|show|list|give|tell|estimate|summari[sz]e|describe|explain|compare|get|"
    # a preposition opening the question's setting ("At Acme's annual meeting, …", "In Acme's 2031 10-K, …")
    r"at|in|during|regarding|concerning|per)"
    r"\s+(?=\S)", re.IGNORECASE)


def _without_opening(name: str, start: int) -> tuple[str, int]:
    """``name`` (found at ``start``) without the question's opening word it was read together with."""
    m = _OPENING_WORD.match(name) if start == 0 else None
    return (name[m.end():], start + m.end()) if m else (name, start)


#: a finance metric's abbreviation inside a capitalised phrase ("Diluted EPS", "Adjusted EBITDA"): a measure, never
#: part of a company's name
_FINANCE_ABBREVIATION = re.compile(
    r"(?<![\w&])(?:EPS|EBITDAR?|EBIT|GAAP|CAPEX|COGS|OPEX|FCF|PP&E|PPE|PPNE|SG&A|R&D|D&A|ROA|ROE|ROIC|DSO|DPO|DIO|"
    r"P&L|TTM|YOY|QOQ|VAR)(?![\w&])", re.IGNORECASE)


def _company_part(text: str, name: str, start: int, end: int) -> tuple[str, int, int]:
    """``name`` read as "<line item> of <company>" ("Accounts Payable of Best Buy", "Net Revenues of MGM
    Resorts"): the company after the last "of", its span from that "of" — the line item stays in the focus. A
    name whose words before "of" are not all a line item's (a title's "Bank of America") is kept whole."""
    parts = re.split(r"\s+of\s+", name)
    if len(parts) < 2:
        return name, start, end
    head = " ".join(parts[:-1])
    groups = match_terms(head)
    if not groups or not all(g.startswith("§") for g in groups):
        return name, start, end
    at = text.rfind(" of " + parts[-1], start, end + 1)
    return (parts[-1], at + 1, end) if at >= 0 else (name, start, end)


def _alias_end(text: str, end: int) -> int:
    """Where a company's name that ends at ``end`` ends with its other name in brackets after it ("Block
    (Square)")."""
    m = _ALIAS_AFTER.match(text, end)
    return m.end() if m else end


def _en_names(text: str) -> tuple[list[str], list[str], list[tuple[int, int]], list[str]]:
    """(strong names, soft names, the strong names' spans, names insisted on — see ``Question.insisted_names``)."""
    strong: list[tuple[str, int, int]] = []
    for m in _POSSESSIVE.finditer(text):
        name, start = _without_opening(m.group(1), m.start())
        strong.append((name, start, m.end()))
    for m in _COMPANY.finditer(text):
        name, start = _without_opening(m.group(1), m.start())
        strong.append((name, start, m.end()))
    for m in _SUBJECT.finditer(text):  # "How much cash did Acme Widgets generate …"
        if not any(s <= m.start(1) < e for _, s, e in strong):
            strong.append((m.group(1), m.start(1), m.end(1)))
    for m in _OPENING_NAME.finditer(text):
        strong.append((m.group(1), m.start(), m.end()))
    for m in _OF_NAME.finditer(text):
        if _STATEMENT_OF.search(text[: m.start()]):
            continue  # "the Statement of Financial Position", "Statements of Operations": a title, not a company
        if not any(s <= m.start(1) < e for _, s, e in strong):
            name = re.sub(r",\s+(?:Inc|Corp|Corporation|Co|Ltd|LLC|plc|N\.V|S\.A|AG|SE)\b\.?$", "", m.group(1))
            if all(t.startswith("§") for t in match_terms(name)):
                continue  # a line item capitalised ("… of Revenue has been deferred"), not a company
            strong.append((name.rstrip(".").strip(), m.start(), m.end()))
    strong = [_company_part(text, n, s, e) for n, s, e in strong]
    # "Block (Square)": the company's other name in brackets right after it is part of its span, not the item's
    strong = [(n, s, _alias_end(text, e)) for n, s, e in strong]
    strong = [
        (n, s, e)
        for n, s, e in strong
        if n.lower().rstrip(".") not in EN_CAPS_GENERIC
        and not _FINANCE_ABBREVIATION.search(n)
        and n.lower() not in MONTHS
        and not find_periods(n)
        and not _MONTH_DAY.match(n)  # "December 31" of a date
        and not re.fullmatch(r"(?:Q[1-4]|FY\d*|H[12])", n)
    ]
    soft: list[str] = []
    remarks = [(m.start(), m.end()) for m in _NAME_REMARK.finditer(text)]  # "(formerly known as Square)": the
    first_word = re.match(r"\s*\S+", text)  # same company's other name, no second one to find
    first_end = first_word.end() if first_word else 0
    each_name: list[str] = []
    for m in _CAPS.finditer(text):
        name = re.sub(r"\s+(?:of|and|&)$", "", m.group(0))
        words = [w for w in name.split() if w.lower().rstrip(".") not in EN_CAPS_GENERIC
                 and w.lower().rstrip(".") not in MONTHS
                 and not re.fullmatch(r"(?i)(?:FY|CY|Q[1-4]|H[12])'?\d{2,4}", w)]  # "FY2021 COGS": no name
        if m.start() < first_end and words and words[0] == name.split()[0]:
            words = words[1:]  # the question's opening word is capitalised as the first ("If JPM went …")
        if (m.start() < first_end and len(name.split()) == 1) or not words or any(
                s <= m.start() < e for s, e in remarks):
            continue
        if re.fullmatch(r"(?:Q[1-4]|FY\d*|H[12]|\d+[a-z]*|\d+[KQFH]|\d+\w*\d|[A-Z])", name) or any(
                n in name for n, _, _ in strong):  # "10K", "2Q", "2022", "8-K"s "K": no name ("3M" is one)
            continue
        soft.append(" ".join(words))
        # names joined by "and" ("iPad and Mac") are each a name when insisted on
        each_name += [" ".join(w for w in part.split() if w in words) for part in re.split(r"\s+and\s+", name)]
    # "the Acme AGM": a capitals' abbreviation after a name written in lower case is the thing, not the name
    promoted = [re.sub(r"\s+[A-Z]{2,5}$", "", n) if re.match(r"[A-Z][a-z]", n) else n
                for n in dict.fromkeys(each_name) if n and _company_like(n)]
    # "the Acme AGM … a report by Acme": the company is the name the longer one holds
    promoted = [n for n in promoted if not any(o != n and re.match(re.escape(o) + r"\b", n) for o in promoted)]
    strong_names = [n for n, _, _ in strong]
    # several such names ("excluding Embedded, in which Acme segment …"): which one is the company is not known
    insisted = promoted if not strong_names and len(promoted) == 1 else []
    return strong_names, soft, [(s, e) for _, s, e in strong], insisted


def _company_like(name: str) -> bool:
    """A capitalised name that a question with no company in a name's usual places ("… of Acme", "Acme's") may
    still be about ("Is Acme a capital-intensive business?", "… that Acme sells"): no line item's words ("Cash &
    Cash"), no metric, Latin letters only (not "Acme는" of a Korean question), at most four words — insisted on
    (``Question.insisted_names``) when it is the only one and the question has no strong name."""
    groups = match_terms(name)
    return (name.isascii() and bool(groups) and not any(g.startswith("§") for g in groups) and len(name.split()) <= 4
            and not _FINANCE_ABBREVIATION.search(name))


#: a Latin-script word in a Korean/Japanese question (the particle glued on after it is not part of it)
_CJK_LATIN = re.compile(r"(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9&\-]*(?:\.(?=[A-Za-z\s]))?(?:\s+[A-Z][A-Za-z0-9&\-]*\.?)*")
#: measurement units and single letters written in Latin script: not names ("몇 m가", "2.13m로", "A씨")
_LATIN_UNIT = re.compile(r"(?i)^(?:[a-z]|[kcm]?m|[km]?g|m[lL]|kWh?|MW|GW|ha|ft|in|lb|oz|km/h|mph|vs|etc)\.?$")


def _ja_tail(segment: str) -> str:
    """The noun right before a Japanese の: the last kanji/katakana/Latin run ("東京で開かれた大会" → "大会")."""
    m = re.search(r"[\u4e00-\u9fff\u3400-\u4dbf\u30a0-\u30ffA-Za-z0-9々ー]+$", segment)
    return m.group(0) if m else segment


def _cjk_names(text: str, lang: Language) -> tuple[list[str], list[str], list[tuple[int, int]]]:
    """Latin-script names (strong) and possessive stems ``X의`` / ``Xの`` (soft) of a Korean/Japanese question.

    A possessive stem is strong (its absence from every passage declines) only at the head of the question,
    where it names whose value is asked ("테슬라의 2020년 매출액"); elsewhere ("… 인물의 이름은?") it is as often
    a common noun as a name, and counts as soft.
    """
    strong = [
        (m.group(0).rstrip("."), m.start(), m.end())
        for m in _CJK_LATIN.finditer(text)
        if m.group(0).lower() not in EN_CAPS_GENERIC and not re.fullmatch(r"Q[1-4]|FY\d*|H[12]", m.group(0))
        and not _LATIN_UNIT.match(m.group(0))
    ]
    marker = "의" if lang == "ko" else "の"
    possessive = r"(\S+?)의(?=\s)" if lang == "ko" else r"([^\sのはがを、。？?]+)の"
    soft: list[str] = []
    spans = [(s, e) for _, s, e in strong]
    head = _strip_spans(text, [(p.start, p.end) for p in find_periods(text)]).split()
    for m in re.finditer(possessive, text):
        stem = ko_stem(m.group(1).strip("'\"‘’“”「」『』()")) if lang == "ko" else _ja_tail(m.group(1))
        if find_periods(stem) or len(stem) < 2 or any(c in stem + marker for c in (*KO_CUES, *JA_CUES)):
            continue
        if re.search(r"[A-Za-z]", stem):
            spans.append((m.start(), m.end()))
            continue
        at_head = bool(head) and head[0].startswith(stem + marker)
        if GENERIC_DOCUMENT.search(stem) or not at_head:
            soft.append(stem)
        else:
            strong.append((stem, m.start(), m.end()))
        spans.append((m.start(), m.end()))
    return [n for n, _, _ in strong], soft, spans


#: a remark in brackets on the company's other name ("Block (formerly known as Square)"): no words of the item
_NAME_REMARK = re.compile(r"\((?:formerly|previously|now|f/k/a|fka|also\s+known|a\.k\.a\.?|aka)\b[^()]*\)",
                          re.IGNORECASE)
#: a proper name in brackets right after a company's name ("Block (Square)", "Alphabet (Google)")
_ALIAS_AFTER = re.compile(r"\s*\((?:[A-Z][\w&.'’-]*)(?:\s+[A-Z][\w&.'’-]*){0,3}\)")
#: the verb a subject left at the front ("how much did Acme | generate in cash flow from operating activities"):
#: the item follows it
_LEADING_FLOW_VERB = re.compile(r"^(?:generate|generated|produce|produced|bring|brought)\s+(?:in\s+)?(?=\w)",
                                re.IGNORECASE)
#: "the total of NVIDIA's liabilities", "the sum of its current liabilities": the item's total ("total liabilities")
#: a count asked in words that the item's focus leaves out ("the number of paid memberships": the memberships)
_NUMBER_ASKED = re.compile(r"(?i)\bnumber\s+of\b")
_NUMBER_OF = re.compile(r"(?:^|(?<=\btotal\s))(?:the\s+)?number\s+of\s+(?=\w)", re.IGNORECASE)
_TOTAL_OF = re.compile(r"\b(?:the\s+)?(?:total|sum)\s+of\s+(?:the\s+|its\s+|their\s+)?(?=\w)", re.IGNORECASE)


#: a clause after the item that asks it compared: "… and how did it compare to 2016?", ", and how does that change …"
_COMPARE_CLAUSE = re.compile(r"(?i),?\s+and\s+how\s+(?:did|does|do|has|have|is|was)\s+(?:it|that|this|they|these|"
                             r"those)\s+(?:compare[ds]?|change[ds]?)\b[^?]*")


#: the reported basis said outright: "GAAP diluted EPS", "… on a GAAP basis" (never "non-GAAP")
_GAAP_BASIS = re.compile(r"(?i)(?:\bon\s+an?\s+)?(?<!non-)(?<!non\s)\b(?:U\.?S\.?\s+)?GAAP\b(?:\s+basis\b)?")


def _en_focus(text: str, periods: list[Period], name_spans: list[tuple[int, int]]) -> str:
    body = _strip_spans(text, [(p.start, p.end) for p in periods] + name_spans)
    body = _COMPARE_CLAUSE.sub("", body)  # "… in 2017 and how did it compare to 2016?": the item is before it
    body = _GAAP_BASIS.sub(" ", body)  # "GAAP diluted EPS": the statement's own figure, no word of its line
    body = re.sub(r"^[^?]*?,\s*(?=(?:what|which|who|whom|when|where|why|how)\b)", "", body.strip(), flags=re.IGNORECASE)
    body = _EN_LEAD.sub("", _IMPERATIVE.sub("", body.strip().rstrip("?.").strip()))
    body = _CASH_OUT.sub(" ", body).strip()
    body = re.sub(r"(?i)\b(?:(?:for|in|during)\s+)?(?:the\s+)?full[\s-]years?\b", " ", body)  # a span, not an item
    body = _EN_FILLER.sub(" ", body)
    body = _TOTAL_OF.sub("total ", body)
    body = _NUMBER_OF.sub("", body)  # "the total number of stores": the stores (the question's words ask a count)
    body = re.sub(
        r"\((?:[^()]*\b(?:in|usd|dollars?|millions?|billions?|thousands?|percent|%)\b[^()]*)\)",
        " ",
        body,
        flags=re.IGNORECASE,
    )
    body = _NAME_REMARK.sub(" ", body)
    body = STATEMENT_FILLER.sub(" ", " ".join(body.split()))
    body = re.sub(r"[?,;:]", " ", body)
    body = _LEADING_FLOW_VERB.sub("", _RECEIVED.sub("", body.strip()))
    for _ in range(3):
        body = _COUNTED_STATE.sub("", _TRAILING_VERB.sub("", _EN_EDGE.sub("", " ".join(body.split()))))
    body = _THERE_A_CHANGE.sub("", body).strip()
    if _EARNED.fullmatch(body) or _BOTTOM_LINE.fullmatch(body):
        return "net income"
    return "net loss" if _LOST.fullmatch(body) else "revenue" if _TOP_LINE.fullmatch(body) else body


def keyword_owned(text: str) -> str:
    """A search-box question that opens with the company's name, as the reader reads it: "Corning net income
    2022?" → "Corning's net income 2022?" (a question's opening word is otherwise no name); ``text`` itself when it
    opens with a question word, an instruction, a line item or a period."""
    m = _KEYWORD_OWNER.match(text)
    if m is None or _EN_ASK.match(text) or _IMPERATIVE.match(text) or _SENTENCE_WORDS.search(text):
        return text  # a sentence ("Roughly how many times has Acme …", "If Acme went bankrupt, how much …")
    name = m.group("name")
    if name.split()[0] in _QUESTION_WORDS or name.lower().rstrip(".") in EN_CAPS_GENERIC or find_periods(name) \
            or re.search(r"ly$", name.split()[0]) \
            or any(t.startswith("§") for t in match_terms(name)) or re.search(r"['’]s?$", name):
        return text
    return f"{name}'s {text[m.end():]}"


#: a kind of document, not a company ("receipt date?", "invoice total")
_DOCUMENT_WORD = re.compile(r"(?:receipts?|invoices?|bills?|documents?|reports?|filings?|statements?|pages?|files?|"
                            r"forms?|tables?|notes?|exhibits?|schedules?|letters?|contracts?|agreements?|proxy|slides?|"
                            r"releases?|transcripts?|orders?|tickets?|purchases?|payments?|stores?|shops?)")


def search_box_head(text: str) -> str:
    """The opening word of a search-box question typed in lower case ("nike revenue fy21" → "nike") — a company's
    name if its documents are named so, or if no document holds the word at all (``read`` decides) —; "" for a
    sentence, a capitalised opening or a word of the item ("total", "cash", "revenue")."""
    m = re.match(r"([a-z][a-z&\-]{2,})\s+\S", text.strip())
    if m is None or _SENTENCE_WORDS.search(text) or _IMPERATIVE.match(text.strip()):
        return ""
    head = m.group(1)
    if head in EN_CAPS_GENERIC or any(t.startswith("§") for t in match_terms(head)) or find_periods(head) \
            or head in MONTHS or _FINANCE_ABBREVIATION.fullmatch(head) or _DOCUMENT_WORD.fullmatch(head) \
            or RECEIPT_WORDS.search(head):
        return ""  # ("receipt date?": the document asked of, no company)
    return head


def _ko_focus(text: str, periods: list[Period], name_spans: list[tuple[int, int]]) -> str:
    body = _strip_spans(text, [(p.start, p.end) for p in periods] + name_spans)
    words: list[str] = []
    for token in re.sub(r"[?？.!,]", " ", body).split():
        if any(cue in token for cue in KO_CUES) or (_KO_VERB.search(token) and len(words) > 0):
            continue
        for particle in KO_PARTICLES:
            if token.endswith(particle) and len(token) > len(particle) + 1:
                token = token[: -len(particle)]
                break
        if token and not re.fullmatch(r"대비|전년|동기|기준|얼마나|얼마|있나요|했나요", token):
            words.append(token)
    return " ".join(words)


def _ja_focus(text: str, periods: list[Period], name_spans: list[tuple[int, int]]) -> str:
    body = _strip_spans(text, [(p.start, p.end) for p in periods] + name_spans)
    body = re.sub(r"[？?。、！!]", " ", body)
    body = _JA_ENDINGS.sub(" ", body)
    for cue in sorted(JA_CUES, key=len, reverse=True):
        body = body.replace(cue, " ")
    keep = [
        seg.strip()
        for seg in JA_PARTICLES.split(body)
        if seg.strip() and not any(cue in seg for cue in JA_CUES) and not _JA_NOT_FOCUS.search(seg.strip())
    ]
    return "の".join(keep)


#: a question about a receipt, bill or invoice: such documents print key-value lines (TOTAL : 9.00), not tables
RECEIPT_WORDS = re.compile(
    r"(?i)\b(?:receipts?|bills?|invoices?|till slips?)\b|영수증|계산서|レシート|領収書|請求書"
)


#: (not "&": it joins one company's name — "Harlow & Harlow", "Procter & Gamble"; two companies are listed with
#: "and", commas, "vs")
_SEVERAL = re.compile(r"\s+(?:and|vs\.?|versus|or)\s+|\s*,\s*", re.IGNORECASE)


#: one name's words in a series that "&" ends ("Defense, Space & Security"): its commas list no companies
_AMPERSAND_SERIES = re.compile(r"[A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*)*(?:,\s+[A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*)*)+"
                               r"\s+&\s+[A-Z][\w.\-]*(?:\s+[A-Z][\w.\-]*)*")


def _each(names: list[str]) -> list[str]:
    """"Apple and Amazon" names two companies: each must be found (or declined) on its own."""
    return [part for name in names
            for part in ([name] if _AMPERSAND_SERIES.fullmatch(name) else _SEVERAL.split(name)) if part.strip()]


#: the verbs a cash-flow line item is asked with ("cash did Acme use in investing activities"): the item's group
#: says which way the cash went, so the verb left over from a loosely matched item is no word of the row
_FLOW_VERBS = frozenset("use uses used generate generates generated provide provides provided".split())


#: a measure word after the item: "share count" counts the shares
_COUNT_WORD = re.compile(r"(?i)(?<=\w)\s+count$")
#: "inventory balance", "cash levels": the item at a date, not a word its line must hold
_BALANCE_WORD = re.compile(r"(?i)(?<=\w)\s+(?:balance|level)s?$")


#: receivables, which the balance sheet prints net of their allowance whether or not the label says so
#: ("Receivables", "Accounts receivable, net"): "net accounts receivable" asks that line (property, plant and
#: equipment keeps its "net": a balance sheet prints its gross amount, less depreciation, above the net line)
_NET_OF_ALLOWANCE = re.compile(r"(?i)^net\s+(?=(?:trade\s+)?(?:accounts\s+)?receivables?\b)")


def item_phrase(focus: str) -> str:
    """The English focus as the item its line names: without "count" ("share count"), "balance"/"level"
    ("inventory balance") or the "net" of receivables ("net accounts receivable")."""
    return _NET_OF_ALLOWANCE.sub("", _BALANCE_WORD.sub("", _COUNT_WORD.sub("", focus)))


def _focus_terms(focus: str, lang: Language) -> set[str]:
    """The focus's matching terms; a statement line item asked in other words ("cash … generated from
    operations") names its group (``statements.loose_line_item``)."""
    if lang == "en":
        focus = item_phrase(focus)  # "share count": the shares counted; "inventory balance": the inventory
    exact = match_terms(focus)
    if lang != "en" or exact & LINE_ITEM_IDS:
        return exact
    loose = loose_line_item(focus, LINE_ITEM_FIRST, frozenset(stems(" ".join(group_words(focus)))))
    if loose is None:
        return exact
    group, used = loose
    rest = " ".join(
        w for w in re.findall(r"[\w&'’-]+", focus) if w.lower() not in used and w.lower() not in _FLOW_VERBS
    )
    return match_terms(rest) | {group}


def _two_years(text: str, periods: list[Period]) -> bool:
    """Two periods of different years said side by side ("in FY2021 and FY2020", "2022 vs 2021")."""
    ordered = sorted(periods, key=lambda p: p.start)
    return any(
        a.year is not None and b.year is not None and a.year != b.year
        and re.fullmatch(r"\s*(?:,|and|&|vs\.?|versus)\s*", text[a.end : b.start], re.IGNORECASE) is not None
        for a, b in pairwise(ordered)
    )


#: a ticker written before the item it qualifies ("NFLX revenues")
_TICKER = re.compile(r"[A-Z]{2,5}")


def _one(text: str, lang: Language) -> Question:
    periods = find_periods(text)
    if lang == "en":
        strong, soft, name_spans, insisted = _en_names(text)
        focus = _en_focus(text, periods, name_spans)
        lead = focus.split(" ", 1)
        if len(lead) == 2 and lead[0] in soft and _TICKER.fullmatch(lead[0]):
            focus = lead[1]  # "What were NFLX revenues for 2017?": the ticker names the company, not the item
    else:
        strong, soft, name_spans = _cjk_names(text, lang)
        insisted = []
        focus = _ko_focus(text, periods, name_spans) if lang == "ko" else _ja_focus(text, periods, name_spans)
    span = span_months(text) or (3 if quarter_span(text) or any(p.quarter for p in periods) else None)
    span = span or (6 if any(p.half for p in periods) else None)
    unit_m = _UNIT.search(text)
    cue_free = _JA_ENDINGS.sub(" ", text) if lang in ("ja", "zh") else _KO_ENDINGS.sub(" ", text)
    for cue in sorted((*KO_CUES, *JA_CUES), key=len, reverse=True):
        cue_free = cue_free.replace(cue, " ")
    kind = _kind(text, lang, focus, dated_amount=bool(periods) and (
        bool(unit_m) or bool(asked_scale(text)) or bool(_ABBREVIATION.search(focus))))
    if kind == "value" and lang == "en" and _two_years(text, periods):
        kind = "comparison"  # "net sales in FY2021 and FY2020": both values, side by side
    return Question(
        text=text,
        language=lang,
        kind=kind,
        focus=focus,
        focus_terms=frozenset(_focus_terms(focus, lang)),
        terms=frozenset(match_terms(_EN_LEAD.sub("", _AT_THE_END.sub(" ", _HELD.sub(r"\1", cue_free)).strip()))),
        names=tuple(dict.fromkeys(_each([*strong, *soft]))),
        strong_names=tuple(dict.fromkeys(_each(strong))),
        insisted_names=tuple(dict.fromkeys(insisted)),
        periods=tuple(periods),
        span=span,
        relative=is_relative(text),
        unit=unit_m.group(0) if unit_m else "",
        document_kind="receipt" if RECEIPT_WORDS.search(text) else "",
    )


_EN_SPLIT = re.compile(
    r"(?<=\?)\s+(?=\S)|,?\s+and\s+(?=(?:what|how|when|who|which|where|why)\b)|" + SENTENCE_SPLIT, re.IGNORECASE
)
_CJK_SPLIT = re.compile(r"(?<=[?？])\s*(?=\S)|\s+그리고\s+|、また")


_EN_ASK = re.compile(
    r"^(?:(?:and|so|also|then)\s+)?(?:what|which|who|whom|whose|when|where|why|how|is|are|was|were|"
    r"do|does|did|can|could|has|have|had|will|would|should)\b",
    re.IGNORECASE,
)


def _is_ask(piece: str, lang: Language) -> bool:
    """A question (ends with "?" or opens with a wh-word / auxiliary), not an instruction around one."""
    if piece.rstrip().endswith(("?", "？")):
        return True
    if lang == "en":
        return bool(_EN_ASK.match(piece))
    return any(cue in piece for cue in (*KO_CUES, *JA_CUES))


#: an ask that refers back to the item before it: "how did it compare …", "how does that change …"
_PRONOUN_ASK = re.compile(r"(?i)\b(?:it|that|this|they|these|those)\s+(?:compare|change|grow|increase|decrease)")


def analyze(text: str) -> Question:
    """The question's analysis; ``parts`` holds each ask of a two-part question (else empty)."""
    lang = detect_language(text)
    clean = " ".join(text.split())
    if lang == "en":
        clean = _CHANGE_IN_CASH.sub("net cash flow", keyword_owned(clean))
    splitter = _EN_SPLIT if lang == "en" else _CJK_SPLIT
    pieces = [p.strip() for p in splitter.split(clean) if p and p.strip() and re.search(r"\w", p)]
    asks = [p for p in pieces if _is_ask(p, lang)]
    if lang == "en" and len(asks) == 1 and BACK_REFERENCE.match(asks[0]) and pieces.index(asks[0]) > 0:
        before = pieces[pieces.index(asks[0]) - 1].rstrip(" .")  # "… I need X for Q3. What was it?": X for Q3
        asks = [f"{before} {BACK_REFERENCE.sub('', asks[0]).strip()}".strip()]
    if asks and len(asks) < len(pieces):
        clean = " ".join(asks)  # "… ? Give a response based on the cash flow statement." — an instruction, no ask
    whole = replace(_one(clean, lang), statement=statement_kind(text), scale=asked_scale(text) if lang == "en" else "")
    pieces = asks
    if len(pieces) < 2:
        return whole
    parts: list[Question] = []
    for piece in pieces:
        part = _one(piece, lang)
        if parts:
            prev = parts[-1]
            if not part.focus or _PRONOUN.match(part.focus):
                part = replace(
                    part, focus=prev.focus, focus_terms=prev.focus_terms, terms=part.terms | prev.focus_terms
                )
            if not part.periods:
                part = replace(part, periods=prev.periods, span=part.span or prev.span)
            elif part.kind in ("change", "comparison") and len(part.periods) == 1 and _PRONOUN_ASK.search(piece) \
                    and prev.periods and all(p.text != part.periods[0].text for p in prev.periods):
                # "What was X in 2017 and how did it compare to 2016?": the year before is compared with 2017
                part = replace(part, periods=(*prev.periods, *part.periods), span=part.span or prev.span)
            if not part.names:
                part = replace(part, names=prev.names, strong_names=prev.strong_names,
                               insisted_names=prev.insisted_names)
        parts.append(replace(part, statement=part.statement or whole.statement, scale=whole.scale))
    return replace(whole, parts=tuple(parts))


_CAPITALISED = r"[A-Z][\w&.\-]*(?:\s+[A-Z][\w&.\-]*)*"
#: a name of capitalised words, "&" joining its last ("Johnson & Johnson"), commas its others ("Defense, Space &
#: Security"): one company's or one part's name — a list of several is joined by "and", "or", "vs"
_PROPER = rf"(?:{_CAPITALISED}(?:,\s+{_CAPITALISED})*\s+&\s+)?{_CAPITALISED}"
_QUESTION_WORDS = {"What", "How", "Which", "Who", "When", "Where", "Why", "Did", "Does", "Do", "Is", "Are", "Was",
                   "Were", "Compare", "Please", "Tell", "Show", "List", "The", "In", "For"}
#: (not "&", which joins one company's name: see ``_SEVERAL``)
_TWO_NAMES = re.compile(
    r"(?P<a>" + _PROPER + r")(?:['’]s)?\s+(?:and|vs\.?|versus|or)\s+(?P<b>" + _PROPER + r")(?P<poss>['’]s)?"
)


#: a part of a company named in the singular after a pair of capitalised words: the pair is that one part's name
_ONE_PART = re.compile(r"(?i)\s+(?:reportable\s+|operating\s+|business\s+)?(?:segment|division|business\s+unit|"
                       r"business\s+group)\b(?!s)")


def asking_sentence(question: str) -> str:
    """The question up to its first question mark: what is asked, without the instructions that may follow it ("…?
    If operating margin is not a useful metric, then state that …")."""
    return question.split("?", 1)[0]


def subject_of(question: str) -> str:
    """The company a question is about, for a search's words: its strong name, else the one it insists on, else its
    first name ('' when it names none)."""
    q = analyze(question)
    return " ".join((q.strong_names or q.insisted_names or q.names)[:1])


def item_without(q: Question, framing: re.Pattern[str]) -> str:
    """The line item a question asks about: its focus without the ``framing`` words (a comparison's, a change's),
    the companies' names and a dangling preposition ("net income" of "Boeing's higher net income")."""
    item = framing.sub(" ", q.focus)
    for name in q.names:
        item = re.sub(r"(?i)\b" + re.escape(name) + r"(?:['’]s)?\b", " ", item)
    return re.sub(r"(?i)^(?:(?:in|of|for|at|and|the)\s+)+|(?:\s+(?:in|of|for|at|and|the))+$", "",
                  " ".join(item.split()))


def per_name_questions(question: str) -> list[str]:
    """``question`` itself, or — when it names two companies or documents ("Apple and Microsoft", "Apple vs.
    Amazon") — one question per name, the pair replaced by that name: the local model searches each, and the
    reader answers each from its own passages. English names only (capitalised words). A question that names
    the document it is about ("the receipt from SERI BAKERY & CAFE") names one document: it is not split."""
    if parse_selector(question)[0].names:
        return [question]
    for m in _TWO_NAMES.finditer(question):
        a, b = m.group("a"), m.group("b")
        words_a = a.split()
        while words_a and words_a[0] in _QUESTION_WORDS:
            words_a = words_a[1:]
        if not words_a or b.split()[0] in _QUESTION_WORDS:
            continue
        if find_periods(" ".join(words_a)) or find_periods(b):
            continue  # "in FY2021 and FY2020": two periods, not two companies
        if _ONE_PART.match(question, m.end()):
            continue  # "3M's Safety and Industrial segment": one segment's name, "and" and all
        a = " ".join(words_a)
        start = m.start("a") + m.group("a").index(a)
        head, tail = question[:start], question[m.end():]
        poss = m.group("poss") or ""
        return [f"{head}{name}{poss}{tail}" for name in (a, b)]
    return [question]
