"""Every tunable weight and threshold of the answer path, in one place, each with the reason for its value.

Retrieval's weights are `storage.retrieval.fusion.Ranking`; these are the ones applied after retrieval: which
sentence or table row answers, which knowledge-base item is relevant, which message is small talk. Limits that
are not tuned (characters handed to a model, how many quotes are shown) stay named constants of their modules.

`TUNING` is what the product uses. A benchmark or a test that compares values builds its own
`AnswerTuning(...)` (e.g. `TUNING.model_copy(update={"rows": ...})`) rather than patching module constants.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SentenceTuning(_Frozen):
    """Extractive answers (agent/no_model/extractive.py): which sentences of the retrieved passages are quoted."""

    min_score: float = Field(0.25, description="the best sentence must score this to be quoted; off-topic questions "
                             "are caught earlier by search.weak_dense, so this only drops noise")
    semantic_weight: float = Field(0.6, description="sentence score = w cosine + (1 - w) question-word coverage")
    rank_penalty: float = Field(0.03, description="per retrieval rank: the retriever ranks whole pages, so its order "
                                "decides near ties")
    top_passage_margin: float = Field(0.1, description="the top passage's best sentence leads if within this of the "
                                      "overall best sentence")
    floor_of_best: float = Field(0.6, description="further quotes must score this share of the best sentence: "
                                 "a quote far weaker than the best is filler")
    floor_of_min_score: float = Field(0.8, description="and at least this share of min_score")


class RowTuning(_Frozen):
    """Figure answers (agent/no_model/figure_rows.py, cited_rows.py): which table row states the asked figure."""

    min_row_score: float = Field(0.5, description="below this no label-matched row leads the answer (the sentences "
                                 "alone answer): a missing figure is better than a wrong one")
    semantic_weight: float = Field(0.5, description="row score = w cosine(question, label) + (1 - w) label-word cover")
    rank_penalty: float = Field(0.02, description="per retrieval rank of the source the row comes from")
    glossary_weight: float = Field(0.7, description="a label word that is a glossary synonym of the question's "
                                   "line item (not the question's own word) counts this much")
    glossary_cover: float = Field(0.8, description="a question covered only by glossary synonyms of its line item "
                                  "covers at most this share (the question's own words are surer)")
    label_cover_weight: float = Field(0.5, description="lexical = w label cover + (1 - w) question cover")
    caption_weight: float = Field(0.5, description="a question word said by the table's caption, not the row label, "
                                  "counts this much of a label word")
    total_bonus: float = Field(0.05, description="a row agreeing with the question on 'total' (both say it or "
                               "neither does) gets this much: breaks the tie between a total and its first component")
    outside_passage_ranks: int = Field(2, description="a row of the cited page outside the retrieved passage counts "
                                       "as this many ranks lower")
    learned_rows: bool = Field(False, description="off: check right .692 -> .709 but wrong .034 -> .038 (one more); where the rules choose no row, the learned row scorer "
                               "(agent/no_model/row_scorer.py) may name one; False: the rules alone")
    learned_min_probability: float = Field(0.9, description="the scorer's row leads only at this softmax "
                                           "probability over the page's candidate rows (chosen on generated "
                                           "tune-filing questions the rules leave unanswered: bench.train_row_scorer)")
    learned_margin: float = Field(0.6, description="and only this far ahead of the runner-up row (a clear winner)")
    prose_words_said: float = Field(0.75, description="a sentence states the figure of a question naming more than 3 "
                                    "item words only when it says this share of them (agent/no_model/prose_figures.py: "
                                    "'buying' asked, 'purchase' said); up to 3 words, every one")


class MarkerTuning(_Frozen):
    """Citation markers without ids (agent/citations/legacy.py): which source a bare [n] of a model means."""

    lexical_weight: float = Field(0.5, description="candidate score = w word overlap + (1 - w) cosine")
    min_margin: float = Field(0.06, description="the best candidate must lead the runner-up by this, else the marker "
                              "is reported as ambiguous (bench.citations measures the margin)")


class SearchTuning(_Frozen):
    """What counts as found (agent/tools.py, agent/knowledge_base.py, agent/source_text.py)."""

    weak_dense: float = Field(0.2, description="a search whose hits share no term with the query and whose best "
                              "cosine is below this is 'nothing found' (MiniLM: off-topic 0.02-0.08, on-topic 0.24+)")
    knowledge_relevance: float = Field(0.45, description="cosine a query must reach for a knowledge-base item: "
                                       "on-topic paraphrases score 0.55-0.85, off-topic questions stay below 0.40")
    fuzzy_quote_ratio: float = Field(0.9, description="OCR text: a quote's window must match this well (difflib "
                                     "character ratio), since a letter or two of a word can be misread")


class SmallTalkTuning(_Frozen):
    """Conversational messages (agent/conversation.py): a greeting is answered without a search."""

    min_similarity: float = Field(0.35, description="the nearest conversational exemplar is at least this close")
    margin: float = Field(0.1, description="and this much closer than the nearest document question (the deciding "
                          "signal: 'hi, what was revenue' is a question)")


class AnswerTuning(_Frozen):
    sentences: SentenceTuning = SentenceTuning()
    rows: RowTuning = RowTuning()
    markers: MarkerTuning = MarkerTuning()
    search: SearchTuning = SearchTuning()
    small_talk: SmallTalkTuning = SmallTalkTuning()


TUNING = AnswerTuning()
