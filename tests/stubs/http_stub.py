"""A tiny threaded HTTP server for stubbing JSON APIs in tests (Gemini, Tavily).

    with JsonStub(handler) as stub:       # handler(method, path, headers, body_json) -> (status, json)
                                          # (or (status, generator of SSE text) for a stream)
        client(base_url=stub.url)
        stub.requests                      # [(method, path, headers, body_json)] received, in order
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class JsonStub:
    def __init__(self, handler) -> None:
        self.handler = handler
        self.requests: list[tuple[str, str, dict, object]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                headers = {k.lower(): v for k, v in self.headers.items()}
                stub.requests.append((self.command, self.path, headers, body))
                status, payload = stub.handler(self.command, self.path, headers, body)
                if hasattr(payload, "__next__"):  # a generator: server-sent events written as they come
                    self.send_response(status)
                    self.send_header("Content-Type", "text/event-stream")
                    self.send_header("Connection", "close")
                    self.end_headers()
                    try:
                        for part in payload:
                            self.wfile.write(part.encode() if isinstance(part, str) else part)
                            self.wfile.flush()
                    except (BrokenPipeError, ConnectionResetError):  # the client stopped reading
                        pass
                    self.close_connection = True
                    return
                if isinstance(payload, (bytes, str)):
                    data, ctype = (payload.encode() if isinstance(payload, str) else payload), "text/event-stream"
                else:
                    data, ctype = json.dumps(payload).encode(), "application/json"
                self.send_response(status)
                self.send_header("Content-Type", ctype)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_POST = do_GET = _serve

            def log_message(self, *args) -> None:  # keep test output quiet
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> "JsonStub":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
