"""Where a company is incorporated, where its stock is listed and where its principal executive offices are: the
cover page's labelled values and the sentences that state them of the company itself (not of a subsidiary, not
"incorporation by reference"), and the cover page read when the search results do not say. Made-up filings."""

from __future__ import annotations

from dataclasses import replace

from chat.models.reader import Passage, read
from chat.models.reader.cover_facts import (
    asked_fact,
    cover_address,
    cover_exchange,
    cover_incorporation,
    cover_symbol,
    covers_to_read,
    incorporation_in,
    listed_on,
    shares_stated,
    symbol_of,
)
from chat.models.reader.queries import search_queries
from chat.models.reader.question import analyze
from chat.models.tool_format import format_page, format_search_results
from retrieval.types import Hit
from tests.chat.models.local_turns import PageStub, local_turn

COVER = """UNITED STATES
SECURITIES AND EXCHANGE COMMISSION
Washington, D.C. 20549
FORM 10-K
For the fiscal year ended December 31, 2031
Commission File Number 001-40123
OSPREY WORKS, INC.
(Exact name of registrant as specified in its charter)
_____________________________ DE 84-1234567
(State or other jurisdiction of
incorporation or organization)
(I.R.S. Employer
Identification No.)
1200 Harbor Lane
Tacoma, Washington
98402
(Zip Code)
(Address of principal executive offices)
(253) 555-0100
(Registrant's telephone number, including area code)
Securities registered pursuant to Section 12(b) of the Act:
Title of each class Trading Symbol(s) Name of each exchange on which registered
4.250% Notes due 2040 OSPR40 New York Stock Exchange
Common Stock, $0.001 par value per share OSPR The Nasdaq Global Select Market
Securities registered pursuant to Section 12(g) of the Act: None
Indicate by check mark if the registrant is a well-known seasoned issuer. Yes ☒ No ☐"""

#: an older cover: each label before its value on one line
COLON_COVER = """FORM 10-K
Commission file number 1-9999
KESTREL MACHINE WORKS COMPANY
State of Incorporation: Ohio I.R.S. Employer Identification No. 31-0000001
Principal executive offices: One Kestrel Plaza, Dayton, Ohio 45402
Telephone number: (937) 555-0100"""

SUBSIDIARIES = """OSPREY WORKS, INC. › Exhibit 21
SUBSIDIARIES OF THE REGISTRANT
Name of Subsidiary
State or Other Jurisdiction of
Incorporation or Organization
Osprey Finance B.V. Netherlands
Osprey Logistics, Inc. Delaware"""

HISTORY = ("Osprey Works, Inc. was originally incorporated in the State of Oregon in 1961 and reincorporated in "
           "Delaware in 1999. Osprey Logistics, Inc. is incorporated in Texas. We consent to the incorporation by "
           "reference in the registration statements on Form S-8 of our report dated February 20, 2032.")
MARKET = ("Market Information. Our common stock is listed on the Nasdaq Global Select Market under the symbol "
          "“OSPR.” Our subsidiary Osprey Invest facilitates trades in exchange-traded funds listed on the NYSE Arca.")


def _p(text: str, ref: str = "S1", page: int = 1, doc: str = "doc-o") -> Passage:
    return Passage(ref, text, doc, "OSPREY_2031_10K.pdf", page, company="OSPREY WORKS, INC.")


def test_the_asked_fact_is_told_from_its_wording() -> None:
    for question in ("In which state is Osprey incorporated?", "What is Osprey's state of incorporation?",
                     "Under the laws of which jurisdiction is Osprey Works organized?",
                     "Where is Osprey Works incorporated?"):
        assert asked_fact(analyze(question)) == "incorporation", question
    for question in ("On which stock exchange is Osprey's common stock listed?", "Where does Osprey's stock trade?",
                     "Which exchange lists Osprey's shares?"):
        assert asked_fact(analyze(question)) == "exchange", question
    for question in ("What is Osprey's ticker symbol?", "Under what symbol does Osprey Works' stock trade?"):
        assert asked_fact(analyze(question)) == "symbol", question
    for question in ("When was Osprey incorporated?", "What was Osprey's foreign exchange loss in 2031?",
                     "How many shares of Osprey's stock traded in 2031?", "Where is Osprey headquartered?",
                     "What is the fair value of Osprey's trading securities?",
                     "What amounts are incorporated by reference in Osprey's 10-K?"):
        assert asked_fact(analyze(question)) == "", question


