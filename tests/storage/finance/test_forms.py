"""Forms as covers print them and questions name them (storage/finance/forms.py), the one home the cover reader
(storage/documents/metadata.py), the ranking's cover gap filler (storage/retrieval/document_profile.py) and the
question parser (storage/retrieval/question_scope.py) take them from."""

from __future__ import annotations

from storage.finance.forms import COVER_FORM, COVER_FORM_SPACED, RELEASE_COVER, asked_forms, cover_form_name
from storage.retrieval.document_profile import cover_form
from storage.retrieval.question_scope import question_scope


def test_a_cover_names_its_form_and_a_spaced_cover_too():
    assert COVER_FORM.search("UNITED STATES SECURITIES AND EXCHANGE COMMISSION FORM 20-F").group(1) == "20-F"
    assert COVER_FORM.search("FORM 10 - K") is None  # the cover reader's pattern: hyphen unspaced
    assert cover_form_name(COVER_FORM_SPACED.search("Form 10 - q for the quarterly period").group(1)) == "10-Q"
    assert cover_form("FORM 8 -K current report") == "8-K"
    assert RELEASE_COVER.search("ACME Corp. Reports Fourth Quarter and Full Year 2022 Results")
    assert cover_form("ACME Corp. Reports Fourth Quarter and Full Year 2022 Results") == "earnings release"


def test_the_forms_a_question_names():
    assert asked_forms("In its annual report, what was revenue?") == {"10-K", "annual report"}
    assert asked_forms("What did the 10-Q and the earnings call say?") == {"10-Q", "earnings release"}
    assert asked_forms("What was revenue in 2022?") == set()
    assert question_scope("per the 8-K").forms == {"8-K"}
