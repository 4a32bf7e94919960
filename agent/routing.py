"""What routing decides with: the model's structured judgements and the chat commands.

Routes are decided by structured output (the pydantic schemas below), never by matching free text.
The edge functions themselves sit beside their nodes in agent/graph.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from agent.prompts import COMMANDS_HELP

# ---------------------------------------------------------------- structured judgements


class RelevanceGrade(BaseModel):
    """Whether the user's message can be answered from the selected documents."""

    relevant: Literal["yes", "no", "maybe"] = Field(description="yes, no or maybe")
    reason: str = Field(default="", description="one short sentence")


class QueryKind(BaseModel):
    """How to handle a message that is not about the documents."""

    kind: Literal["conversational", "needs_web_search"]
    search_query: str = Field(
        default="",
        description="for needs_web_search: a standalone web search query for the latest message, "
        "with names and dates from earlier messages filled in",
    )


# ---------------------------------------------------------------- commands


@dataclass(frozen=True)
class Command:
    name: str
    argument: str


def parse_command(text: str) -> Command | None:
    """`/ingest report.pdf` -> Command("ingest", "report.pdf"); plain text -> None."""
    stripped = text.strip()
    if not stripped.startswith("/") or stripped.startswith("//"):
        return None
    name, argument = (stripped[1:].split(None, 1) + ["", ""])[:2]
    return Command(name.lower(), argument.strip())


def unknown_command_reply(name: str) -> str:
    return f"Unknown command /{name}.\n\n{COMMANDS_HELP}"
