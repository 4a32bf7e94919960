"""Roll-forward periods from balance rows (storage/documents/table_rollforward.py)."""

from __future__ import annotations

from storage.documents.table_rollforward import balance_date, row_periods


def test_balance_rows_are_recognised_by_their_opening_words_and_date():
    assert balance_date("Balance at December 31, 2013")[0] == "December 31, 2013"
    assert balance_date("Balances as of May 31, 2020")[0] == "May 31, 2020"
    assert balance_date("Outstanding at February 3, 2018")[0] == "February 3, 2018"
    assert balance_date("Balance, December 31, 2020")[0] == "December 31, 2020"
    assert balance_date("Balance sheet date December 31, 2020") is None
    assert balance_date("Outstanding shares") is None
    assert balance_date("Net income") is None


def test_movements_take_the_year_ending_at_the_next_balance_when_it_is_a_year_later():
    labels = ["Outstanding at September 28, 2019", "Granted", "Vested", "Outstanding at September 26, 2020",
              "Granted", "Outstanding at September 30, 2022", "Forfeited"]
    assert row_periods(labels) == ["September 28, 2019", "Year ended September 26, 2020",
                                   "Year ended September 26, 2020", "September 26, 2020",
                                   None, "September 30, 2022", None]  # two years apart; after the last balance
    assert row_periods(["Balance at December 31, 2013", "Net income"]) is None  # one balance: no roll-forward
