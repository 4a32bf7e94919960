#!/usr/bin/env bash
# Start the app as a small cluster on this machine, all on loopback, in the foreground (Ctrl-C stops all):
#   redis-server (Celery broker + results), `chroma run` (shared vector store, the data of
#   <destination>/.chroma), nx-27017 (unless MONGODB_URI is set), one Celery worker, two Streamlit replicas
#   sharing one cookie secret, and HAProxy in front (deploy/haproxy.cfg) on http://localhost:${CLUSTER_PORT}.
# Ports (environment): CLUSTER_PORT=8500 APP_PORTS="8511 8512" REDIS_PORT=6390 CHROMA_PORT=8010
# MONGO_PORT=27027. Logs, pids and the cookie secret: CLUSTER_DIR (default .data/cluster).
# CLUSTER_SKIP_SETUP=1 skips scripts/setup.sh (tests). For a real deployment see compose.yaml.
# Chroma serves the folder the single-machine app embeds, so PDFs processed before are found; do not run
# scripts/start_app.sh on the same PDF_CHAT_HOME at the same time (two writers of one Chroma folder).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ "${CLUSTER_SKIP_SETUP:-0}" == 1 ]] || bash scripts/setup.sh --cluster
export ANONYMIZED_TELEMETRY=False

CLUSTER_PORT="${CLUSTER_PORT:-8500}"
read -r -a APP_PORTS <<<"${APP_PORTS:-8511 8512}"
REDIS_PORT="${REDIS_PORT:-6390}"
CHROMA_PORT="${CHROMA_PORT:-8010}"
MONGO_PORT="${MONGO_PORT:-27027}"
CLUSTER_DIR="$(mkdir -p "${CLUSTER_DIR:-.data/cluster}" && cd "${CLUSTER_DIR:-.data/cluster}" && pwd)"
PY=.venv/bin/python
mkdir -p "$CLUSTER_DIR/logs" "$CLUSTER_DIR/pids"
for bin in redis-server haproxy; do
  command -v "$bin" >/dev/null || { echo "start_cluster: $bin is missing (apt-get install -y $bin, or scripts/setup.sh --cluster as root)" >&2; exit 1; }
done

started=()
stop_all() {
  trap - EXIT INT TERM
  echo "start_cluster: stopping"
  local i
  for (( i=${#started[@]}-1; i>=0; i-- )); do kill -TERM "${started[i]}" 2>/dev/null || true; done
  for pid in "${started[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -f "$CLUSTER_DIR"/pids/*.pid
}
trap stop_all EXIT INT TERM

# start NAME CMD...: run in the background, log to logs/NAME.log, pid in pids/NAME.pid
start() {
  local name=$1; shift
  "$@" >>"$CLUSTER_DIR/logs/$name.log" 2>&1 &
  started+=($!)
  echo $! >"$CLUSTER_DIR/pids/$name.pid"
}

# wait_for WHAT PYTHON-EXPRESSION: poll until it is true (60 s)
wait_for() {
  local what=$1 check=$2
  for _ in $(seq 300); do
    if "$PY" -c "import sys, socket, urllib.request
try:
    sys.exit(0 if ($check) else 1)
except Exception:
    sys.exit(1)" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "start_cluster: $what did not come up; see $CLUSTER_DIR/logs/" >&2
  exit 1
}
http_ok() { echo "urllib.request.urlopen('http://127.0.0.1:$1$2', timeout=1).status == 200"; }

# ---- shared state: broker, vector store, history database
start redis redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --dir "$CLUSTER_DIR" --save "" --appendonly yes --appendfsync everysec
wait_for redis "__import__('redis').Redis(port=$REDIS_PORT, socket_timeout=1).ping()"
export CELERY_BROKER_URL="redis://127.0.0.1:$REDIS_PORT/0"

DESTINATION="$("$PY" -c 'from storage.settings import get_settings; print(get_settings().destination_dir)')"
mkdir -p "$DESTINATION/.chroma"
start chroma .venv/bin/chroma run --path "$DESTINATION/.chroma" --host 127.0.0.1 --port "$CHROMA_PORT"
wait_for chroma "$(http_ok "$CHROMA_PORT" /api/v2/heartbeat)"
export CHROMA_HOST=127.0.0.1 CHROMA_PORT

history="MONGODB_URI"
if [[ -z "${MONGODB_URI:-}" ]]; then
  MONGO_DIR="$("$PY" -c 'from storage.history.embedded_server import default_data_dir; print(default_data_dir())')"
  running="$("$PY" -c "from storage.history.embedded_server import running_server as r; i = r(); print(i.uri if i else '')")"
  if [[ -n "$running" ]]; then  # the single-machine app's server on the same data: share it
    export MONGODB_URI="$running"
  else
    mkdir -p "$MONGO_DIR/db"
    # The apps and the worker keep connections open; the idle exit only reaps a server left alone.
    PDF_CHAT_MONGO_IDLE_S=86400 start mongo "$PY" -m storage.history.embedded_server serve --data-dir "$MONGO_DIR" --port "$MONGO_PORT"
    wait_for nx-27017 "__import__('pymongo').MongoClient('mongodb://127.0.0.1:$MONGO_PORT/', serverSelectionTimeoutMS=1000).admin.command('ping')"
    export MONGODB_URI="mongodb://127.0.0.1:$MONGO_PORT/"
  fi
  history="nx-27017 ${MONGODB_URI}"
fi

# ---- the worker and the replicas
start worker .venv/bin/celery -A storage.jobs.celery_app worker --concurrency 1 --loglevel INFO -n "worker1@%h"

SECRET_FILE="$CLUSTER_DIR/cookie_secret"
[[ -s "$SECRET_FILE" ]] || (umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(32))' >"$SECRET_FILE")
# One secret for all replicas (login and XSRF cookies valid on any); passed by environment, not in `ps`.
export STREAMLIT_SERVER_COOKIE_SECRET="$(cat "$SECRET_FILE")"
# One searching answer at a time per replica: the GIL runs a replica's Python on one core anyway, so a second
# answer is no faster in total and only slows the greetings and page reruns sharing that core; the others wait
# in line and are told their place. More throughput = more replicas.
export PDF_CHAT_MAX_ANSWERS="${PDF_CHAT_MAX_ANSWERS:-1}"
n=0
for port in "${APP_PORTS[@]}"; do
  n=$((n + 1))
  start "app$n" .venv/bin/streamlit run app.py --server.port "$port" --server.address 127.0.0.1 \
    --server.headless true --browser.gatherUsageStats false
done
for port in "${APP_PORTS[@]}"; do wait_for "replica on $port" "$(http_ok "$port" /_stcore/health)"; done

# ---- the front door
export CLUSTER_BIND="127.0.0.1:$CLUSTER_PORT" APP1_ADDR="127.0.0.1:${APP_PORTS[0]}" APP2_ADDR="127.0.0.1:${APP_PORTS[1]}"
export HAPROXY_ERRORS="$PWD/deploy/errors"
start haproxy haproxy -db -f deploy/haproxy.cfg
wait_for haproxy "$(http_ok "$CLUSTER_PORT" /_stcore/health)"

echo "start_cluster: up on http://localhost:$CLUSTER_PORT (replicas ${APP_PORTS[*]}, worker, redis $REDIS_PORT, chroma $CHROMA_PORT, history: $history); logs in $CLUSTER_DIR/logs; Ctrl-C stops all"
# Until stopped. A replica that dies is not restarted: HAProxy sends its users to the other one.
while true; do wait || true; sleep 1; done