def test_the_cover_pages_labelled_values() -> None:
    [(quote, state)] = cover_incorporation(COVER)
    assert state == "Delaware" and COVER[quote[0]:quote[1]].startswith("DE 84-1234567")
    [(quote, address)] = cover_address(COVER)
    assert address == "1200 Harbor Lane, Tacoma, Washington, 98402", address
    assert COVER[quote[0]:quote[1]].startswith("1200 Harbor Lane")
    [(quote, exchange)] = cover_exchange(COVER)
    assert exchange == "Nasdaq Global Select Market" and "Common Stock" in COVER[quote[0]:quote[1]]
    assert [v for _, v in cover_incorporation(COLON_COVER)] == ["Ohio"]
    assert [v for _, v in cover_address(COLON_COVER)] == ["One Kestrel Plaza, Dayton, Ohio 45402"]
    assert cover_incorporation(SUBSIDIARIES) == []  # a subsidiaries list's column header is no cover label
    [(quote, symbol)] = cover_symbol(COVER)
    assert symbol == "OSPR" and COVER[quote[0]:quote[1]].startswith("Common Stock")
    chunk = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION\n702 Pier Road\nTacoma, WA 98402\n" \
            "(Address of principal executive offices) (Zip Code)"
    assert [v for _, v in cover_address(chunk)] == ["702 Pier Road, Tacoma, WA 98402"]  # a heading is no address


def test_sentences_of_the_company_itself() -> None:
    names = ["Osprey Works"]
    assert incorporation_in(HISTORY.split(". Osprey Logistics")[0], names) == "Delaware"  # the latest
    assert incorporation_in("Osprey Logistics, Inc. is incorporated in Texas.", names) == ""
    assert incorporation_in("We consent to the incorporation by reference in the registration statements.",
                            names) == ""
    assert incorporation_in("Osprey Works, Inc. is a Delaware corporation that operates freight terminals.",
                            names) == "Delaware"
    assert listed_on(MARKET.split(" Our subsidiary")[0], names) == "Nasdaq Global Select Market"
    assert listed_on("Our subsidiary facilitates trades in exchange-traded funds listed on the NYSE Arca.",
                     names) == ""
    assert symbol_of(MARKET, names) == "OSPR"
    assert symbol_of("The ticker symbol for Osprey Works, Inc. is “OSPR”.", names) == "OSPR"


def test_read_states_the_fact_with_its_quote() -> None:
    head = read("In which state is Osprey Works incorporated?", [_p(HISTORY, page=5)]).text.splitlines()[0]
    assert head.startswith("The documents say Delaware:") and "reincorporated in Delaware" in head, head
    head = read("On which exchange is Osprey Works' common stock listed?", [_p(MARKET, page=22)]).text
    assert head.startswith("The documents say Nasdaq Global Select Market:"), head
    head = read("What is Osprey Works' state of incorporation?", [_p(COVER)]).text.splitlines()[0]
    assert head.startswith("The documents say Delaware:"), head
    head = read("What is Osprey Works' ticker symbol?", [_p(MARKET, page=22)]).text.splitlines()[0]
    assert head.startswith("The documents say OSPR:"), head
    head = read("What is the address of Osprey Works' principal executive offices?", [_p(COVER)]).text
    assert head.startswith("The documents say 1200 Harbor Lane, Tacoma, Washington, 98402:"), head
    head = read("Where is Osprey Works headquartered?", [_p(COVER)]).text.splitlines()[0]
    assert head.startswith("The documents say 1200 Harbor Lane, Tacoma, Washington, 98402:"), head


def test_no_fact_stated_is_never_sure() -> None:
    answer = read("In which state is Osprey Works incorporated?", [_p(SUBSIDIARIES, page=120)])
    assert not answer.text.startswith("The documents say"), answer.text  # the closest evidence, or a decline


def test_the_search_asks_for_the_facts_section_words() -> None:
    queries = search_queries("In which state is Osprey Works incorporated?")
    assert any("jurisdiction of incorporation" in q for q in queries), queries
    queries = search_queries("Which exchange lists Osprey Works' shares?")
    assert any("Name of each exchange" in q for q in queries), queries


