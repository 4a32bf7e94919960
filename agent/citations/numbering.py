"""What a reader sees: each answer's sources numbered 1…n in order of first use.

Source ids are unique in a conversation (`[^12]`, `{^3}`, a knowledge item's `[^8.1]`, a legacy
`[chunk_id: 44]`): the store's registry and the model keep them (docs/ARCHITECTURE.md, "The source
registry"). Readers get per-answer numbers instead, as every chat product shows them. This is the
one mapping, used by the chat page and the Markdown export alike:

    labels = display_labels(answer_text, citations)     # {"[^12]": "1", "[^10]": "2", "{^3}": "3"}
    shown = display_citations(answer_text, citations)   # copies with number = label, in that order

A citation is matched to its marker by the exact `Citation.marker` text (agent/markers.py
finds the markers, never in code or inside a URL). Citations whose marker is not in the text (a
stopped or edited answer) follow, numbered on. The stored answer is never changed.
"""

from __future__ import annotations

from storage.schema import Citation

from agent.markers import iter_markers


def display_labels(text: str, citations: list[Citation]) -> dict[str, str]:
    """`Citation.marker` -> the number shown for it in this answer: "1", "2", … by first use."""
    cited = {c.marker for c in citations if c.marker}
    order: list[str] = []
    for mk in iter_markers(text or ""):
        if mk.text in cited and mk.text not in order:
            order.append(mk.text)
    order += [c.marker for c in citations if c.marker and c.marker not in order]
    return {marker: str(i) for i, marker in enumerate(dict.fromkeys(order), 1)}


def display_citations(text: str, citations: list[Citation]) -> list[Citation]:
    """The answer's citations as shown: ordered by first use, each `number` its display label
    (so every label function downstream shows it). Idempotent."""
    labels = display_labels(text, citations)
    position = {marker: i for i, marker in enumerate(labels)}
    ordered = sorted(citations, key=lambda c: position.get(c.marker, len(position)))  # stable: unmarked last
    return [c.model_copy(update={"number": labels.get(c.marker) or str(i)}) for i, c in enumerate(ordered, 1)]
