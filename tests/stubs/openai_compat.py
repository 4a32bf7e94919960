"""A stub OpenAI-compatible chat server (what Ollama, vLLM and llama.cpp expose): scripted replies
for `POST /v1/chat/completions`."""

from __future__ import annotations

import json
import time

from tests.stubs.http_stub import JsonStub


def text(value: str) -> dict:
    return {"role": "assistant", "content": value}


def tool_call(name: str, args: dict, call_id: str = "call_1") -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


class OpenAIStub(JsonStub):
    def __init__(self, replies: list[dict]) -> None:
        self.replies = list(replies)
        super().__init__(self._handle)

    def _handle(self, method, path, headers, body):
        if method != "POST" or not path.endswith("/chat/completions") or not self.replies:
            return 404, {"error": {"message": f"unexpected call {method} {path}"}}
        message = self.replies.pop(0)
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        return 200, {
            "id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()), "model": body.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }
