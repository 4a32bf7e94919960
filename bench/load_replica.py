"""One answer-serving replica for bench/load.py: the app's ChatService (no-model mode) and its PDF job queue
behind a minimal HTTP API. Per question it does what a Streamlit replica does (the agent: routing, hybrid
search, extractive answer, citations), minus drawing the page and saving the turn (no conversation).

    python -m bench.load_replica --port N

GET /_stcore/health (as Streamlit, so deploy/haproxy.cfg checks it unchanged), POST /ask
{"question", "doc_ids"}, POST /ingest {"path"}, GET /job?id=. The job queue is the app's own
(ui/resources.get_ingest_jobs): a thread of this process, or Celery workers when
CELERY_BROKER_URL is set.
"""

from __future__ import annotations

import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse


def make_handler(service, jobs):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # one line per request would drown the bench's output
            pass

        def _send(self, code: int, body) -> None:
            data = (body if isinstance(body, str) else json.dumps(body)).encode()
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            url = urlparse(self.path)
            if url.path == "/_stcore/health":
                return self._send(200, "ok")
            if url.path == "/job":
                job = jobs.get(parse_qs(url.query).get("id", [""])[0])
                if job is None:
                    return self._send(404, {"error": "no such job"})
                return self._send(200, {"state": job.state, "stage": job.stage, "done": job.done, "total": job.total,
                                        "error": job.error, "doc_id": job.result.doc_id if job.result else None})
            self._send(404, {"error": "not found"})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            if self.path == "/ask":
                result = service.ask("bench", None, body["question"], body["doc_ids"])
                return self._send(200, {"answer": result.message, "citations": len(result.citations),
                                        "route": result.route, "error": result.error})
            if self.path == "/ingest":
                return self._send(200, {"job_id": jobs.submit(body["path"]).job_id})
            self._send(404, {"error": "not found"})

    return Handler


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    from agent.service import ChatService

    from ui.resources import get_ingest_jobs  # the app's choice of queue (thread or Celery)

    service = ChatService(llm=None, web=None, history=None)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(service, get_ingest_jobs()))
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
