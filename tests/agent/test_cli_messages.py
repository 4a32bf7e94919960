"""The shell command labels what answered: a configured model that failed is not "no model configured"."""

from __future__ import annotations

from storage.schema import AnswerResult


def _fake_service(llm):
    class Service:
        def __init__(self, **kwargs):
            self.llm = llm

        def ask(self, *args, **kwargs):
            return AnswerResult(message="Quoted.", route="documents", mode="extractive", saved=False,
                                error="The language model failed (ReadTimeout), so this answer quotes the documents instead.")

    return Service


def test_a_failed_model_is_labelled_as_failed(monkeypatch, capsys):
    from agent import cli
    from agent import service

    monkeypatch.setattr(service, "ChatService", _fake_service(llm=object()))
    assert cli.main(["What was revenue?"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("[documents · extractive: the model failed]") and "no model configured" not in out

    monkeypatch.setattr(service, "ChatService", _fake_service(llm=None))
    assert cli.main(["What was revenue?"]) == 0
    assert "[documents · extractive: no model configured]" in capsys.readouterr().out


def test_an_unexpected_failure_is_one_sentence(monkeypatch, capsys):
    from agent import cli
    from agent import service

    class Broken:
        def __init__(self, **kwargs):
            self.llm = None

        def ask(self, *args, **kwargs):
            raise ConnectionError("socket closed")

    monkeypatch.setattr(service, "ChatService", Broken)
    assert cli.main(["What was revenue?"]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "error: the question could not be answered (ConnectionError); run with --verbose for details"


def test_a_sentence_the_cited_source_does_not_print_is_listed():
    from agent.cli import format_answer
    from storage.schema import ClaimCheck

    result = AnswerResult(message="Revenue was $9.9 trillion [^1].", route="documents", claims=[
        ClaimCheck(sentence="Revenue was $9.9 trillion.", marker_index=0, source_ids=["[^1]"],
                   problems=[{"kind": "figure", "text": "$9.9 trillion"}]),
        ClaimCheck(sentence="Costs fell.", marker_index=1, source_ids=["[^1]"])])
    out = format_answer(result)
    assert out.endswith("Not printed in the sources they cite:\n  Revenue was $9.9 trillion. — not found in [^1]: $9.9 trillion")
    assert "Costs fell" not in out
