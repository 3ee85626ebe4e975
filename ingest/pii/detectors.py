"""Personal-data detectors (pure): ``detect(text)`` → the spans of personal data in a text, typed.

Types, most specific first (an overlap keeps the earlier type): ``EMAIL``, ``IBAN``, ``CARD``, ``RRN``
(Korean resident or foreigner registration number), ``MY_NUMBER`` (Japan), ``SSN`` (US), ``PASSPORT``,
``DOB``, ``ACCOUNT``, ``PHONE``, ``IP``.

Precision first, because the documents are full of numbers (a 10-Q must not become ``[ACCOUNT]`` soup):

* checksummed identifiers are reported only when their check passes — RRN (and a real birth date in
  its first six digits), My Number, card numbers (Luhn *and* an issuer prefix and length), IBAN (mod 97);
  a number that fails is reported only when a label names it (Korean numbers issued since 2020 carry no
  check digit, so "주민등록번호 …" is trusted);
* ambiguous shapes need a label next to them: bank accounts (계좌번호, 口座番号, account no.), passports
  (여권번호, 旅券番号, passport no.), dates of birth (생년월일, 生年月日, DOB, date of birth), unhyphenated
  SSNs and RRNs, My Numbers not written ``1234-5678-9018`` (a table's "2017 2018 2019" passes the check);
* phone numbers must look like one (separators or a leading ``+``) and be a valid number of their
  region by Google's libphonenumber metadata (``phonenumbers``: KR and JP for a leading 0, the country
  code after ``+``, else US).

A ``Finding`` holds the type and the character span, never the value; ``finding_key`` gives the value's
normal form (digits only, lower-cased e-mail…) for telling equal values apart, and is never stored.
"""

from __future__ import annotations

import ipaddress
import re
from dataclasses import dataclass
from typing import Final

import phonenumbers

from ingest.pii.checks import (
    card_network_ok,
    iban_ok,
    luhn_ok,
    my_number_ok,
    rrn_birth_date_ok,
    rrn_checksum_ok,
    ssn_ok,
    valid_date,
)

#: every type, in overlap priority order
TYPES: Final[tuple[str, ...]] = ("EMAIL", "IBAN", "CARD", "RRN", "MY_NUMBER", "SSN", "PASSPORT", "DOB",
                                 "ACCOUNT", "PHONE", "IP")
_RANK = {t: i for i, t in enumerate(TYPES)}


@dataclass(frozen=True, slots=True)
class Finding:
    """One piece of personal data: its type and ``text[start:end]`` — never the value itself."""

    type: str
    start: int
    end: int


# a number is not part of a longer one: no letter/digit next to it, no "1,234" / "12.5" / "3-4" continuation
_NB = r"(?<![0-9A-Za-z])(?<![0-9][.,/-])"
_NA = r"(?![0-9A-Za-z])(?![.,/-][0-9])"

_RRN = re.compile(_NB + r"(\d{6})\s?[-–]\s?([1-8]\d{6})" + _NA)
_RRN_BARE = re.compile(_NB + r"(\d{6}[1-8]\d{6})" + _NA)
_RRN_LABEL = re.compile(
    r"주민\s*등록\s*번호|주민\s*번호|외국인\s*등록\s*번호|등록\s*번호|resident\s+registration|\bRRN\b", re.I)
_MYNUM = re.compile(_NB + r"(?<![0-9][ -])(\d{4})([ -]?)(\d{4})\2(\d{4})" + r"(?![0-9A-Za-z])(?![ .,/-]?[0-9])")
_MYNUM_LABEL = re.compile(r"マイナンバー|個人番号|my\s*number", re.I)
_SSN = re.compile(_NB + r"(\d{3})-(\d{2})-(\d{4})" + _NA)
_SSN_LOOSE = re.compile(_NB + r"(\d{3})[ ]?(\d{2})[ ]?(\d{4})" + _NA)
_SSN_LABEL = re.compile(r"\bSSN\b|social\s+security(?:\s+(?:no\.?|number))?|사회\s*보장\s*번호", re.I)
_CARD = re.compile(_NB + r"(?<![0-9][ -])("
                   r"\d{4}([ -])\d{4}\2\d{4}\2\d{4}(?:\2\d{3})?"  # 4-4-4-4(-3)
                   r"|\d{4}([ -])\d{6}\3\d{4,5}"  # Amex 4-6-5, Diners 4-6-4
                   r"|\d{13,19})"
                   r"(?![0-9A-Za-z])(?![ .,/-]?[0-9])")
