"""Quotes are whole sentences: the segmenter (syntok) does not cut at "U.S.", "Inc." or "No."."""

from __future__ import annotations

from agent.no_model.extractive import split_sentences

PARAGRAPH = (
    "Sales to customers in the U.S. accounted for approximately 20% and 21%, respectively, of the U.S. "
    "segment's revenue in fiscal 2022 and 2021. Contoso Holdings, Inc. acquired the remaining interest on "
    "March 3, 2022 under Agreement No. 4 for $1.2 billion. The Company employed approximately 164,000 "
    "full-time equivalent employees."
)


def test_a_sentence_holding_us_and_inc_is_quoted_whole():
    sentences = split_sentences(PARAGRAPH)
    assert sentences == [
        "Sales to customers in the U.S. accounted for approximately 20% and 21%, respectively, of the U.S. "
        "segment's revenue in fiscal 2022 and 2021.",
        "Contoso Holdings, Inc. acquired the remaining interest on March 3, 2022 under Agreement No. 4 for $1.2 billion.",
        "The Company employed approximately 164,000 full-time equivalent employees.",
    ]


def test_sentences_are_verbatim_pieces_of_the_text():
    text = "Revenue rose 5.2% to $1,234.5 million.  Margins held (see Note 3).\nOutlook: steady."
    for sentence in split_sentences(text):
        assert " ".join(sentence.split()) in " ".join(text.split())
