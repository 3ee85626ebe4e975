"""Who signed a filing: the "/s/" names of the signature block of the kind of filing asked, a lone signer with the
title the block gives. Made-up filings."""

from __future__ import annotations

from chat.models.reader import Passage, read
from chat.models.reader.signers import asks_signers

EIGHT_K = ("KESTREL PLC › Exhibit No. Description\nSIGNATURES\nPursuant to the requirements of the Securities Exchange "
           "Act of 1934, the registrant has duly caused this report to be signed on its behalf by the undersigned "
           "hereunto duly authorized.\nBy: /s/ Dana Clayborne\nName: Dana Clayborne\nTitle: Company Secretary\n"
           "Dated: July 1, 2031")
TEN_K = ("KESTREL PLC\nSignatures\nPursuant to the requirements of Section 13 or 15(d) of the Securities Exchange Act "
         "of 1934, the Registrant has duly caused this report to be signed on its behalf.\nBy /s/ Mira Castell By /s/ "
         "Jules Soren\nMira Castell, Chief Financial Officer\nJules Soren, Corporate Controller\n/s/ Ron Dell /s/ "
         "Arne Meyer\nRon Dell, Chief Executive Officer Arne Meyer, Director")


def test_the_signers_of_the_filing_asked() -> None:
    """(before: "The documents say Securities Exchange Act of" — the sentence about signing, no name)"""
    assert asks_signers("Who signed Kestrel's 8-K dated July 1, 2031?")
    assert not asks_signers("Who is Kestrel's chief executive officer?")
    passages = [Passage("S1", TEN_K, "doc-10k", "KESTREL_2031_10K.pdf", 115, company="Kestrel plc"),
                Passage("S2", EIGHT_K, "doc-8k", "KESTREL_2031_8K_dated-2031-07-01.pdf", 3, company="Kestrel plc")]
    first = read("Who signed Kestrel's 8-K dated July 1, 2031?", passages).text.split("\n")
    assert first[0] == "The filing was signed by Dana Clayborne (Company Secretary) [S2]."
    assert first[1] == "> By: /s/ Dana Clayborne Name: Dana Clayborne Title: Company Secretary"
    annual = read("Who signed Kestrel's 10-K?", passages).text
    assert annual.startswith("The filing was signed by Mira Castell, Jules Soren, Ron Dell, Arne Meyer [S1]."), annual
