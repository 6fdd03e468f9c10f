#!/usr/bin/env bash
# What observing every request costs, on the cached manifest and an image, through wrk against three stickerd
# processes on the demo catalog:
#   shipped   exactly as `make run` starts it: the request histogram and the access log line (info, the default level);
#   no-line   --log-level notice: the same but for the one line per request (notice is the level just above info);
#   no-hist   --no-request-durations: the access log line, requests only counted in the histogram's place.
# Runs alternate, ROUNDS each, and the best of each side is compared, so that a burst of other work on the machine does
# not decide a ratio. Targets: the access log line costs at most 3%, the histogram at most 3%.
# Usage: scripts/bench.sh observability [path/to/stickerd]   Environment: DURATION (5s), CONNECTIONS (64), ROUNDS (5).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
duration=${DURATION:-5s}
connections=${CONNECTIONS:-64}
rounds=${ROUNDS:-5}
work=$(mktemp -d /tmp/stickerd-bench-obs.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
start() {  # NAME [FLAGS...]: the port it listens on goes to ports
  local name=$1; shift
  start_stickerd "$stickerd" "$work/$name.log" --demo --data-dir "$work/$name" "$@"
  ports+=("$STICKERD_PORT")
}
ports=()   # shipped, no-line, no-hist
start shipped
start no-line --log-level notice
start no-hist --no-request-durations
shipped=${ports[0]}
asset=$(curl -sf "http://127.0.0.1:$shipped/v1/manifest" | python3 scripts/lib/json_get.py groups.0.cover.url)
rps() { wrk -t2 -c"$connections" -d"$duration" "http://127.0.0.1:$1$2" | awk '/Requests\/sec/ {print $2}'; }
for port in "${ports[@]}"; do rps "$port" /v1/manifest >/dev/null; done   # warm every one
results="$work/results"
for round in $(seq 1 "$rounds"); do
  for path in /v1/manifest "$asset"; do
    line="$round $path"
    for port in "${ports[@]}"; do line+=" $(rps "$port" "$path")"; done
    echo "$line" >>"$results"
    echo "round $line (shipped, no-line, no-hist rps)"
  done
done
python3 scripts/bench/observability.py "$results"
grep -c '"GET"\| method=GET ' "$work/shipped.log" | sed 's/^/access log lines written by the shipped stickerd: /'
curl -s "http://127.0.0.1:$shipped/metrics" | grep -E '^log_lines_dropped_total|^http_request_duration_seconds_count\{route="/v1/manifest",method="GET",status="200"\}'