_IBAN = re.compile(r"(?<![0-9A-Za-z])([A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?)(?![0-9A-Za-z])")
_EMAIL = re.compile(r"(?<![\w.+-])[A-Za-z0-9][A-Za-z0-9._%+-]{0,63}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9-])")
_IPV4 = re.compile(r"(?<![0-9A-Za-z.])((?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(?:\.(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3})"
                   r"(?![0-9A-Za-z])(?!\.[0-9])")
_IPV6 = re.compile(r"(?<![0-9A-Za-z:])((?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4})(?![0-9A-Za-z:])")
_IP_LABEL = re.compile(r"\bIP\b|IP\s*주소|IPアドレス", re.I)
_PHONE = re.compile(
    r"(?<![0-9A-Za-z+])(?<![0-9][.,/-])("
    r"\+\d{1,3}[ .-]?(?:\(0?\d{1,4}\)[ .-]?)?\d{1,4}(?:[ .-]\d{1,4}){1,4}"  # +82 10-1234-5678, +1 (415) 555-0100
    r"|(?:1[ .-])?\(\d{2,4}\)[ .-]?\d{3,4}[ .-]\d{4}"  # (415) 555-0100, (02) 1234-5678
    r"|(?:1[ .-])?\d{2,4}([.-])\d{2,4}\2\d{4}"  # 010-1234-5678, 03-1234-5678, 415.555.0100, 1-800-555-0100
    r"|0\d{1,4}([.-])\d{1,4}\3\d{3}"  # 0120-123-456 (Japan's free dial)
    r"|\d{3} \d{3,4} \d{4}"  # 010 1234 5678
    r")" + _NA)
_ACCOUNT_LABEL = re.compile(
    r"계좌\s*번호|입금\s*계좌|계좌|口座\s*番号|口座|bank\s+account|account\s*(?:no\.?|number|#)|acct\.?\s*(?:no\.?|#)?|\ba/c(?:\s*no\.?)?",
    re.I)
_ACCOUNT_VALUE = re.compile(r"(\d(?:[ -]?\d){5,19})" + _NA)
_PASSPORT_LABEL = re.compile(
    r"passport(?:\s*(?:no\.?|number|#))?|여권\s*번호|여권|旅券\s*番号|パスポート\s*番号|旅券|护照号码|护照", re.I)
_PASSPORT_VALUE = re.compile(r"([A-Z]{1,2}\d{6,8}|[A-Z]\d{3}[A-Z]\d{4}|\d{9})(?![0-9A-Za-z])")
_DOB_LABEL = re.compile(r"생년\s*월일|出生年月日|生年月日|date\s+of\s+birth|birth\s*date|\bd\.?o\.?b\b\.?", re.I)
_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|december|"
           "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_DOB_VALUE = re.compile(
    r"(\d{4}[-./]\s?\d{1,2}[-./]\s?\d{1,2}\.?"
    r"|\d{1,2}[-./]\d{1,2}[-./]\d{4}"
    r"|\d{4}\s*[년年]\s*\d{1,2}\s*[월月]\s*\d{1,2}\s*[일日]"
    r"|(?:昭和|平成|令和)\s*\d{1,2}\s*年\s*\d{1,2}\s*月\s*\d{1,2}\s*日"
    rf"|(?:{_MONTHS})\.?\s+\d{{1,2}},?\s+\d{{4}}"
    rf"|\d{{1,2}}\s+(?:{_MONTHS})\.?,?\s+\d{{4}}"
    r"|\d{6}(?![0-9]))",
    re.I)
#: between a label and its value: punctuation, spaces and a word such as "no." / "number" / 번호, no digits
_GAP = re.compile(r"[\s:：()（）#.=/,\-]*(?:(?:is|no\.?|number|num|번호|番号|:)[\s:：#.]*)?")
_LABEL_WINDOW = 30
#: an account number may follow its bank or kind of account: "계좌번호: 국민은행 123-…", "口座番号 普通 1234567"
_ACCOUNT_GAP = re.compile(_GAP.pattern + r"(?:[^\d\s:：]{1,12}[\s:：]+)?")


