"""The one parser of a tool's JSON content (the tool contract in docs/ARCHITECTURE.md, "Tool output").

The history store reads a stored tool message's sources back with it, and `agent.tool_output.ToolOutput.of`
builds its typed output from it (storage never imports agent, so the parser lives here)."""

from __future__ import annotations

import json
from typing import Any


def tool_payload(content: Any) -> dict | None:
    """The JSON object a tool message's content holds; None for anything else (not a string, not
    JSON, or JSON that is not an object)."""
    if not isinstance(content, str):
        return None
    try:
        payload = json.loads(content)
    except ValueError:
        return None
    return payload if isinstance(payload, dict) else None


def sources_from_tool_content(content: Any) -> tuple[list[dict], dict]:
    """A tool message's content -> (its sources as dicts, the whole payload). Non-JSON -> ([], {})."""
    payload = tool_payload(content)
    if payload is None:
        return [], {}
    sources = payload.get("sources") if isinstance(payload.get("sources"), list) else []
    return [s for s in sources if isinstance(s, dict)], payload