def test_covers_to_read_are_the_named_companys_first_pages() -> None:
    q = analyze("Where is Osprey Works incorporated?")
    ours = Passage("S1", "Risk factors …", "doc-o", "report.pdf", 14, company="OSPREY WORKS, INC.")
    theirs = Passage("S2", "Risk factors …", "doc-k", "other.pdf", 9, company="KESTREL MACHINE WORKS COMPANY")
    assert covers_to_read(q, [ours, theirs], headquarters=False) == [("doc-o", 1)]
    read_already = Passage("P1", COVER, "doc-o", "report.pdf", 1, company="OSPREY WORKS, INC.")
    assert covers_to_read(q, [ours, read_already], headquarters=False) == []
    assert covers_to_read(analyze("What was Osprey Works' revenue in 2031?"), [ours], headquarters=False) == []


async def test_the_local_model_reads_the_cover_when_the_search_does_not_say() -> None:
    question = "Where are Osprey Works' principal executive offices located?"
    hits = [Hit(chunk_id="o:14", document_id="doc-o", file_name="OSPREY_2031_10K.pdf", page_start=14, page_end=14,
                text="OSPREY WORKS, INC. › Properties\nWe operate 42 freight terminals in 11 states.", score=1.0)]
    messages: list[dict] = [{"role": "user", "content": [{"type": "text", "text": question}]}]
    msg = await local_turn(messages)
    uses = msg["content"]
    messages += [{"role": "assistant", "content": uses},
                 {"role": "user", "content": [
                     {"type": "tool_result", "tool_use_id": u["id"],
                      "content": format_search_results(hits if i == 0 else [], 1 + i)} for i, u in enumerate(uses)]}]
    msg = await local_turn(messages)
    assert msg["stop_reason"] == "tool_use", msg
    [read_cover] = msg["content"]
    assert read_cover["name"] == "read_page" and read_cover["input"] == {"document_id": "doc-o", "page": 1}
    messages += [{"role": "assistant", "content": msg["content"]},
                 {"role": "user", "content": [{"type": "tool_result", "tool_use_id": read_cover["id"],
                                               "content": format_page(PageStub("doc-o", "OSPREY_2031_10K.pdf", 1,
                                                                               COVER, 90), "P1")}]}]
    answer = await local_turn(messages)
    first = answer["content"][0]["text"].splitlines()[0]
    assert first.startswith("The documents say 1200 Harbor Lane, Tacoma, Washington, 98402:") and "[P1]" in first, first


def test_another_companys_facts_are_never_sure() -> None:
    kestrel = Passage("S1", "Properties. Our corporate headquarters are located in Dayton, Ohio. We were "
                      "incorporated in Ohio in 1921. Our common stock is listed on the New York Stock Exchange.",
                      "doc-k", "KESTREL_2031_10K.pdf", 18, company="KESTREL MACHINE WORKS COMPANY")
    for question in ("Where is Osprey Works headquartered?", "In which state is Osprey Works incorporated?",
                     "On which exchange is Osprey Works' common stock listed?"):
        answer = read(question, [kestrel])  # no passage names Osprey: its documents are not here
        assert answer.declined and answer.why.startswith("name-missing"), (question, answer.text)
    # Osprey's own filing is here too, and Kestrel's text mentions Osprey: Kestrel's seat is still not Osprey's
    mention = Passage("S1", "Properties. Our corporate headquarters are located in Dayton, Ohio, near Osprey Works' "
                      "main terminal.", "doc-k", "KESTREL_2031_10K.pdf", 18, company="KESTREL MACHINE WORKS COMPANY")
    ours = _p("Risk factors. Our freight volumes depend on the economy.", ref="S2", page=9)
    answer = read("Where is Osprey Works headquartered?", [mention, ours])
    assert not answer.text.startswith("The documents say"), answer.text
    # a common word is no name: "square feet" does not make a filing Square's
    feet = Passage("S1", "Our global headquarters are located in New York City in 800,000 square feet of space.",
                   "doc-p", "PARROT_2031_10K.pdf", 20, company="PARROT PHARMA INC.")
    answer = read("Where is Square headquartered?", [feet])
    assert not answer.text.startswith("The documents say"), answer.text


