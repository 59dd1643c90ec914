#!/usr/bin/env bash
# The test suite, as CI runs it: installs what the tests need beyond Go
# modules when it is missing (Debian's Chromium, PostgreSQL and python3, through
# scripts/install-test-deps.sh), then runs every test under the race
# detector. Extra arguments go to `go test` (e.g. scripts/test.sh -run Ladder).
# The full-size checks and golden figures that are too slow under -race run
# with --full: scripts/test.sh --full (scripts/test.sh --list-full lists
# their packages)
set -euo pipefail
cd "$(dirname "$0")/.."

# full_packages lists the packages with a test the full-size step selects
# (a top-level name containing FullSize or Golden): building and linking a
# test binary for every other package, to run nothing, costs minutes.
full_packages() {
  grep -rlE --include='*_test.go' --exclude-dir=testdata '^func Test[[:alnum:]_]*(FullSize|Golden)' . | xargs -n1 dirname | sort -u
}
if [ "${1:-}" = "--list-full" ]; then
  full_packages
  exit 0
fi

"$(dirname "$0")/install-test-deps.sh"

if [ "${1:-}" = "--full" ]; then
  shift
  mapfile -t pkgs < <(full_packages)
  exec go test -timeout 10m -run 'FullSize|Golden' "$@" "${pkgs[@]}"
fi
# One package more than the cores run at once: many packages spend part of
# their time waiting on sockets, child processes, browsers and timers (the
# queue's leader election, the hostile bots' deadlines), and a third package
# keeps both cores of a CI machine busy meanwhile. -p in the arguments wins.
exec go test -race -timeout 12m -p "$(($(getconf _NPROCESSORS_ONLN) + 1))" "$@" ./...
