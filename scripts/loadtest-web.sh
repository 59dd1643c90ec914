#!/usr/bin/env bash
# Measures what spectators cost the games of kaisen serve (docs/server.md,
# Spectators): the same paced load test against a server without --web,
# with --web, or with --web and 200 watchers following running games.
# usage: scripts/loadtest-web.sh none|web|watched PORT   (uses PORT and PORT+1)
set -u
cd "$(dirname "$0")/.."
KAISEN=${KAISEN:-/tmp/kaisen-loadweb}
WATCHERS=${WATCHERS:-/tmp/kaisen-watchers}
go build -o "$KAISEN" ./cmd/kaisen && go build -o "$WATCHERS" ./scripts/watchers || exit 1
mode=$1; port=$2; wport=$((port+1))
args=""
if [ "$mode" != none ]; then args="--web 127.0.0.1:$wport"; fi
"$KAISEN" serve --listen 127.0.0.1:$port --house random --max-connections-per-ip 2000 --result-log "" --replay-dir "" --seed 1 $args > ${TMPDIR:-/tmp}/loadweb-serve-$mode.log 2>&1 &
spid=$!
sleep 1
wpid=""
if [ "$mode" = watched ]; then
  "$WATCHERS" -web http://127.0.0.1:$wport -n 200 -for 40s > ${TMPDIR:-/tmp}/loadweb-watchers.log 2>&1 &
  wpid=$!
  sleep 2
fi
"$KAISEN" loadtest --addr 127.0.0.1:$port -n 1500 --concurrency 50 --rate 3000 --player random --seed 1 --json 2>/dev/null | tail -1
kill $spid
if [ -n "$wpid" ]; then wait $wpid; cat ${TMPDIR:-/tmp}/loadweb-watchers.log; fi
wait $spid 2>/dev/null
