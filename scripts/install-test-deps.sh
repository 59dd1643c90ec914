#!/usr/bin/env bash
# Installs what the tests need beyond Go modules, from Debian:
#   - Chromium, which the browser tests (replay.TestHTMLInBrowser, chromedp)
#     drive headless;
#   - PostgreSQL (server binaries: initdb, pg_ctl), which the ladder's
#     storage tests start as a throwaway cluster (ladder/backend_test.go);
#   - python3, which runs the starter bots (bots/python) against the server
#     (bots/starters_test.go).
# Installs only what is missing (nothing when both are there). Needs root or
# sudo.
set -euo pipefail

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi

missing=()
if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  echo "chromium: $(command -v chromium || echo /usr/bin/chromium) already installed"
else
  missing+=(chromium)
fi
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
  echo "postgresql: $(compgen -G "/usr/lib/postgresql/*/bin/initdb" | sort -V | tail -n 1) already installed"
else
  missing+=(postgresql)
fi
if command -v python3 >/dev/null 2>&1; then
  echo "python3: $(command -v python3) already installed"
else
  missing+=(python3)
fi
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing (apt-get): ${missing[*]}"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}"
for m in "${missing[@]}"; do
  case $m in
    chromium) command -v chromium ;;
    postgresql) compgen -G "/usr/lib/postgresql/*/bin/initdb" ;;
    python3) command -v python3 ;;
  esac
done
