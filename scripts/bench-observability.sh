#!/usr/bin/env bash
# What observing every request costs, on the cached manifest and an image, through wrk against three stickerd
# processes on the demo catalog:
#   shipped   exactly as `make run` starts it: the request histogram and the access log line (info, the default level);
#   no-line   --log-level notice: the same but for the one line per request (notice is the level just above info);
#   no-hist   --no-request-durations: the access log line, requests only counted in the histogram's place.
# Runs alternate, ROUNDS each, and the best of each side is compared, so that a burst of other work on the machine does
# not decide a ratio. Targets: the access log line costs at most 3%, the histogram at most 3%.
# Usage: scripts/bench-observability.sh [path/to/stickerd]   Environment: DURATION (5s), CONNECTIONS (64), ROUNDS (5).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
duration=${DURATION:-5s}
connections=${CONNECTIONS:-64}
rounds=${ROUNDS:-5}
work=$(mktemp -d /tmp/stickerd-bench-obs.XXXXXX)
chmod 755 "$work"
pids=()
cleanup() { for pid in "${pids[@]-}"; do kill "$pid" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
start() {  # PORT NAME [FLAGS...]
  local port=$1 name=$2; shift 2
  "$stickerd" serve --demo --port "$port" --data-dir "$work/$name" "$@" >"$work/$name.log" 2>&1 &
  pids+=($!)
  wait_ready "http://127.0.0.1:$port" "$work/$name.log"
}
start 18090 shipped
start 18091 no-line --log-level notice
start 18092 no-hist --no-request-durations
asset=$(curl -sf http://127.0.0.1:18090/v1/manifest | python3 -c 'import json,sys; print(json.load(sys.stdin)["groups"][0]["cover"]["url"])')
rps() { wrk -t2 -c"$connections" -d"$duration" "http://127.0.0.1:$1$2" | awk '/Requests\/sec/ {print $2}'; }
for port in 18090 18091 18092; do rps $port /v1/manifest >/dev/null; done   # warm every one
results="$work/results"
for round in $(seq 1 "$rounds"); do
  for path in /v1/manifest "$asset"; do
    line="$round $path"
    for port in 18090 18091 18092; do line+=" $(rps $port "$path")"; done
    echo "$line" >>"$results"
    echo "round $line (shipped, no-line, no-hist rps)"
  done
done
python3 - "$results" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1])]
for path in dict.fromkeys(row[1] for row in rows):
    shipped, noline, nohist = (max(float(row[i]) for row in rows if row[1] == path) for i in (2, 3, 4))
    name = "manifest" if path == "/v1/manifest" else "asset"
    print(f"{name}: best {shipped:.0f} rps shipped, {noline:.0f} without the access log line, {nohist:.0f} without the histogram; "
          f"the line costs {100 * (1 - shipped / noline):.1f}% (target: at most 3%), "
          f"the histogram {100 * (1 - shipped / nohist):.1f}% (target: at most 3%)")
PY
grep -c '"GET"\| method=GET ' "$work/shipped.log" | sed 's/^/access log lines written by the shipped stickerd: /'
curl -s http://127.0.0.1:18090/metrics | grep -E '^log_lines_dropped_total|^http_request_duration_seconds_count\{route="/v1/manifest",method="GET",status="200"\}'
