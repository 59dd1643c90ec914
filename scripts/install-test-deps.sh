#!/usr/bin/env bash
# Installs what the tests need beyond Go modules: Debian's Chromium, which
# the browser tests (replay.TestHTMLInBrowser, chromedp) drive headless.
# Does nothing when chromium is already installed. Needs root or sudo.
set -euo pipefail

if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then
  echo "chromium: $(command -v chromium || echo /usr/bin/chromium) already installed"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
echo "chromium: installing (apt-get)"
$sudo apt-get update -q
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q chromium
command -v chromium