#: full-width ASCII (０-９, Ａ-Ｚ, ＠, －…) and dash-like characters → ASCII, one character for one, so offsets
#: in the folded text are offsets in the original (Japanese documents write "０３－１２３４－５６７８")
_FOLD = {cp: cp - 0xFEE0 for cp in range(0xFF01, 0xFF5F)}
_FOLD.update({0x3000: 0x20, 0x2010: 0x2D, 0x2011: 0x2D, 0x2012: 0x2D, 0x2013: 0x2D, 0x2014: 0x2D, 0x2212: 0x2D})


def fold(text: str) -> str:
    """``text`` with full-width forms and dashes as ASCII (same length)."""
    return text.translate(_FOLD)


def detect(text: str) -> list[Finding]:
    """Every personal-data value in ``text``, ordered by start offset; overlaps go to the higher-priority type."""
    text = fold(text)
    found: list[Finding] = []
    for fn in (_emails, _ibans, _cards, _rrns, _my_numbers, _ssns, _passports, _dobs, _accounts, _phones, _ips):
        found.extend(fn(text))
    kept: list[Finding] = []
    for f in sorted(found, key=lambda f: (_RANK[f.type], f.start, -(f.end - f.start))):
        if all(f.end <= k.start or f.start >= k.end for k in kept):
            kept.append(f)
    return sorted(kept, key=lambda f: f.start)


def finding_key(ftype: str, value: str) -> str:
    """The value's normal form — equal values (``010-1234-5678`` / ``010 1234 5678``) share one key."""
    value = fold(value)
    if ftype == "EMAIL":
        return value.strip().lower()
    if ftype == "IP":
        try:
            return str(ipaddress.ip_address(value.strip()))
        except ValueError:
            return value.strip().lower()
    if ftype in ("IBAN", "PASSPORT"):
        return re.sub(r"[^0-9A-Za-z]", "", value).upper()
    if ftype == "PHONE":
        digits = re.sub(r"\D", "", value)
        return digits[-10:] if len(digits) > 10 else digits.lstrip("0")
    return re.sub(r"\D", "", value) or value


# --- the detectors ------------------------------------------------------------------------------------


def _digits(s: str) -> str:
    return re.sub(r"\D", "", s)


def _label_before(text: str, start: int, label: re.Pattern[str]) -> bool:
    """A label on the same line, at most ``_LABEL_WINDOW`` characters before ``start``."""
    line_start = text.rfind("\n", 0, start) + 1
    return label.search(text, max(line_start, start - _LABEL_WINDOW), start) is not None


def _labelled(text: str, label: re.Pattern[str], value: re.Pattern[str], ftype: str,
              gap_re: re.Pattern[str] | None = None) -> list[Finding]:
    """Values that follow their label (past punctuation and a word like "no."), within ``_LABEL_WINDOW``."""
    out: list[Finding] = []
    for lm in label.finditer(text):
        gap = (gap_re or _GAP).match(text, lm.end())
        pos = gap.end() if gap else lm.end()
        if pos - lm.end() > _LABEL_WINDOW:
            continue
        vm = value.match(text, pos)
        if vm is not None:
            out.append(Finding(ftype, vm.start(1), vm.end(1)))
    return out


def _emails(text: str) -> list[Finding]:
    out = []
    for m in _EMAIL.finditer(text):
        out.append(Finding("EMAIL", m.start(), m.end()))
    return out


def _ibans(text: str) -> list[Finding]:
    out = []
    for m in _IBAN.finditer(text):
        value = m.group(1)
        parts = value.split(" ")
        while parts:  # the greedy match may have taken a following short word
            if iban_ok("".join(parts)):
                out.append(Finding("IBAN", m.start(1), m.start(1) + len(" ".join(parts))))
                break
            parts = parts[:-1] if len(parts) > 3 else []
    return out


def _cards(text: str) -> list[Finding]:
    out = []
    for m in _CARD.finditer(text):
        digits = _digits(m.group(1))
        if card_network_ok(digits) and luhn_ok(digits):
            out.append(Finding("CARD", m.start(1), m.end(1)))
    return out


def _rrns(text: str) -> list[Finding]:
    out = []
    for m in _RRN.finditer(text):
        digits = m.group(1) + m.group(2)
        if rrn_birth_date_ok(digits) and (rrn_checksum_ok(digits) or _label_before(text, m.start(), _RRN_LABEL)):
            out.append(Finding("RRN", m.start(), m.end()))
    for m in _RRN_BARE.finditer(text):
        digits = m.group(1)
        if rrn_birth_date_ok(digits) and _label_before(text, m.start(), _RRN_LABEL):
            out.append(Finding("RRN", m.start(), m.end()))
    return out


