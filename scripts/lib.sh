# Sourced by the scripts that start stickerd (after they cd to the project root). Every stickerd they run is started by
# start_stickerd; their EXIT trap calls stop_stickerds (set the trap before the first start_stickerd, so that a
# stickerd that never becomes ready is stopped too).

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
  python3 scripts/lib/free_port.py
}

# wait_ready URL LOG...: waits up to 120 s for URL/readyz to answer 200; otherwise prints the logs and exits 1.
wait_ready() {
  local url=$1; shift
  for _ in $(seq 1 240); do
    curl -sf "$url/readyz" >/dev/null 2>&1 && return 0
    sleep 0.5
  done
  echo "stickerd at $url did not become ready; its log:" >&2
  cat "$@" >&2
  exit 1
}

# start_stickerd [--append] [--port PORT] BIN LOG [SERVE-ARGS...]: starts `BIN serve --port PORT SERVE-ARGS...` in the
# background, on a free port unless --port names one, its output and errors to LOG (appended to with --append), and
# waits until it is ready (wait_ready: up to 120 s, else its log and exit 1). Then STICKERD_PID, STICKERD_PORT and
# STICKERD_URL (http://127.0.0.1:PORT) say which it is, and stop_stickerds will stop it. What the caller puts in front
# (STICKER_ADMIN_TOKEN=... DATABASE_URL=... start_stickerd ...) is stickerd's environment, as for a command.
stickerd_pids=()
start_stickerd() {
  local append='' port=''
  while (($# > 0)); do
    case $1 in
      --append) append=1; shift ;;
      --port) port=$2; shift 2 ;;
      *) break ;;
    esac
  done
  (($# >= 2)) || { echo "usage: start_stickerd [--append] [--port PORT] BIN LOG [SERVE-ARGS...]" >&2; exit 2; }
  local bin=$1 log=$2
  shift 2
  [[ -n $port ]] || port=$(free_port)
  if [[ -n $append ]]; then
    "$bin" serve --port "$port" "$@" >>"$log" 2>&1 &
  else
    "$bin" serve --port "$port" "$@" >"$log" 2>&1 &
  fi
  STICKERD_PID=$!
  STICKERD_PORT=$port
  STICKERD_URL="http://127.0.0.1:$port"
  stickerd_pids+=("$STICKERD_PID")
  wait_ready "$STICKERD_URL" "$log"
}

# stop_stickerds: sends SIGTERM to every stickerd start_stickerd started and waits for each to exit (a stickerd with
# an embedded PostgreSQL stops its cluster first), so that their data folders can go.
stop_stickerds() {
  local pid
  for pid in "${stickerd_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${stickerd_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  stickerd_pids=()
}
