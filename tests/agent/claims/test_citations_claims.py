"""The claim check (agent/claims/check.py): each cited sentence's figures, quotes and shown arithmetic
against the text of the sources it cites; one test per planted error and per printed form."""

from __future__ import annotations

from agent.claims.check import CheckedSource, check_answer, cited_sentences
from agent.source_text import find_span

TABLE = ("CONSOLIDATED STATEMENTS OF CASH FLOWS\n(in millions)\nYears ended December 31, 2018 2017\n"
         "Net sales 86,392 80,000\nPurchases of property, plant and equipment (1,577) (1,201)\nDiluted EPS $ 6.11 $ 5.20\n")
PROSE = "Total revenue for fiscal 2023 was $1.9 billion, up 18 percent. We operate three segments."
OTHER_PAGE = "Operating income was 12,345 in 2018."


def _check(text: str, **sources: str) -> list:
    return check_answer(text, {f"[^{k[1:]}]": CheckedSource([v]) for k, v in sources.items()})


def _problems(text: str, **sources: str) -> list[str]:
    return [p.text for c in _check(text, **sources) for p in c.problems]


def test_figures_restated_as_people_say_them_pass():
    for sentence in ("Net sales were $86.4 billion in 2018 [^1].", "Capital expenditures were $1.6 billion [^1].",
                     "Capex was -$1,577 million [^1].", "Net sales were 86,392 [^1].", "Diluted EPS was $6.11 per share [^1].",
                     "Capex of (1,577) in 2018 [^1]."):
        assert _problems(sentence, s1=TABLE) == [], sentence
    for sentence in ("Revenue was $1,900 million, up 18% [^2].", "Revenue was $1.9B [^2].", "It has 3 segments [^2]."):
        assert _problems(sentence, s2=PROSE) == [], sentence


def test_issue_example_and_each_planted_error_fails():
    assert _problems("Revenue was $9.9 trillion [^2].", s2=PROSE) == ["$9.9 trillion"]
    assert _problems("Net sales were $86,892 million [^1].", s1=TABLE) == ["$86,892 million"]  # a changed digit
    assert _problems("Net sales were $86.4 million [^1].", s1=TABLE) == ["$86.4 million"]  # a wrong scale
    assert _problems("Operating income was 12,345 [^1].", s1=TABLE) == ["12,345"]  # printed on another page
    # printed in a source the sentence does not cite
    assert _problems("Operating income was 12,345 [^1].", s1=TABLE, s3=OTHER_PAGE) == ["12,345"]
    assert _problems("Operating income was 12,345 [^3].", s1=TABLE, s3=OTHER_PAGE) == []
    # rounding is to the printed precision, not beyond it
    assert _problems("Revenue was $1.92 billion [^2].", s2=PROSE) == ["$1.92 billion"]


def test_a_quote_must_be_printed_in_the_source():
    assert _problems("The filing says “Total revenue for fiscal 2023 was $1.9 billion” [^2].", s2=PROSE) == []
    assert _problems("The filing says “Total revenue for fiscal 2023 was $1.9 billion” [^2].", s2=PROSE) == []
    changed = "The filing says “Total sales for fiscal 2023 was $1.9 billion” [^2]."  # one word changed
    assert _problems(changed, s2=PROSE) == ["Total sales for fiscal 2023 was $1.9 billion"]
    # a quoted table row's label (agent/citations/quotes.py cell form) must be printed too
    assert _problems("- Net revenue (2018): 86,392 [^1]", s1=TABLE) == ["Net revenue"]
    assert _problems("- Net sales (2018): 86,392 [^1]", s1=TABLE) == []


def test_quotes_are_found_through_line_breaks_hyphenation_ligatures_and_only_ocr_is_fuzzy():
    page = "The com-\npany’s ﬁnancial  results were \u201cstrong\u201d: revenue $ 1,234 ( 5 %)."
    for quote in ("company's financial results", "revenue $1,234 (5%)", "The company’s … revenue"):
        assert find_span(quote, page) is not None, quote
    misread = "company's flnancial resu1ts"
    assert find_span(misread, page) is None
    assert find_span(misread, page, fuzzy=True) is not None
    text = f"The filing says “{misread}” [^1]."
    assert check_answer(text, {"[^1]": CheckedSource([page], ocr=False)})[0].problems
    assert not check_answer(text, {"[^1]": CheckedSource([page], ocr=True)})[0].problems


def test_years_dates_ids_and_markers_are_not_figures():
    text = ("In fiscal 2023, as of December 31, 2022, per Note 7 of the 10-K for Q3 FY2022 and Item 1A, "
            "over the twelve months and 52 weeks ended, revenue was $1.9 billion [^2].")
    assert _problems(text, s2=PROSE) == []


def test_shown_arithmetic_passes_when_it_holds_and_fails_when_it_does_not():
    rows = "Gross profit 170,782\nNet sales 394,328\n"
    good = "- Gross margin, fiscal 2022 = gross profit 170,782 / net sales 394,328 = 43.3% (computed) [^1][^2]"
    assert _problems(good, s1=rows, s2=rows) == []
    bad = good.replace("43.3%", "45.3%")
    assert _problems(bad, s1=rows, s2=rows) == ["gross profit 170,782 / net sales 394,328 = 45.3%"]
    planted_input = good.replace("170,782", "170,882").replace("43.3%", "43.3%")
    assert "170,882" in _problems(planted_input, s1=rows, s2=rows)
    average = "- Net sales average = (394,328 + 365,817 + 274,515) / 3 = 344,886.7 (computed) [^1]"
    assert _problems(average, s1="394,328 365,817 274,515") == []
    total = "Sum of the printed components (computed, not printed): 1,000 + 2,500 = 3,500 [^1]"
    assert _problems(total, s1="Notes 1,000\nLoans 2,500") == []


def test_sentences_own_the_markers_written_after_their_full_stop():
    text = "Revenue grew to $1.9 billion. [^2] Costs fell. Margins rose [^1][^2].\n- “A row 1” [^1]\n```\n$5 [^1]\n```"
    found = [(s, [m.text for m in where.markers], where.last_index) for s, where in cited_sentences(text)]
    assert found == [("Revenue grew to $1.9 billion.", ["[^2]"], 0), ("Margins rose.", ["[^1]", "[^2]"], 2),
                     ("- “A row 1”", ["[^1]"], 3)]


def test_a_failed_sentence_says_what_each_cited_source_prints_instead():
    [claim] = _check("Revenue was $9.9 trillion [^2].", s2=PROSE)
    assert claim.source_ids == ["[^2]"] and claim.marker_index == 0
    assert claim.source_says == {"[^2]": "Total revenue for fiscal 2023 was $1.9 billion, up 18 percent."}
    [ok] = _check("Revenue was $1.9 billion [^2].", s2=PROSE)
    assert ok.ok and ok.source_says == {}
