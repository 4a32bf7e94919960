#!/usr/bin/env bash
# Set up (if needed, with test dependencies) and run the whole test suite (extra args go to pytest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev
export ANONYMIZED_TELEMETRY=False
exec .venv/bin/python -m pytest -q "$@" tests
