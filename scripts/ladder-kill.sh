#!/bin/sh
# The ladder's crash run at scale (docs/ladder.md, "Durability"): kaisen
# serve --ladder is killed with SIGKILL after every GAMES more rated games
# stored, KILLS times, with BOTS bots playing, and restarted on the same
# database; then every game told is checked to be stored exactly once with
# its verified replay, and every rating to equal a recomputation.
#
#   scripts/ladder-kill.sh [KILLS [GAMES [BOTS [DB]]]]    DB: sqlite (default), postgres or both
#
# Defaults: 5 kills, 1000 games, 40 bots, sqlite. Runs niced.
set -eu
cd "$(dirname "$0")/.."
kills=${1:-5} games=${2:-1000} bots=${3:-40} db=${4:-sqlite}
case $db in
sqlite | postgres) run="TestSIGKILLRatedLadder/$db" ;;
both) run=TestSIGKILLRatedLadder ;;
*) echo "ladder-kill.sh: DB is sqlite, postgres or both, not $db" >&2; exit 2 ;;
esac
KAISEN_LADDER_KILL="${kills}x${games}x${bots}" exec nice go test ./server -run "^$run\$" -count=1 -v -timeout 2h
