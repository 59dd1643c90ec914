#!/usr/bin/env bash
# Measures what spectators cost the games of kaisen serve (docs/server.md,
# Spectators): the same paced load test against a server without --web,
# with --web, or with --web and 200 watchers following running games.
# usage: scripts/loadtest-web.sh none|web|watched PORT   (uses PORT and PORT+1)
#
# scripts/loadtest-web.sh starve PORT measures whether the web port can
# starve the games (issue 25): one server with --web, and runs of
# the same unpaced load test (50 games at once, GAMES games, default 3000)
# seven times: idle, then loaded and idle three times, where loaded is under 500
# spectators (each from its own loopback address, following running games
# over SSE and listing them with the page's ETag, as a browser does) plus 8
# clients looping GET / (no ETag). It prints each run's JSON line, what the
# spectators were served, and for each loaded run its throughput over the
# mean of the idle runs around it, its RTT p99 and the server's CPU per
# action. WEBFLAGS adds flags to kaisen serve.
set -u
cd "$(dirname "$0")/.."
KAISEN=${KAISEN:-/tmp/kaisen-loadweb}
WATCHERS=${WATCHERS:-/tmp/kaisen-watchers}
go build -o "$KAISEN" ./cmd/kaisen && go build -o "$WATCHERS" ./scripts/watchers || exit 1
mode=$1; port=$2; wport=$((port+1))
if [ "$mode" = starve ]; then
  games=${GAMES:-3000}
  out=${TMPDIR:-/tmp}
  "$KAISEN" serve --listen 127.0.0.1:$port --house random --max-connections-per-ip 2000 --result-log "" --replay-dir "" --seed 1 \
    --web 127.0.0.1:$wport ${WEBFLAGS:-} > $out/loadweb-serve-starve.log 2>&1 &
  spid=$!
  sleep 1
  run() { "$KAISEN" loadtest --addr 127.0.0.1:$port -n $games --concurrency 50 --player random --seed 1 --json --server-pid $spid 2>/dev/null | tail -1; }
  results=()
  for phase in idle loaded idle loaded idle loaded idle; do
    if [ $phase = loaded ]; then
      "$WATCHERS" -web http://127.0.0.1:$wport -n 500 -loopers 8 -spread -for 1h > $out/loadweb-watchers.log 2>&1 &
      wpid=$!
      sleep 3
    fi
    r=$(run); echo "$phase: $r"; results+=("$r")
    if [ $phase = loaded ]; then
      wcpu=$(awk -v hz=$(getconf CLK_TCK) '{printf "%.2f", ($14+$15)/hz}' /proc/$wpid/stat)
      kill -INT $wpid; wait $wpid; echo "  load: $(cat $out/loadweb-watchers.log); their CPU ${wcpu} s"
      sleep 1
    fi
  done
  kill $spid; wait $spid 2>/dev/null
  python3 - "${results[@]}" <<'PY'
import json, sys
r = [json.loads(a) for a in sys.argv[1:]]
ratios = []
for k in range(1, len(r), 2):
    i1, l, i2 = r[k-1], r[k], r[k+1]
    idle = (i1["actions_per_sec"] + i2["actions_per_sec"]) / 2
    ratios.append(l["actions_per_sec"] / idle)
    print(f"loaded run {k//2+1}: throughput loaded/idle {ratios[-1]:.3f} ({l['actions_per_sec']:.0f} against {i1['actions_per_sec']:.0f} and {i2['actions_per_sec']:.0f} actions/s); "
          f"rtt p99 {l['rtt_p99_ms']:.2f} ms against {i1['rtt_p99_ms']:.2f} and {i2['rtt_p99_ms']:.2f}; "
          f"server CPU {l['server_cpu_us_per_action']:.2f} us/action against {i1['server_cpu_us_per_action']:.2f} and {i2['server_cpu_us_per_action']:.2f}")
ratios.sort()
print(f"median throughput loaded/idle {ratios[len(ratios)//2]:.3f}")
PY
  exit 0
fi
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
