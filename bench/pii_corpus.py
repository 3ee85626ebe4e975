"""A labelled synthetic corpus for the PII detectors (deterministic, seeded): Korean, Japanese and English
sentences with planted values of every type — valid ones (labelled with their span) and near-misses that
must *not* be found (a failed check digit, an impossible date, an unlabelled account-shaped number, a
financial figure) — mixed with 10-Q-style filler full of numbers.

``corpus(seed, docs)`` → a list of ``Sample(text, spans)`` with ``spans`` = [(type, start, end)]; used by
``python -m bench.pii`` and by ``tests/ingest/test_pii_corpus.py``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

# --- valid values --------------------------------------------------------------------------------------

_W = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)


def _rrn(rng: random.Random, *, foreign: bool = False, valid: bool = True) -> str:
    year = rng.randint(1940, 2019)
    g = (5 if year < 2000 else 7) if foreign else (1 if year < 2000 else 3)
    g += rng.randint(0, 1)
    body = f"{year % 100:02d}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{g}" + "".join(
        str(rng.randint(0, 9)) for _ in range(5))
    total = sum(int(d) * w for d, w in zip(body, _W, strict=True))
    check = ((13 if foreign else 11) - total % 11) % 10
    if not valid:
        check = (check + rng.randint(1, 9)) % 10
    return f"{body[:6]}-{body[6:]}{check}"


def _my_number(rng: random.Random, *, valid: bool = True) -> str:
    body = "".join(str(rng.randint(0, 9)) for _ in range(11))
    total = sum(int(body[11 - n]) * (n + 1 if n <= 6 else n - 5) for n in range(1, 12))
    check = 0 if total % 11 <= 1 else 11 - total % 11
    if not valid:
        check = (check + rng.randint(1, 9)) % 10
    d = body + str(check)
    return rng.choice([f"{d[:4]} {d[4:8]} {d[8:]}", f"{d[:4]}-{d[4:8]}-{d[8:]}"])


def _ssn(rng: random.Random, *, valid: bool = True) -> str:
    area = rng.randint(1, 899) if valid else rng.choice([0, 666, rng.randint(900, 999)])
    if valid and area == 666:
        area = 667
    return f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"


def _luhn_check(partial: str) -> int:
    total = 0
    for i, ch in enumerate(reversed(partial)):
        d = int(ch)
        if i % 2 == 0:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return (10 - total % 10) % 10


def _card(rng: random.Random, *, valid: bool = True) -> str:
    prefix, length = rng.choice([("4", 16), ("51", 16), ("55", 16), ("2223", 16), ("37", 15), ("6011", 16),
                                 ("3530", 16)])
    body = prefix + "".join(str(rng.randint(0, 9)) for _ in range(length - len(prefix) - 1))
    check = _luhn_check(body)
    if not valid:
        check = (check + rng.randint(1, 9)) % 10
    d = body + str(check)
    if length == 15:
        return rng.choice([d, f"{d[:4]} {d[4:10]} {d[10:]}"])
    sep = rng.choice([" ", "-", ""])
    return sep.join(d[i:i + 4] for i in range(0, 16, 4))


def _iban(rng: random.Random, *, valid: bool = True) -> str:
    country, n = rng.choice([("DE", 18), ("GB", 18), ("FR", 23), ("NL", 14), ("ES", 20)])
    if country == "GB":
        bban = "NWBK" + "".join(str(rng.randint(0, 9)) for _ in range(14))
    elif country == "NL":
        bban = "ABNA" + "".join(str(rng.randint(0, 9)) for _ in range(10))
    else:
        bban = "".join(str(rng.randint(0, 9)) for _ in range(n))
    num = int("".join(str(int(c, 36)) for c in bban + country + "00"))
    check = 98 - num % 97
    if not valid:
        check = (check + rng.randint(1, 50)) % 100
    s = f"{country}{check:02d}{bban}"
    return rng.choice([s, " ".join(s[i:i + 4] for i in range(0, len(s), 4))])


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randint(0, 9)) for _ in range(n))


def _account(rng: random.Random) -> str:
    return rng.choice([f"{_digits(rng, 3)}-{_digits(rng, 3)}-{_digits(rng, 6)}", _digits(rng, 12),
                       f"{_digits(rng, 4)}-{_digits(rng, 2)}-{_digits(rng, 7)}", _digits(rng, 7), _digits(rng, 10)])


_US_AREAS = ("212", "415", "646", "312", "617", "206", "213", "702", "305", "404")


def _phone(rng: random.Random, lang: str) -> str:
    def d(n: int) -> str:
        return _digits(rng, n)

    def mid(lo: int, hi: int) -> int:
        return rng.randint(lo, hi)

    if lang == "ko":
        return rng.choice([f"010-{mid(2000, 9999)}-{d(4)}", f"02-{mid(200, 999)}-{d(4)}", f"031-{mid(200, 999)}-{d(4)}",
                           f"+82 10-{mid(2000, 9999)}-{d(4)}", f"010 {mid(2000, 9999)} {d(4)}",
                           f"010.{mid(2000, 9999)}.{d(4)}", f"(02) {mid(200, 999)}-{d(4)}"])
    if lang == "ja":
        return rng.choice([f"03-{mid(2000, 9999)}-{d(4)}", f"090-{mid(2000, 9999)}-{d(4)}",
                           f"06-{mid(2000, 9999)}-{d(4)}", f"+81 3-{mid(2000, 9999)}-{d(4)}",
                           f"0120-{mid(100, 999)}-{d(3)}",
                           f"+81-90-{mid(2000, 9999)}-{d(4)}"])
    area = rng.choice(_US_AREAS)
    exch = rng.randint(200, 999)
    return rng.choice([f"({area}) {exch}-{_digits(rng, 4)}", f"{area}-{exch}-{_digits(rng, 4)}",
                       f"+1 {area}-{exch}-{_digits(rng, 4)}", f"{area}.{exch}.{_digits(rng, 4)}",
                       f"+44 20 7946 {_digits(rng, 4)}", f"1-{area}-{exch}-{_digits(rng, 4)}",
                       f"+1-{area}-{exch}-{_digits(rng, 4)}", f"1 ({area}) {exch}-{_digits(rng, 4)}"])


def _email(rng: random.Random) -> str:
    user = rng.choice(["john.doe", "kim_minsu", "tanaka.h", "a.smith+news", "lee99", "yamada-taro", "J.Park",
                       "HR-Team"])
    return f"{user}@{rng.choice(['example.com', 'mail.co.kr', 'corp.jp', 'company.org', 'naver.com'])}"


def _ip(rng: random.Random) -> str:
    if rng.random() < 0.25:
        if rng.random() < 0.5:
            return ":".join(f"{rng.randint(0, 0xffff):x}" for _ in range(8))
        return f"2001:db8:{rng.randint(1, 0xffff):x}::{rng.randint(1, 0xffff):x}"
    return f"{rng.randint(11, 223)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(1, 254)}"


def _passport(rng: random.Random, lang: str) -> str:
    if lang == "ko":
        return rng.choice([f"M{_digits(rng, 8)}", f"M{_digits(rng, 3)}A{_digits(rng, 4)}"])
    if lang == "ja":
        return f"T{rng.choice('KRZ')}{_digits(rng, 7)}"
    return rng.choice([_digits(rng, 9), f"A{_digits(rng, 8)}"])


def _dob(rng: random.Random, lang: str) -> str:
    y, m, d = rng.randint(1940, 2010), rng.randint(1, 12), rng.randint(1, 28)
    if lang == "ko":
        return rng.choice([f"{y}.{m:02d}.{d:02d}", f"{y}년 {m}월 {d}일", f"{y}-{m:02d}-{d:02d}"])
    if lang == "ja":
        return rng.choice([f"{y}年{m}月{d}日", f"{y}/{m:02d}/{d:02d}"])
    months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
              "November", "December"]
    return rng.choice([f"{m:02d}/{d:02d}/{y}", f"{months[m - 1]} {d}, {y}", f"{y}-{m:02d}-{d:02d}",
                       f"{d} {months[m - 1]} {y}", f"{y}/{m:02d}/{d:02d}"])


# --- sentences -----------------------------------------------------------------------------------------

#: (type, language) → templates with {v}; a type's value generator is picked in ``_value``
_TEMPLATES: dict[tuple[str, str], tuple[str, ...]] = {
    ("RRN", "ko"): ("주민등록번호: {v}", "신청인 주민번호 {v} 확인", "외국인등록번호 {v}", "본인 {v} (확인됨)"),
    ("RRN", "en"): ("Resident registration number {v} was provided.",),
    ("MY_NUMBER", "ja"): ("マイナンバー：{v}", "個人番号 {v} を記入してください。"),
    ("MY_NUMBER", "en"): ("My Number {v}",),
    ("SSN", "en"): ("SSN: {v}", "Social Security Number {v} on file.", "employee {v} (SSN)"),
    ("CARD", "en"): ("Card number {v} exp 09/27", "charged to {v}."),
    ("CARD", "ko"): ("카드번호 {v} 결제",),
    ("CARD", "ja"): ("クレジットカード {v} でお支払い",),
    ("IBAN", "en"): ("Wire to IBAN {v} (EUR).", "beneficiary account {v}"),
    ("ACCOUNT", "ko"): ("입금 계좌번호: 국민은행 {v}", "계좌 {v} (예금주 홍길동)"),
    ("ACCOUNT", "ja"): ("口座番号 {v}", "振込先 口座番号：普通 {v}"),
    ("ACCOUNT", "en"): ("Account number: {v}", "Acct No. {v}", "bank account {v}", "A/C {v}"),
    ("PHONE", "ko"): ("연락처 {v}", "문의: {v}로 전화 주세요."),
    ("PHONE", "ja"): ("電話番号 {v}", "連絡先：{v}"),
    ("PHONE", "en"): ("Call {v} for details.", "Tel: {v}", "reach me at {v} after 5pm", "{v}"),
    ("EMAIL", "ko"): ("이메일 {v}로 보내 주세요.",),
    ("EMAIL", "ja"): ("メール：{v}",),
    ("EMAIL", "en"): ("Contact: {v}", "email {v}."),
    ("IP", "en"): ("login from {v} at 10:32:00", "server IP {v}"),
    ("IP", "ko"): ("접속 IP {v}",),
    ("PASSPORT", "ko"): ("여권번호 {v}", "여권 번호: {v}", "여권 {v}"),
    ("PASSPORT", "ja"): ("旅券番号 {v}", "パスポート番号：{v}"),
    ("PASSPORT", "en"): ("Passport No. {v}", "passport number {v}"),
    ("DOB", "ko"): ("생년월일: {v}", "생년월일 {v}"),
    ("DOB", "ja"): ("生年月日 {v}", "生年月日：{v}"),
    ("DOB", "en"): ("Date of birth: {v}", "DOB {v}", "date of birth {v}", "D.O.B. {v}", "Birth date - {v}"),
}

#: near-misses: (language, template, value maker) — nothing in them may be found
_NEAR_MISSES: tuple[tuple[str, str, str], ...] = (
    ("ko", "접수번호 {v}", "rrn_bad"), ("en", "reference {v}", "rrn_bad"), ("ja", "管理番号 {v}", "mynum_bad"),
    ("en", "ticket {v}", "ssn_bad"), ("en", "order {v} shipped", "card_bad"), ("en", "code {v}", "iban_bad"),
    ("en", "invoice {v}", "account_shape"), ("ko", "주문번호 {v}", "account_shape"),
    ("en", "signed on {v}", "date"), ("ko", "계약일 {v}", "date"), ("en", "model {v}", "passport_shape"),
    ("en", "dial {v}", "phone_bad"), ("en", "version {v}", "ip_bad"), ("en", "write to user at {v}", "email_bad"),
)

_FILLER = {
    "en": ("Net sales were $94.8 billion, up 1.4% from $93.4 billion in fiscal 2022.",
           "Operating income of 2,345 and 1,987 for the three months ended March 31, 2023 and 2022.",
           "The Company repurchased 123,456,789 shares for $19.1 billion (Note 7, page 12).",
           "Commission File Number: 001-36743; 2023-10-29; 10-Q; CUSIP 037833100.",
           "Total 12,345 | 67,890 | 1,234,567 | (4,321) | 98.7%"),
    "ko": ("2023년 매출액은 1,234억 원으로 전년 대비 12.5% 증가했다.", "영업이익 3,456,789천원 (2022년: 2,345,678천원)",
           "제출일 2024.03.15, 공시번호 20240315000123"),
    "ja": ("売上高は1,234億円（前年比5.6%増）となりました。", "2024年3月期 営業利益 45,678百万円",
           "証券コード 7203、発行済株式数 16,314,987,460株"),
}


@dataclass
class Sample:
    text: str
    spans: list[tuple[str, int, int]] = field(default_factory=list)


def _wide(s: str) -> str:
    """Full-width digits, letters and punctuation, as Japanese documents often write them."""
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in s)


def _value(rng: random.Random, ftype: str, lang: str) -> str:
    value = _value_ascii(rng, ftype, lang)
    if lang == "ja" and ftype in ("PHONE", "MY_NUMBER", "DOB", "EMAIL") and rng.random() < 0.25:
        return _wide(value)
    return value


def _value_ascii(rng: random.Random, ftype: str, lang: str) -> str:
    makers = {
        "RRN": lambda: _rrn(rng, foreign=rng.random() < 0.3),
        "MY_NUMBER": lambda: _my_number(rng), "SSN": lambda: _ssn(rng), "CARD": lambda: _card(rng),
        "IBAN": lambda: _iban(rng), "ACCOUNT": lambda: _account(rng), "PHONE": lambda: _phone(rng, lang),
        "EMAIL": lambda: _email(rng), "IP": lambda: _ip(rng), "PASSPORT": lambda: _passport(rng, lang),
        "DOB": lambda: _dob(rng, lang),
    }
    return makers[ftype]()


def _near_miss(rng: random.Random, kind: str) -> str:
    if kind == "rrn_bad":
        if rng.random() < 0.7:
            return _rrn(rng, valid=False)
        return f"{rng.randint(10, 99)}1345-{rng.randint(1, 4)}{_digits(rng, 6)}"  # month 13
    if kind == "mynum_bad":
        return _my_number(rng, valid=False)
    if kind == "ssn_bad":
        return _ssn(rng, valid=False)
    if kind == "card_bad":
        return _card(rng, valid=False)
    if kind == "iban_bad":
        return _iban(rng, valid=False)
    if kind == "account_shape":
        return f"{_digits(rng, 3)}-{_digits(rng, 3)}-{_digits(rng, 6)}"
    if kind == "date":
        return f"{rng.randint(1990, 2024)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    if kind == "passport_shape":
        return f"M{_digits(rng, 8)}"
    if kind == "phone_bad":
        return rng.choice([f"123-456-{_digits(rng, 4)}", f"000-{_digits(rng, 3)}-{_digits(rng, 4)}",
                           f"(555) 0{_digits(rng, 2)}-{_digits(rng, 4)}"])
    if kind == "ip_bad":
        return f"{rng.randint(256, 999)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}.{rng.randint(0, 255)}"
    return f"john.doe@{rng.choice(['localhost', 'example'])}"


def corpus(seed: int = 14, docs: int = 120) -> list[Sample]:
    """``docs`` samples, each a few sentences: planted values (labelled), near-misses and filler."""
    rng = random.Random(seed)
    keys = sorted(_TEMPLATES)
    out: list[Sample] = []
    for _ in range(docs):
        lang = rng.choice(["en", "ko", "ja"])
        sample = Sample("")
        parts: list[str] = []
        pos = 0
        for _ in range(rng.randint(4, 7)):
            roll = rng.random()
            if roll < 0.55:
                ftype, tlang = rng.choice([k for k in keys if k[1] == lang] + [k for k in keys if k[1] == "en"])
                template = rng.choice(_TEMPLATES[(ftype, tlang)])
                value = _value(rng, ftype, tlang)
                head = template.index("{v}")
                sample.spans.append((ftype, pos + head, pos + head + len(value)))
                piece = template.replace("{v}", value)
            elif roll < 0.8:
                _lang, template, kind = rng.choice(_NEAR_MISSES)
                piece = template.replace("{v}", _near_miss(rng, kind))
            else:
                piece = rng.choice(_FILLER[lang])
            parts.append(piece)
            pos += len(piece) + 1
        sample.text = "\n".join(parts)
        out.append(sample)
    return out
