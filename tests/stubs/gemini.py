"""A stub of the Gemini REST API (`models/{model}:generateContent`) serving scripted replies.

Replies are Gemini `Content` parts: `text("...")` or `function_call(name, args)`. The stub checks
the API key header and records every request so tests can inspect what the adapter sent (tools,
function responses, generation config).
"""

from __future__ import annotations

import json
import re

from tests.stubs.http_stub import JsonStub

API_KEY = "stub-gemini-key-123"


def text(value: str) -> list[dict]:
    return [{"text": value}]


def function_call(name: str, args: dict) -> list[dict]:
    return [{"functionCall": {"name": name, "args": args}}]


def _response(parts: list[dict]) -> dict:
    return {
        "candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": "gemini-stub",
    }


class GeminiStub(JsonStub):
    def __init__(self, replies: list[list[dict]]) -> None:
        self.replies = list(replies)
        super().__init__(self._handle)

    def _handle(self, method, path, headers, body):
        if headers.get("x-goog-api-key") != API_KEY:
            return 403, {"error": {"code": 403, "message": "API key not valid", "status": "PERMISSION_DENIED"}}
        m = re.search(r"/models/([^/:]+):(generateContent|streamGenerateContent)", path)
        if not m or not self.replies:
            return 404, {"error": {"code": 404, "message": f"unexpected call {path}", "status": "NOT_FOUND"}}
        payload = _response(self.replies.pop(0))
        if m.group(2) == "streamGenerateContent":
            return 200, f"data: {json.dumps(payload)}\r\n\r\n"
        return 200, payload
