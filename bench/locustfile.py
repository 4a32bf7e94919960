"""Locust users of bench/load.py: each asks questions about the sample report back to back (closed loop).
BENCH_DOC_IDS (comma-separated) is the selection. An answer without a citation counts as a failure."""

from __future__ import annotations

import os

from locust import FastHttpUser, constant, task

QUESTIONS = [
    "What was the net debt at year end?",
    "What does the report say about revenue?",
    "How many employees does the company have?",
    "What are the main risks described in the report?",
]


class Asker(FastHttpUser):
    wait_time = constant(0)

    def on_start(self) -> None:
        self.doc_ids = [d for d in os.environ["BENCH_DOC_IDS"].split(",") if d]
        self.turn = 0

    @task
    def ask(self) -> None:
        question = QUESTIONS[self.turn % len(QUESTIONS)]
        self.turn += 1
        with self.client.post("/ask", json={"question": question, "doc_ids": self.doc_ids}, name="/ask",
                              catch_response=True) as response:
            body = response.json() if response.status_code == 200 else {}
            if response.status_code != 200 or body.get("error") or not body.get("citations"):
                response.failure(f"no cited answer: {response.status_code} {str(body)[:200]}")