OFFICERS = """OSPREY WORKS, INC. › Executive Officers of the Registrant
Name Age Position
Jane A. Lark 51 CEO Worldwide Freight
Stephanie Q. Rowe 50 Executive Vice President, President and Chief Executive Officer, Osprey Marine Services since
April 2031.
Tom B. Finch 54 President, Chief Executive Officer, and Chairman of the Board"""


def test_a_units_chief_executive_is_not_the_companys() -> None:
    head = read("Who is Osprey Works' CEO?", [_p(OFFICERS, page=60)]).text.splitlines()[0]
    assert head.startswith("The documents say Tom B. Finch:"), head
    own = _p("Name Age Position\nRobert K. Hale 56 Chief Executive Officer of Osprey Works\n", page=61)
    head = read("Who is Osprey Works' CEO?", [own]).text.splitlines()[0]
    assert head.startswith("The documents say Robert K. Hale:"), head  # the company's own office, named


def test_any_chief_officer_asked_is_the_one_named() -> None:
    roster = _p(OFFICERS + "\nAnn C. Dale 61 Chief Marketing Officer", page=60)
    head = read("Who is Osprey Works' chief marketing officer?", [roster]).text.splitlines()[0]
    assert head.startswith("The documents say Ann C. Dale:"), head
    # the office asked named of nobody: another office's holder is no answer (before: "Osprey Marine Services", sure)
    answer = read("Who is Osprey Works' chief marketing officer?", [_p(OFFICERS, page=60)])
    assert answer.why != "sure" and not answer.text.startswith("The documents say"), answer.text


def test_another_filings_officer_is_no_answer_though_it_names_the_company_elsewhere() -> None:
    kestrel = Passage("S1", "Name Age Position\nAnn C. Dale 56 Executive Vice President and Chief Financial Officer\n"
                      "Mr. Finch serves as lead independent director on the board of directors of Osprey Works.",
                      "doc-k", "KESTREL_2031_10K.pdf", 18, company="KESTREL MACHINE WORKS COMPANY")
    answer = read("What is the name of Osprey Works' chief financial officer?", [kestrel])
    # before: "The closest the documents come: “Ann C. Dale … Chief Financial Officer”", Kestrel's CFO
    assert answer.declined and "Ann C. Dale" not in answer.text.split("closest passage")[0], answer.text


def test_an_appointment_names_a_person_not_a_unit() -> None:
    bio = _p("Mr. Hale was appointed chief financial officer of Osprey Cable Systems in July 2020 and, in 2023, he "
             "took on the additional role of group controller.", page=62)
    answer = read("Who is the chief financial officer of Osprey Works?", [bio])
    assert "Osprey Cable Systems:" not in answer.text and not answer.text.startswith("The documents say"), answer.text
    terms = _p("OSPREY WORKS, INC. › STOCK OPTION AWARD TERMS\nChief Executive Officer and\nPrincipal Executive "
               "Officer of\nOsprey Works, Inc.", page=140)
    answer = read("Who is Osprey Works' CEO?", [terms])
    assert "STOCK OPTION" not in answer.text.splitlines()[0].split(":")[0], answer.text


def test_another_filings_officer_is_not_the_named_companys() -> None:
    kestrel = Passage("S1", "Name Age Position\nTom B. Finch 54 President and Chief Executive Officer\nAnn C. Dale 61 "
                      "Director; formerly a director of Osprey Works", "doc-k", "KESTREL_2031_10K.pdf", 70,
                      company="KESTREL MACHINE WORKS COMPANY")
    answer = read("Who is Osprey Works' CEO?", [kestrel])
    assert not answer.text.startswith("The documents say Tom B. Finch"), answer.text
    own = Passage("S1", kestrel.text, "doc-o", "annual-report.pdf", 70)  # no identity: its text may name the company
    assert read("Who is Kestrel's CEO?", [replace(own, text="Kestrel Machine Works\n" + own.text)]).text.startswith(
        "The documents say Tom B. Finch:")


