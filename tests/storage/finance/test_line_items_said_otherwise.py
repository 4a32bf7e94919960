"""line_items.said_otherwise: the analysts' words for printed words, both ways, as the search tokenizer stems them."""

from storage.documents.bm25 import tokenize
from storage.finance.line_items import said_otherwise


def test_pairs_map_both_ways_under_the_search_stemmer():
    pairs = said_otherwise(tokenize)
    stock, share = tokenize("stock")[0], tokenize("share")[0]
    assert share in pairs[stock] and stock in pairs[share]
    assert tokenize("repurchase")[0] in pairs[tokenize("buyback")[0]]
    assert tokenize("revenue")[0] not in pairs  # a word with no other printed form maps to nothing
