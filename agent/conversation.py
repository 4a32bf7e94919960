"""Conversation, not a question: greetings, thanks, goodbyes and questions about the app itself.

Such a message is answered as conversation in every mode, without a search (a search for "Hi
there!" with two filings selected found "Hi's net revenue"), and it is never the question an
elliptical follow-up ("and the year before?") is resolved against.

`kind(text)` decides with a nearest-exemplar vote over MiniLM embeddings (the model the retriever
already loads): the message is compared with a few dozen labelled exemplars of conversation and of
questions about documents; it is conversation when its nearest exemplar is conversational, close
enough, and closer than any document question. Exact small talk ("hi", "thanks!") is decided by
rule first, and anything naming a figure, a year or a long request is a question, so a greeting
that carries a question ("hi, what was revenue in 2022?") is searched.
"""

from __future__ import annotations

import re
import threading
from typing import Literal

import numpy as np
from agent.tuning import TUNING
from storage.documents import embeddings
from storage.finance.periods import YEAR

Kind = Literal["greeting", "thanks", "goodbye", "about_app"]

EXEMPLARS: dict[str, tuple[str, ...]] = {
    "greeting": ("hi", "hello", "hi there!", "hey there", "good morning", "good afternoon", "hello, how are you?",
                 "hey, how's it going?", "greetings", "yo"),
    "thanks": ("thanks", "thank you", "thanks a lot!", "many thanks", "great, thank you", "perfect, thanks",
               "cheers", "that's helpful, thanks", "awesome, thank you so much", "ok thanks"),
    "goodbye": ("bye", "goodbye", "see you later", "that's all for now", "have a nice day", "bye for now"),
    "about_app": ("what can you do?", "who are you?", "how does this work?", "how do I upload a PDF?",
                  "what are you?", "help", "how do I use this app?", "can you explain how to use this?",
                  "what kind of questions can I ask?", "how do I add a document?", "are you a bot?",
                  "what do the citation numbers mean?"),
}
QUESTIONS = (
    "what was revenue last year?", "how much cash does the company have?", "what are the main risks?",
    "who is the CEO?", "summarize the document", "what does the report say about debt?",
    "what drove the change in margin?", "explain the segment results", "is the business cyclical?",
    "what is the dividend policy?", "how many employees are there?", "list the legal proceedings",
    "what was operating income?", "describe the company's strategy", "what happened to inventory?",
    "tell me about the acquisition", "what is the outlook?", "how did sales perform in Europe?",
    "what are the accounting policies for leases?", "give me an overview of the filing",
)
_RULE = re.compile(
    r"^\s*(?:(?P<greeting>hi|hello|hey|hallo|howdy|good (?:morning|afternoon|evening))(?: there| all| team)?|"
    r"(?P<thanks>thanks?(?: you)?(?: (?:so|very) much| a lot)?|thank you(?: (?:so|very) much)?|cheers|ty|thx)|"
    r"(?P<goodbye>bye|goodbye|see you|ciao)|"
    r"(?P<about_app>who are you|what can you do|help|how does this work))\b[\s!.?,:)]*$",
    re.IGNORECASE,
)
_QUESTION_SIGNS = re.compile(r"\d|\$|%|\b(?:fy|fiscal|quarter|revenue|income|sales|cash|debt|margin|eps)\b", re.I)
MAX_WORDS = 10  # a longer message is a request, whatever its opening

_lock = threading.Lock()
_vectors: tuple[np.ndarray, list[str], np.ndarray] | None = None


def kind(text: str, embedder=None) -> Kind | None:
    """The conversational kind of `text`, or None for a question about the documents."""
    text = " ".join(text.split())
    if not text:
        return "greeting"
    if m := _RULE.match(text):
        return next(k for k, v in m.groupdict().items() if v)  # type: ignore[return-value]
    if len(text.split()) > MAX_WORDS or _QUESTION_SIGNS.search(text):
        return None
    conv, labels, questions = _exemplar_vectors(embedder)
    vec = _embedder(embedder).embed([text])[0]
    sims = conv @ vec
    best = int(np.argmax(sims))
    tune = TUNING.small_talk
    if sims[best] >= tune.min_similarity and sims[best] >= float(np.max(questions @ vec)) + tune.margin:
        return labels[best]  # type: ignore[return-value]
    return None


def is_conversation(text: str, embedder=None) -> bool:
    return kind(text, embedder) is not None


def reply_without_model(k: Kind, documents: list[str]) -> str:
    """What the no-model app says to conversation, naming the selected documents."""
    about = (f"the selected {'document' if len(documents) == 1 else 'documents'} ({'; '.join(documents[:4])}"
             f"{'; …' if len(documents) > 4 else ''})" if documents else "your PDFs (select or upload one first)")
    capabilities = (f"I answer questions about {about} by quoting the passages and table figures that answer "
                    "them, each with a citation that opens the page. No language model is configured, so I "
                    "quote rather than write.")
    if k == "greeting":
        return f"Hello! {capabilities}"
    if k == "thanks":
        return f"You're welcome. Ask me anything else about {about}."
    if k == "goodbye":
        return "Goodbye! Your conversation is kept in the sidebar."
    return (f"{capabilities} Upload PDFs on the Documents page (or drop them in the source folder), select them "
            f"in the sidebar, and ask, for example, for a figure and a year (\"{example_question(documents)}\"). "
            "Each [n] marker opens its source at the cited page.")


_TITLE_YEAR = re.compile(rf"\bFY\s?({YEAR})\b|\b({YEAR})\b")


def example_question(documents: list[str]) -> str:
    """An example figure question about a year the selected documents cover (their titles name it:
    "Acme · 10-K · FY2019"), or about no particular year when no title names one."""
    years = [int(m.group(1) or m.group(2)) for title in documents for m in _TITLE_YEAR.finditer(title)]
    if not years:
        return "What was net revenue in the latest year?"
    fiscal = any(m.group(1) for title in documents for m in _TITLE_YEAR.finditer(title))
    return f"What was net revenue in {'fiscal ' if fiscal else ''}{max(years)}?"


def _embedder(embedder):
    if embedder is None:
        embedder = embeddings.get_embedder()
    return embedder


def _exemplar_vectors(embedder) -> tuple[np.ndarray, list[str], np.ndarray]:
    global _vectors
    with _lock:
        if _vectors is None:
            labels = [k for k, texts in EXEMPLARS.items() for _ in texts]
            texts = [t for ts in EXEMPLARS.values() for t in ts]
            emb = _embedder(embedder)
            _vectors = (np.asarray(emb.embed(texts)), labels, np.asarray(emb.embed(list(QUESTIONS))))
        return _vectors