SHARES_COVER = """Indicate by check mark whether the registrant is a shell company. Yes ☐ No ☒
The aggregate market value of the common stock held by non-affiliates of the registrant as of June 30, 2031 was
approximately $12 billion based on the closing price on such date.
There were 412,500,318 shares of common stock outstanding as of January 31, 2032.
DOCUMENTS INCORPORATED BY REFERENCE"""
CLASSES_COVER = """Aggregate market value of voting stock held by non-affiliates $ 9,632,565,644
As of July 9, 2031, the number of shares of the Registrant's Common Stock outstanding were: Class A 305,011,252
Class B 1,276,789,972 1,581,801,224"""
NOTES = ("In 2031, we purchased 19.7 million shares of our common stock for $1,267 million. Osprey Works has 2,300 "
         "outstanding shares of Series A Convertible Preferred Stock as of December 31, 2031.")


def test_the_shares_outstanding_are_the_covers_count() -> None:
    for question in ("How many shares of Osprey Works' common stock were outstanding?",
                     "What is the number of Osprey Works' shares outstanding?"):
        assert asked_fact(analyze(question)) == "shares", question
    for question in ("How many shares did Osprey Works repurchase in 2031?",
                     "What were Osprey Works' weighted average diluted shares outstanding in 2031?",
                     "How many shares were outstanding at December 31, 2031?"):
        assert asked_fact(analyze(question)) == "", question
    [(quote, count)] = shares_stated(SHARES_COVER)
    assert count == "412,500,318 shares as of January 31, 2032"
    assert SHARES_COVER[quote[0]:quote[1]].startswith("There were 412,500,318")  # not the market value's sentence
    assert [c for _, c in shares_stated(CLASSES_COVER)] == ["1,581,801,224 shares as of July 9, 2031"]  # the total
    assert shares_stated(NOTES) == []
    question = "How many shares of Osprey Works' common stock were outstanding?"
    head = read(question, [_p(NOTES, page=70), _p(SHARES_COVER, ref="S2")]).text.splitlines()[0]
    assert head.startswith("The documents say 412,500,318 shares as of January 31, 2032:"), head
    answer = read(question, [_p(NOTES, page=70)])  # a repurchase's or preferred stock's shares are not the count
    assert not answer.text.startswith("The documents say"), answer.text
    assert covers_to_read(analyze(question), [_p(NOTES, page=70)], headquarters=False) == [("doc-o", 1)]


def test_of_counts_at_several_dates_the_latest_leads() -> None:
    both = ("Of the 255 million and 272 million shares of common stock issued and outstanding as of December 31, 2031 "
            "and 2030, respectively, 3 million were held in trust.")
    assert shares_stated(both) == []  # two years' counts in one sentence: neither is stated alone
    older = ("Of the 400 million shares of common stock issued and outstanding as of December 31, 2030, 12 million "
             "vested.")
    question = "How many shares of Osprey Works' common stock were outstanding?"
    head = read(question, [_p(older, page=80), _p(SHARES_COVER, ref="S2")]).text.splitlines()[0]
    assert head.startswith("The documents say 412,500,318 shares as of January 31, 2032:"), head


def test_each_class_is_said_where_no_total_is_printed() -> None:
    two = ("As of February 18, 2032, the number of shares of the registrant's Class A common stock outstanding was "
           "389,826,763 and the number of shares of the registrant's Class B common stock outstanding was 62,171,003.")
    assert [c for _, c in shares_stated(two)] == ["389,826,763 and 62,171,003 shares as of February 18, 2032"]


def test_no_other_companys_officer_or_passing_mention_answers_who_leads_the_company() -> None:
    # Osprey Works' CEO asked of a project that holds only Kestrel's filings: Kestrel's CEO, and a Kestrel
    # director's biography that mentions Osprey Works, are no answer — the reader declines
    roster = Passage("S1", "Name Age Position\nTom B. Finch 54 President and Chief Executive Officer", "doc-k",
                     "KESTREL_2031_10K.pdf", 70, company="KESTREL MACHINE WORKS COMPANY")
    bio = Passage("S2", "Prior to joining Kestrel, Ms. Dale served as chief information officer for Osprey Works.",
                  "doc-k", "KESTREL_2031_10K.pdf", 12, company="KESTREL MACHINE WORKS COMPANY")
    answer = read("Who is the chief executive officer of Osprey Works?", [roster, bio])
    assert answer.declined and "Tom B. Finch" not in answer.text.splitlines()[0], answer.text
