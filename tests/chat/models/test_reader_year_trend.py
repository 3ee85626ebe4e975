"""A line item over the years: every year's figure of its row, latest first, and how it moved. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read

SELECTED = """HARBOR FOODS, INC. › Selected Financial Data
(Dollars in millions, except per share amounts)
| | 2031 | 2030 | 2029 | 2028 |
|---|---|---|---|---|
| Net sales | $ 12,765 | $ 11,657 | $ 12,109 | $ 10,274 |
| Cash dividends declared per share | $ 2.44 | $ 2.30 | $ 2.14 | $ 2.10 |"""


def _read(question: str) -> str:
    answer = read(question, [Passage("S1", SELECTED, "h", "HARBOR_2031_10K.pdf", 20)])
    assert not answer.declined, answer.text
    return answer.text.splitlines()[0]


def test_a_stable_trend_is_every_years_figure_and_how_it_moved() -> None:
    """"a stable trend of dividend distribution": the dividends row, each year in plain dollars (a per-share row is
    not in the caption's millions), up every year (before: declined — the move words kept the row from scoring)."""
    assert _read("Does Harbor maintain a stable trend of dividend distribution?") == (
        "Cash dividends declared per share: $2.44 in 2031; $2.30 in 2030; $2.14 in 2029; $2.10 in 2028 — it rose "
        "every year over the 4 years the table prints [S1].")
    grown = _read("Have Harbor's net sales grown every year?")
    assert grown.endswith("— it moved both ways over the 4 years the table prints [S1]."), grown
    assert _read("What were Harbor's net sales in 2031?").startswith("Net sales were $12,765 million in 2031")


def test_the_rows_over_the_years_and_the_capital_intensity_lines_are_searched_for() -> None:
    from chat.models.reader.queries import search_queries

    assert "Harbor's dividend distribution selected financial data five-year summary" in \
        search_queries("Does Harbor maintain a stable trend of dividend distribution?")
    intensity = search_queries("Is Harbor a capital-intensive business based on FY2031 data?")
    assert any(q.startswith("Harbor purchases of property and equipment") for q in intensity)
    assert any(q.startswith("Harbor property plant and equipment net total assets") for q in intensity)
