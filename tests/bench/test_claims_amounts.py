"""The hostile-claims generators write every amount with a scale word through one helper
(bench/claims_everyday.py `said_amount`, `said_by_size`), the form a parameter."""

from bench.claims import _ROUNDED
from bench.claims_everyday import MONEY, said_amount, said_by_size


def test_an_amount_is_said_with_its_scale_word_decimals_and_lead():
    assert said_amount(394_328e6, "billion", 1) == "$394.3 billion"
    assert said_amount(394_328e6, "million", 0, "about ") == "about $394,328 million"
    assert said_amount(8_250e3, "thousand", 0) == "$8,250 thousand"


def test_the_first_form_an_amount_reaches_says_it_else_the_last():
    assert [said_by_size(u, MONEY) for u in (394_328e6, 1_269e6, 8_250e3, 950e3)] == \
        ["$394.3 billion", "$1.3 billion", "$8.2 million", "$950 thousand"]
    assert [said_by_size(u, _ROUNDED) for u in (394_328e6, 394_328e3, 8_250e3)] == \
        ["about $394 billion", "roughly $0.4 billion", "approximately $8 million"]
    assert said_by_size(-5e3, MONEY) == "$-5 thousand"  # below every least amount: the last form
