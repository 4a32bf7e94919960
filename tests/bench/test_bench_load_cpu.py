"""bench.load's CPU accounting: a server process's CPU seconds, its children's included, per answer."""

from __future__ import annotations

import subprocess
import sys
import time

from bench.load import CpuMeter, cpu_per_answer, cpu_per_page

BUSY = "import time, subprocess, sys\n" \
       "child = subprocess.Popen([sys.executable, '-c', 'import time\\nt = time.process_time()\\n" \
       "while time.process_time() - t < 0.6: pass'])\n" \
       "t = time.process_time()\nwhile time.process_time() - t < 0.4: pass\nchild.wait()\ntime.sleep(30)"


def test_the_meter_counts_a_process_and_its_children_between_two_reads():
    proc = subprocess.Popen([sys.executable, "-c", BUSY])
    try:
        meter = CpuMeter()
        meter.add("replicas", proc.pid)
        first = meter.read()["replicas"]
        deadline = time.monotonic() + 20
        while meter.read()["replicas"] - first < 0.3 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert meter.read()["replicas"] - first >= 0.3
    finally:
        proc.kill()
        proc.wait()


def test_cpu_per_answer_divides_every_process_kind_by_the_answers_of_the_window():
    row = cpu_per_answer({"replicas": 10.0, "worker": 5.0}, {"replicas": 14.0, "worker": 11.0}, {"answers": 20})
    assert row == {"cpu_s_per_answer": 0.5, "cpu_s_per_answer_by_kind": {"replicas": 0.2, "worker": 0.3},
                   "cpu_s_by_kind": {"replicas": 4.0, "worker": 6.0}}
    idle = cpu_per_answer({}, {"replicas": 2.0}, {"answers": 0})  # no answers: no figure, not /0 nor a made-up one
    assert idle["cpu_s_per_answer"] is None and idle["cpu_s_per_answer_by_kind"] == {}
    assert idle["cpu_s_by_kind"] == {"replicas": 2.0}


def test_cpu_per_page_counts_only_ingest_processes_and_only_a_finished_pdf():
    before, after = {"replicas": 10.0, "worker": 5.0, "redis": 1.0}, {"replicas": 40.0, "worker": 55.0, "redis": 2.0}
    assert cpu_per_page(before, after, pages=500, finished=True) == 0.1  # the worker's 50 s, not the replicas'
    assert cpu_per_page(before, after, pages=500, finished=False) is None  # pages not all ingested: no figure
    assert cpu_per_page({"replicas": 1.0}, {"replicas": 9.0}, pages=500, finished=True) is None  # ingests in-process
