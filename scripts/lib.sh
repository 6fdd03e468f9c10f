# Sourced by the scripts that start stickerd.

# free_port: a TCP port on 127.0.0.1 that nothing listens on now.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
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
