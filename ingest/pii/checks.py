"""Check digits and structure rules of the identifiers the PII detectors look for (pure, stdlib only).

Each function takes the identifier's digits (or characters) without separators and says whether it is
well formed. They are what keeps a page of financial numbers from reading as personal data: a random
13-digit run passes the resident-number checksum one time in ten, a random 16-digit run passes Luhn one
time in ten *and* must start with a card network's prefix, and an IBAN passes mod-97 about once in 97.
"""

from __future__ import annotations

import datetime as dt

_RRN_WEIGHTS = (2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5)
#: 7th digit of a Korean resident registration number → century (9/0: born in the 1800s)
_RRN_CENTURY = {"1": 1900, "2": 1900, "3": 2000, "4": 2000, "5": 1900, "6": 1900, "7": 2000, "8": 2000,
                "9": 1800, "0": 1800}
#: IBAN lengths of the countries most often seen (others: 15..34)
IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AT": 20, "BE": 16, "BG": 22, "BH": 22, "BR": 29, "CH": 21, "CY": 28, "CZ": 24,
    "DE": 22, "DK": 18, "EE": 20, "ES": 24, "FI": 18, "FR": 27, "GB": 22, "GR": 27, "HR": 21, "HU": 28,
    "IE": 22, "IL": 23, "IS": 26, "IT": 27, "KW": 30, "LI": 21, "LT": 20, "LU": 20, "LV": 21, "MC": 27,
    "MT": 31, "NL": 18, "NO": 15, "PL": 28, "PT": 25, "QA": 29, "RO": 24, "SA": 24, "SE": 24, "SI": 19,
    "SK": 24, "SM": 27, "TR": 26, "UA": 29,
}


def valid_date(year: int, month: int, day: int) -> bool:
    try:
        dt.date(year, month, day)
    except ValueError:
        return False
    return True


def rrn_birth_date_ok(digits: str) -> bool:
    """The first six digits are a real date (YYMMDD) in the century the 7th digit names."""
    if len(digits) != 13 or not digits.isdigit():
        return False
    century = _RRN_CENTURY[digits[6]]
    return valid_date(century + int(digits[:2]), int(digits[2:4]), int(digits[4:6]))


def rrn_checksum_ok(digits: str) -> bool:
    """Korean resident (7th digit 1-4, 9, 0) or foreigner (5-8) registration number check digit.

    Residents: ``(11 - Σ w·d mod 11) mod 10``; foreigners: ``(13 - Σ w·d mod 11) mod 10``. Numbers issued
    since October 2020 carry no check digit, so a labelled number that fails it is still one (the detector
    decides that, not this function)."""
    if len(digits) != 13 or not digits.isdigit():
        return False
    total = sum(int(d) * w for d, w in zip(digits[:12], _RRN_WEIGHTS, strict=True))
    base = 13 if digits[6] in "5678" else 11
    return (base - total % 11) % 10 == int(digits[12])


def my_number_ok(digits: str) -> bool:
    """Japanese individual number (マイナンバー, 12 digits): the check digit of the Cabinet Office ordinance."""
    if len(digits) != 12 or not digits.isdigit():
        return False
    body = digits[:11]
    total = 0
    for n in range(1, 12):  # n-th digit from the right of the 11-digit body
        p = int(body[11 - n])
        q = n + 1 if n <= 6 else n - 5
        total += p * q
    rem = total % 11
    check = 0 if rem <= 1 else 11 - rem
    return check == int(digits[11])


def ssn_ok(digits: str) -> bool:
    """US social security number structure: area not 000/666/9xx, group not 00, serial not 0000."""
    if len(digits) != 9 or not digits.isdigit():
        return False
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def luhn_ok(digits: str) -> bool:
    if not digits.isdigit() or len(digits) < 2:
        return False
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


def card_network_ok(digits: str) -> bool:
    """A payment card's length and issuer prefix (Visa, Mastercard, Amex, Discover, JCB, UnionPay, Diners)."""
    n = len(digits)
    if not 13 <= n <= 19:
        return False
    two, four, six = int(digits[:2]), int(digits[:4]), int(digits[:6])
    if digits[0] == "4":
        return n in (13, 16, 19)
    if 51 <= two <= 55 or 2221 <= four <= 2720:
        return n == 16
    if two in (34, 37):
        return n == 15
    if four == 6011 or two == 65 or 644 <= int(digits[:3]) <= 649 or 622126 <= six <= 622925:
        return n in (16, 19)
    if 3528 <= four <= 3589:
        return 16 <= n <= 19
    if two == 62:
        return 16 <= n <= 19
    if two in (36, 38, 39) or 300 <= int(digits[:3]) <= 305:
        return 14 <= n <= 19
    return False


def iban_ok(compact: str) -> bool:
    """ISO 13616: country code, two check digits, the account; mod 97 of the rearranged number is 1."""
    s = compact.upper()
    if not 15 <= len(s) <= 34 or not s[:2].isalpha() or not s[2:4].isdigit() or not s.isalnum():
        return False
    expected = IBAN_LENGTHS.get(s[:2])
    if expected is not None and len(s) != expected:
        return False
    rearranged = s[4:] + s[:4]
    number = "".join(str(int(ch, 36)) for ch in rearranged)
    return int(number) % 97 == 1
