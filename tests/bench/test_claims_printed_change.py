"""The hostile class "direction against a printed change" (bench/claims.py printed_change_forms): a change the
gold row prints as a percentage, said against its printed direction, written from the row's words only."""

import random

from bench.claims import _percent_words, printed_change_forms


def _row(value: float, prior: float, words: list[str], negative: bool = False) -> dict:
    return {"value": value, "negative": negative, "prior": {"value": prior, "printed": f"{prior:,}", "year": 2021},
            "changes": _percent_words([(0, 0, w) for w in words])}


def test_a_printed_percent_word_is_read_with_its_sign_and_a_detached_percent_sign():
    assert _percent_words([(0, 0, w) for w in ["Net", "income", "6,177.4", "(1,367.8)", "(18)%"]]) == ["(18)%"]
    assert _percent_words([(0, 0, w) for w in ["Revenue", "12", "%", "3.5%"]]) == ["12%", "3.5%"]


def test_a_printed_decrease_is_said_falling_true_and_rising_planted():
    forms = printed_change_forms("Net income", _row(6177.4, 7545.2, ["$", "6,177.4", "$", "7,545.2", "(18)%"]), False,
                                 random.Random(1))
    (true, true_cls, true_planted), (wrong, wrong_cls, wrong_planted) = forms
    assert "18%" in true and any(v in true for v in ("fell", "decreased", "declined", "dropped")) and not true_planted
    assert "18%" in wrong and any(v in wrong for v in ("rose", "increased", "grew", "climbed")) and wrong_planted
    assert (true_cls, wrong_cls) == ("printed change, its direction", "direction against a printed change")


def test_no_form_when_the_printed_percent_is_not_the_rows_change_or_the_row_is_a_percentage():
    assert printed_change_forms("Net income", _row(6177.4, 7545.2, ["6,177.4", "7,545.2", "(25)%"]), False, random.Random(1)) == []
    assert printed_change_forms("Net income", _row(6177.4, 7545.2, ["6,177.4", "7,545.2", "18%"]), False, random.Random(1)) == []
    assert printed_change_forms("Margin", _row(43.3, 41.8, ["43.3%", "41.8%", "(18)%"]), True, random.Random(1)) == []
