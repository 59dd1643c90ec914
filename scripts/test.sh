#!/usr/bin/env bash
# The test suite, as CI runs it: installs what the tests need beyond Go
# modules when it is missing (Debian's Chromium, PostgreSQL and python3, through
# scripts/install-test-deps.sh), then runs every test under the race
# detector. Extra arguments go to `go test` (e.g. scripts/test.sh -run Ladder).
# The full-size checks and golden figures that are too slow under -race run
# with --full: scripts/test.sh --full
set -euo pipefail
cd "$(dirname "$0")/.."

"$(dirname "$0")/install-test-deps.sh"

if [ "${1:-}" = "--full" ]; then
  shift
  exec go test -timeout 10m -run 'FullSize|Golden' "$@" ./...
fi
exec go test -race -timeout 12m "$@" ./...