def _my_numbers(text: str) -> list[Finding]:
    out = []
    for m in _MYNUM.finditer(text):
        digits = m.group(1) + m.group(3) + m.group(4)
        if not my_number_ok(digits):
            continue
        # a table's column of years ("2017 2018 2019") passes the check one time in ten: unlabelled, only the
        # hyphenated form counts, and never three years in a row
        years = all(1900 <= int(g) <= 2099 for g in (m.group(1), m.group(3), m.group(4)))
        if _label_before(text, m.start(), _MYNUM_LABEL) or (m.group(2) == "-" and not years):
            out.append(Finding("MY_NUMBER", m.start(), m.end()))
    return out


def _ssns(text: str) -> list[Finding]:
    out = []
    for m in _SSN.finditer(text):
        if ssn_ok(m.group(1) + m.group(2) + m.group(3)):
            out.append(Finding("SSN", m.start(), m.end()))
    for m in _SSN_LOOSE.finditer(text):
        if ssn_ok(m.group(1) + m.group(2) + m.group(3)) and _label_before(text, m.start(), _SSN_LABEL):
            out.append(Finding("SSN", m.start(), m.end()))
    return out


def _passports(text: str) -> list[Finding]:
    return _labelled(text, _PASSPORT_LABEL, _PASSPORT_VALUE, "PASSPORT")


def _dobs(text: str) -> list[Finding]:
    return [f for f in _labelled(text, _DOB_LABEL, _DOB_VALUE, "DOB") if _plausible_date(text[f.start:f.end])]


def _plausible_date(value: str) -> bool:
    nums = [int(n) for n in re.findall(r"\d+", value)]
    if len(nums) == 1 and len(value.strip()) == 6:  # YYMMDD
        n = value.strip()
        return valid_date(1900 + int(n[:2]), int(n[2:4]), int(n[4:6]))
    if len(nums) == 3:
        y, mth, d = nums
        if y < 100 and nums[2] >= 1000:  # D/M/Y or M/D/Y
            d, mth, y = nums
            return valid_date(y, mth, d) or valid_date(y, d, mth)
        if y < 100:  # an era year (平成 3)
            return 1 <= mth <= 12 and 1 <= d <= 31
        return valid_date(y, mth, d)
    if len(nums) == 2:  # "March 5, 1990"
        return 1 <= nums[0] <= 31 and 1900 <= nums[1] <= 2100
    return False


def _accounts(text: str) -> list[Finding]:
    return [f for f in _labelled(text, _ACCOUNT_LABEL, _ACCOUNT_VALUE, "ACCOUNT", _ACCOUNT_GAP)
            if 6 <= len(_digits(text[f.start:f.end])) <= 20]


def _phones(text: str) -> list[Finding]:
    out = []
    for m in _PHONE.finditer(text):
        cand = m.group(1)
        n = len(_digits(cand))
        if 8 <= n <= 15 and _valid_phone(cand):
            out.append(Finding("PHONE", m.start(1), m.end(1)))
    return out


_KR_MOBILE = re.compile(r"01[016789]([ -])\d{3,4}\1\d{4}")


def _valid_phone(cand: str) -> bool:
    if _KR_MOBILE.fullmatch(cand):  # unmistakable, and libphonenumber lags behind new 010 ranges
        return True
    if cand.startswith("+"):
        regions: tuple[str | None, ...] = (None,)
    elif cand.lstrip("(").startswith("0"):
        regions = ("KR", "JP")
    else:
        regions = ("US",)
    for region in regions:
        try:
            num = phonenumbers.parse(cand, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(num):
            return True
    return False


def _ips(text: str) -> list[Finding]:
    out = []
    for m in _IPV4.finditer(text):
        octets = m.group(1).split(".")
        if all(len(o) == 1 for o in octets) and not _label_before(text, m.start(), _IP_LABEL):
            continue  # "1.2.3.4" is a section number unless called an IP
        out.append(Finding("IP", m.start(1), m.end(1)))
    for m in _IPV6.finditer(text):
        cand = m.group(1)
        groups = [g for g in cand.split(":") if g]
        if len(groups) < 3 or (all(g.isdigit() for g in groups) and "::" not in cand):
            continue  # 10:30:00 is a time
        try:
            ipaddress.IPv6Address(cand)
        except ValueError:
            continue
        out.append(Finding("IP", m.start(1), m.end(1)))
    return out
