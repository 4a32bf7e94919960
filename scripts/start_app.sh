#!/usr/bin/env bash
# Set up (if needed) and start the app on http://localhost:8501 (extra args go to `streamlit run`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export ANONYMIZED_TELEMETRY=False
exec .venv/bin/streamlit run app.py --browser.gatherUsageStats false "$@"
