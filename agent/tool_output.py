"""What every agent tool returns: one pydantic `ToolOutput`, carried as the ToolMessage's artifact.

Tools are declared with `response_format="content_and_artifact"` and return
`output.as_tool_response()`: the model reads the JSON content (the contract in
docs/ARCHITECTURE.md), the graph reads the typed artifact. `ToolOutput.of(message)` is the one
parser: the artifact when there is one, else the JSON content (messages restored from history), read by
storage's one tool-JSON parser (`storage.history.tool_json.tool_payload`, which the history store uses too).
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from storage.history.tool_json import tool_payload
from storage.schema import Source


class ToolOutput(BaseModel):
    tool: str
    success: bool = True
    message: str = ""
    sources: list[Source] = Field(default_factory=list)

    @property
    def result_count(self) -> int:
        return len(self.sources)

    def content(self) -> str:
        """The JSON the model reads: {"success", "tool", "result_count", "sources", "message"}."""
        return json.dumps({"success": self.success, "tool": self.tool, "result_count": self.result_count,
                           "sources": [s.model_dump() for s in self.sources], "message": self.message},
                          ensure_ascii=False)

    def as_tool_response(self) -> tuple[str, "ToolOutput"]:
        return self.content(), self

    @classmethod
    def of(cls, message: Any) -> "ToolOutput | None":
        """The output of a ToolMessage (or of its content string); None when it is not one."""
        artifact = getattr(message, "artifact", None)
        if isinstance(artifact, ToolOutput):
            return artifact
        data = artifact if isinstance(artifact, dict) else tool_payload(getattr(message, "content", message))
        if data is None or not isinstance(data.get("sources"), list):
            return None
        try:
            return cls(tool=str(data.get("tool") or getattr(message, "name", "") or ""), success=bool(data.get("success", True)),
                       message=str(data.get("message") or ""), sources=[Source.model_validate(s) for s in data["sources"]])
        except ValidationError:
            return None
