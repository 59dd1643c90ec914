#!/bin/sh
# Run one kaisen command on a work queue on this machine: a kaisen broker
# (temporary store), WORKERS kaisen worker processes of WORKER_CORES games
# at once each, then the command with --nats; everything started here is
# stopped at the end. The command's output is on stdout; the logs of the
# broker and workers are kept in $LOGS (default: a temporary directory,
# printed).
#
#   WORKERS=2 deploy/nats/local.sh match --p1 random --p2 random -n 100000 --seed 1 --json
#
# KAISEN names the binary (default: kaisen on the PATH, else one built
# from this checkout into a temporary directory), PORT the broker's
# loopback port (default 4222). docs/distributed.md has the details.
set -eu
if [ -z "${KAISEN:-}" ]; then
	if command -v kaisen >/dev/null 2>&1; then
		KAISEN=kaisen
	else
		root=$(cd "$(dirname "$0")/../.." && pwd)
		bin=$(mktemp -d)
		echo "kaisen is not on the PATH: building it from $root into $bin" >&2
		(cd "$root" && go build -o "$bin/kaisen" ./cmd/kaisen)
		KAISEN=$bin/kaisen
	fi
fi
WORKERS=${WORKERS:-2}
WORKER_CORES=${WORKER_CORES:-1}
PORT=${PORT:-4222}
LOGS=${LOGS:-$(mktemp -d)}
STORE=$(mktemp -d)
URL=nats://127.0.0.1:$PORT
pids=""
cleanup() {
	[ -n "$pids" ] && kill $pids 2>/dev/null
	wait 2>/dev/null
	rm -rf "$STORE"
}
trap cleanup EXIT INT TERM
"$KAISEN" broker --listen "127.0.0.1:$PORT" --store "$STORE" 2>"$LOGS/broker.log" &
pids=$!
for _ in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
	grep -q "listening on" "$LOGS/broker.log" && break
	sleep 0.5
done
grep -q "listening on" "$LOGS/broker.log" || { cat "$LOGS/broker.log" >&2; exit 1; }
i=1
while [ "$i" -le "$WORKERS" ]; do
	"$KAISEN" worker --nats "$URL" --workers "$WORKER_CORES" --name "w$i" 2>"$LOGS/worker-$i.log" &
	pids="$pids $!"
	i=$((i + 1))
done
echo "broker and $WORKERS workers on $URL; logs in $LOGS" >&2
"$KAISEN" "$@" --nats "$URL"
