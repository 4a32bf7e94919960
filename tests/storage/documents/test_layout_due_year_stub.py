"""A schedule of amounts due by year with several columns under a header of its own (a lease maturity
schedule: "Operating Leases  Finance Leases  Total"; purchase commitments by kind), its years printed in
the stub with no label ("2025", "2026", ... "Thereafter", "Total"). The years were read as a first column of
values, so the year rows had no label and the answer path (`row_cells`) dropped them: "operating lease
payments due in 2026" found no row. The years are the rows' labels; a neighbouring layout whose year column
is titled ("Maturity") or whose year rows follow other rows of the table reads as before."""

from __future__ import annotations


from tests.storage.documents.due_year_pages import DATED, LEASES, SCHEDULE, schedule_rows, stub_schedule
from tests.storage.documents.layout_pages import read_facts


def test_the_years_of_a_dated_multi_column_schedule_label_its_rows():
    data = stub_schedule(DATED, LEASES)
    rows = schedule_rows(data)
    assert rows.get("2026") == [("2024 Operating Leases", "1,742"), ("2024 Finance Leases", "130"), ("2024 Total", "1,872")], rows
    assert rows["2025"][0] == ("2024 Operating Leases", "$1,758")
    assert rows["Thereafter"] == [("2024 Operating Leases", "5,080"), ("2024 Finance Leases", "906"), ("2024 Total", "5,986")]
    facts = read_facts(data)
    due = [f for f in facts if f.label == "2028" and f.value_text == "1,382"]
    assert due and due[0].fiscal_year == 2024 and due[0].scale == 1e6 and due[0].column == 0, due
    assert not [f for f in facts if f.value_text in ("2025", "2026")]  # no year stored as an amount


def test_a_one_line_title_row_under_a_caption_of_another_form():
    rows = schedule_rows(stub_schedule("Annual purchase commitments under various contracts as of May 31, 2024 were as follows (in millions):",
                       (("Aircraft", "Other", "Total"),)))
    assert rows.get("2027") == [("2024 Aircraft", "1,677"), ("2024 Other", "81"), ("2024 Total", "1,758")], rows


def test_a_titled_year_column_and_years_under_other_rows_read_as_before():
    # a column of years titled "Maturity" (a debt table's) is a column, not the stub
    titled = schedule_rows(stub_schedule(DATED, (("Maturity", "Principal", "Total"),), rows=[
        ("Senior notes", "2025", "1,000", "1,000"), ("Senior notes", "2026", "750", "750"), ("Senior notes", "2027", "500", "500")]))
    assert "2026" not in titled
    # year rows printed under a balance table's rows and header ("2024  2023"), after its caption: not a
    # schedule with a header of its own (its figures stand under the balance table's columns)
    after = schedule_rows(stub_schedule("", (("", "2024", "2023"),), rows=[
        ("Operating lease liabilities", "", "$1,539", "$1,352"), ("Maturities of operating lease liabilities are as follows:",),
        ("2025", "", "", "$301"), ("2026", "", "", "253"), ("2027", "", "", "190"), ("Thereafter", "", "", "1,083")]))
    assert "Operating lease liabilities" in after and "2026" not in after, after
