"""When a company's fiscal year ends: the date a passage of its own says a year ended on (the cover's sentence, a
list of years, a table's heading), the year a company that names its years by their start means, or how it says
its year ends. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.year_end import asks_year_end


def _p(ref: str, text: str, page: int = 3, company: str = "Kestrel Outfitters, Inc.",
       file_name: str = "kestrel-10k.pdf") -> Passage:
    return Passage(ref, text, "doc-1", file_name, page, company=company)


COVER = ("KESTREL OUTFITTERS, INC.\nANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d)\nFor the fiscal year ended "
         "January 28, 2031\nCommission File Number 1-9595")
RULE = "Kestrel Outfitters, Inc. › Fiscal Year\nOur fiscal year ends on the Saturday nearest the end of January."
LIST = ("Kestrel Outfitters, Inc. › Derivatives\nInformation related to our cash flow hedges for the fiscal years "
        "ended May 29, 2031, May 30, 2030, and May 31, 2029, follows:")
#: a company that names its years by their start: "fiscal 2030" is the year that ended on January 28, 2031
BY_START = ("Kestrel Outfitters, Inc. › Results\nFor fiscal 2030, net sales increased 18.3%. Fiscal 2030 comparable "
            "sales rose 15.6%; fiscal 2030 included 52 weeks.\n|  | 52 Weeks Ended / January 28, 2031 | 52 Weeks Ended "
            "/ January 29, 2030 |\n|---|---|---|\n| Net sales | 10,208,580 | 8,630,889 |")


def test_the_question_asks_when_a_fiscal_year_ends() -> None:
    assert asks_year_end("When did Kestrel's fiscal 2031 end?")
    assert asks_year_end("What is the end date of Kestrel's fiscal year 2030?")
    assert asks_year_end("When does Kestrel's fiscal year end?")
    assert not asks_year_end("When did Kestrel pay its fiscal 2031 dividend?")


def test_the_date_a_passage_says_the_year_asked_ended_on_is_the_answer() -> None:
    first = read("When did Kestrel's fiscal 2031 end?", [_p("S1", RULE), _p("S2", COVER)]).text.split("\n")
    assert first[0] == "Kestrel's fiscal 2031 ended on January 28, 2031 [S2]."
    assert first[1] == "> For the fiscal year ended January 28, 2031"
    listed = read("What is the end date of Kestrel's fiscal year 2030?", [_p("S1", LIST)]).text
    assert listed.startswith("Kestrel's fiscal year 2030 ended on May 30, 2030 [S1].")


def test_a_year_named_by_its_start_ends_early_in_the_next_calendar_year() -> None:
    text = read("When did Kestrel's fiscal 2030 end?", [_p("S1", BY_START)]).text
    assert text.startswith("Kestrel's fiscal 2030 ended on January 28, 2031 [S1]."), text
    assert "> 52 Weeks Ended January 28, 2031" in text


def test_without_a_date_how_the_company_says_its_year_ends() -> None:
    text = read("When does Kestrel's fiscal year end?", [_p("S1", RULE)]).text
    assert text.startswith("The documents say how the fiscal year ends: “Our fiscal year ends on the Saturday "
                           "nearest the end of January.” [S1]")
    other = _p("S1", COVER.replace("KESTREL OUTFITTERS", "OSPREY MILLS"), company="Osprey Mills, Inc.",
               file_name="osprey-10k.pdf")
    assert read("When did Kestrel's fiscal 2031 end?", [other]).declined


def test_the_cover_and_the_statements_headings_are_searched_for() -> None:
    from chat.models.reader.queries import search_queries

    assert "Kestrel fiscal year ended" in search_queries("When did Kestrel's fiscal 2031 end?")
