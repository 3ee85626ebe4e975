"""Formulas a question writes out, parsed into trees (pure, no lookups).

"DPO is defined as: 365 * (average accounts payable between FY2016 and FY2017) / (FY2017 COGS + change in
inventory between FY2016 and FY2017)" is a tree of numbers, operands ("average accounts payable between FY2016 and
FY2017": words the reader looks up) and the four operations, read with the usual precedence and brackets. Operators
are the symbols (+ − × ÷ * /; a hyphen only between spaces, "non-current" is a word) and their words ("plus",
"minus", "less", "times", "multiplied by", "divided by"). A question may define several names, one in terms of
another ("CCC is defined as: DIO + DSO - DPO. DIO is defined as: …"): ``definitions`` returns each name's tree, and
an operand that is a defined name stands for its tree (``formulas`` evaluates it). Brackets that only say where a
figure is printed ("(from cash flow statement)") or abbreviate a name ("(DPO)") are no part of the arithmetic.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_END = r"(?=\.\s|\.$|\?|;|$)"
#: "X is defined as: EXPR" (X: the words since the sentence began)
_IS_DEFINED = re.compile(r"(?i)(?:^|(?<=[.?!:;]\s))(?:the\s+)?(?P<name>[^.?!:;]{2,60}?)\s+is\s+defined\s+as\s*:?\s*"
                         r"(?P<expr>.+?)" + _END)
#: "Define X as EXPR"
_DEFINE = re.compile(r"(?i)\bdefine\s+(?:the\s+)?(?P<name>[^.?!:;]{2,60}?)\s+as\s*:?\s*(?P<expr>.+?)" + _END)
#: brackets that are no arithmetic: where it is printed, or an abbreviation
_ASIDE = re.compile(r"\(\s*(?:as\s+)?(?:shown\s+)?(?:from|per|in|on|see)\s+(?:the\s+)?[^()]*?statements?\s*\)|"
                    r"(?<=[A-Za-z])\s*\([A-Z][A-Za-z&]{1,7}\)")
_WHERE_PRINTED = re.compile(r"(?i)\s+(?:(?:as\s+)?(?:shown\s+|reported\s+)?(?:from|per|in|on)\s+the\s+[\w\s&]*?"
                            r"statements?(?:\s+of\s+[\w\s]+)?)$")
_OPERATOR = re.compile(r"(?i)(?P<sym>[+*/×÷−])|(?<=\s)-(?=\s)|(?P<word>\b(?:plus|minus|less|times|multiplied\s+by|"
                       r"divided\s+by)\b)|(?P<open>\()|(?P<close>\))")
_NUMBER = re.compile(r"^\d+(?:\.\d+)?$")
_SYMBOL = {"+": "+", "plus": "+", "-": "-", "−": "-", "minus": "-", "less": "-", "*": "*", "×": "*", "times": "*",
           "multiplied by": "*", "/": "/", "÷": "/", "divided by": "/"}


@dataclass(frozen=True, slots=True)
class Number:
    value: float


@dataclass(frozen=True, slots=True)
class Term:
    text: str  # "average accounts payable between FY2016 and FY2017", "FY2017 COGS", "DIO"


@dataclass(frozen=True, slots=True)
class Operation:
    op: str  # one of + - * /
    left: Node
    right: Node


Node = Number | Term | Operation


def _tokens(text: str) -> list[str] | None:
    """Operators, brackets and the words between them; None when nothing but words."""
    out: list[str] = []
    at = 0
    for m in _OPERATOR.finditer(text):
        words = text[at:m.start()].strip()
        if words:
            out.append(words)
        piece = m.group(0).lower()
        out.append(" ".join(piece.split()))
        at = m.end()
    tail = text[at:].strip()
    if tail:
        out.append(tail)
    return out if any(t in _SYMBOL or t in ("(", ")") for t in out) else None


class _Parser:
    def __init__(self, tokens: list[str]) -> None:
        self.tokens, self.at = tokens, 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self) -> str:
        self.at += 1
        return self.tokens[self.at - 1]

    def _chain(self, ops: tuple[str, ...], operand: Callable[[], Node | None]) -> Node | None:
        """``operand (op operand)*``, left to right; None when an operator lacks its right side."""
        left = operand()
        while left is not None and _SYMBOL.get(self.peek() or "") in ops:
            op = _SYMBOL[self.take()]
            right = operand()
            left = Operation(op, left, right) if right is not None else None
        return left

    def sum(self) -> Node | None:
        return self._chain(("+", "-"), self.product)

    def product(self) -> Node | None:
        return self._chain(("*", "/"), self.factor)

    def factor(self) -> Node | None:
        piece = self.peek()
        if piece is None or piece in _SYMBOL or piece == ")":
            return None
        self.take()
        if piece == "(":
            inner = self.sum()
            return inner if inner is not None and self.peek() == ")" and self.take() else None
        words = piece.strip(" ,:")
        if _NUMBER.match(words):
            return Number(float(words))
        return Term(_WHERE_PRINTED.sub("", words).strip(" ,:")) if words else None


def parse(text: str) -> Node | None:
    """The tree of a formula's text, or None (no operator in it, unbalanced brackets, an operator without two
    sides)."""
    tokens = _tokens(_ASIDE.sub(" ", text))
    if tokens is None:
        return None
    parser = _Parser(tokens)
    tree = parser.sum()
    return tree if tree is not None and parser.peek() is None else None


def name_key(name: str) -> str:
    """How a defined name is matched: lower case, single spaces, no leading "the" or owner ("Acme's")."""
    name = re.sub(r"(?i)^(?:the\s+)?(?:[A-Z][\w&.\-]*['’]s\s+)?(?:the\s+)?", "", " ".join(name.split()))
    return name.strip(" ,:").lower()


def definitions(question: str) -> dict[str, Node]:
    """Each name the question defines by a formula with at least one operator, keyed by ``name_key`` — and by its
    abbreviation too where it gives one ("days payable outstanding (DPO)")."""
    out: dict[str, Node] = {}
    for pattern in (_IS_DEFINED, _DEFINE):
        for m in pattern.finditer(question):
            tree = parse(m.group("expr"))
            if tree is None:
                continue
            name = m.group("name")
            abbreviation = re.search(r"\(([A-Z][A-Za-z&]{1,7})\)\s*$", name)
            if abbreviation:
                out.setdefault(abbreviation.group(1).lower(), tree)
                name = name[: abbreviation.start()]
            key = name_key(name)
            if key and len(key.split()) <= 8:
                out.setdefault(key, tree)
    return out


def terms(tree: Node) -> list[Term]:
    """The tree's operands, left to right."""
    if isinstance(tree, Term):
        return [tree]
    if isinstance(tree, Operation):
        return terms(tree.left) + terms(tree.right)
    return []
