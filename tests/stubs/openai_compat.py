"""A stub OpenAI-compatible chat server (what Ollama, vLLM and llama.cpp expose): scripted replies
for `POST /v1/chat/completions`, as one JSON body, or, when the client asks for `"stream": true`,
as server-sent events carrying the reply a few characters at a time (`token_delay` seconds apart),
the way a real model server streams.

A scripted reply is a message dict (`text(...)`, `tool_call(...)`) or a function of the request
body returning one (e.g. to cite the source id that the tool result gave the passage).
"""

from __future__ import annotations

import json
import re
import time

from tests.stubs.http_stub import JsonStub


def text(value: str) -> dict:
    return {"role": "assistant", "content": value}


def tool_call(name: str, args: dict, call_id: str = "call_1") -> dict:
    return {"role": "assistant", "content": None,
            "tool_calls": [{"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}]}


def structured(**fields) -> dict:
    """A structured-output reply (JSON schema mode): the JSON object as the message text."""
    return text(json.dumps(fields))


def source_id_for(body: dict, needle: str) -> str:
    """The citation id (`[^3]`) that the latest tool result gave the passage containing `needle`."""
    for message in reversed(body.get("messages") or []):
        if message.get("role") == "tool":
            content = message.get("content") or ""
            content = content if isinstance(content, str) else json.dumps(content)
            for m in re.finditer(r"\[\^\d+\]", content):
                if needle in content[m.end(): m.end() + 1500].split("[^")[0]:
                    return m.group(0)
    raise AssertionError(f"no tool result in the request has a passage with {needle!r}")


def _pieces(value: str, size: int = 4) -> list[str]:
    return [value[i: i + size] for i in range(0, len(value), size)]


class OpenAIStub(JsonStub):
    def __init__(self, replies: list, token_delay: float = 0.0) -> None:
        self.replies = list(replies)
        self.token_delay = token_delay
        super().__init__(self._handle)

    def _handle(self, method, path, headers, body):
        if method != "POST" or not path.endswith("/chat/completions") or not self.replies:
            return 404, {"error": {"message": f"unexpected call {method} {path}"}}
        reply = self.replies.pop(0)
        message = reply(body) if callable(reply) else reply
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        if body.get("stream"):
            return 200, self._events(message, finish, body.get("model"))
        return 200, {
            "id": "chatcmpl-stub", "object": "chat.completion", "created": int(time.time()), "model": body.get("model"),
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15},
        }

    def _events(self, message: dict, finish: str, model: str | None):
        def event(delta: dict, finish_reason: str | None = None) -> str:
            chunk = {"id": "chatcmpl-stub", "object": "chat.completion.chunk", "created": int(time.time()), "model": model,
                     "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason}]}
            return f"data: {json.dumps(chunk)}\n\n"

        yield event({"role": "assistant", "content": ""})
        for piece in _pieces(message.get("content") or ""):
            time.sleep(self.token_delay)
            yield event({"content": piece})
        for i, call in enumerate(message.get("tool_calls") or []):
            yield event({"tool_calls": [{"index": i, **call}]})
        yield event({}, finish)
        yield "data: [DONE]\n\n"
