"""A stub of Tavily's `/search` endpoint: scripted results per query, bearer key checked."""

from __future__ import annotations

from tests.stubs.http_stub import JsonStub

API_KEY = "tvly-stub-key-456"


def result(title: str, url: str, content: str, score: float = 0.9) -> dict:
    return {"title": title, "url": url, "content": content, "score": score, "raw_content": None}


class TavilyStub(JsonStub):
    """`results`: list of result dicts returned for every search (empty list = no results)."""

    def __init__(self, results: list[dict]) -> None:
        self.results = list(results)
        super().__init__(self._handle)

    def _handle(self, method, path, headers, body):
        if headers.get("authorization") != f"Bearer {API_KEY}":
            return 401, {"detail": {"error": "Unauthorized: missing or invalid API key."}}
        if method != "POST" or not path.startswith("/search"):
            return 404, {"detail": {"error": f"unexpected call {method} {path}"}}
        n = int((body or {}).get("max_results") or 5)
        return 200, {"query": body.get("query"), "results": self.results[:n], "response_time": 0.01, "images": [], "answer": None}

    def queries(self) -> list[str]:
        return [body.get("query") for method, path, _, body in self.requests if path.startswith("/search")]
