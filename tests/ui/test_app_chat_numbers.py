"""Numbering as readers see it (AppTest, real ChatService in no-model mode, real history): every
answer's badges, buttons and Sources read 1…n in order of first use, each opening its own source,
while the stored ids stay unique across the conversation."""

from __future__ import annotations

import re

from storage.schema import Citation
from tests.fixtures_ui import citation_buttons, new_app

BADGE_RE = re.compile(r":blue-badge\[(?P<label>[^\]]+)\]\]\(#cite-(?P<key>[A-Za-z0-9_-]+)\)")


def _answers(at) -> list[str]:
    return [m.value for m in at.markdown if ":blue-badge[" in m.value]


def test_each_answer_numbers_its_sources_from_one_and_each_badge_opens_its_own(chat_service, sample_processed, ui_env):
    at = new_app().run()
    at.chat_input[0].set_value("What was the net debt at year end?").run()
    at.chat_input[0].set_value("How many people did Northwind employ?").run()
    assert not at.exception
    cid = at.query_params["c"][0] if isinstance(at.query_params["c"], list) else at.query_params["c"]
    stored = [m for m in chat_service.history.load_messages(ui_env["user_id"], cid) if m["role"] == "ai" and m.get("citations")]
    assert len(stored) == 2
    ids = [[Citation.model_validate(c).marker for c in m["citations"]] for m in stored]
    assert set(ids[1]) - set(ids[0]) and ids[1][0] != "[^1]"  # stored ids run on across the conversation

    buttons = {b.key: b for b in citation_buttons(at)}
    for answer, message in zip(_answers(at), stored):
        badges = [(m["label"], m["key"]) for m in BADGE_RE.finditer(answer)]
        labels = list(dict.fromkeys(label for label, _ in badges))
        assert labels == [str(i) for i in range(1, len(labels) + 1)]  # 1…n in order of first use
        markers = list(dict.fromkeys(re.findall(r"\[\^\d+\]", message["content"])))
        by_marker = {c["marker"]: c for c in message["citations"]}
        for (label, key), marker in zip(dict.fromkeys(badges), markers):
            button = buttons[key]  # the badge's link opens this button ...
            assert button.label.startswith(f"{label} · ")
            page = by_marker[marker]["metadata"]["page"]
            assert button.label.endswith(f"page {page}")  # ... whose source is the one the marker cites
