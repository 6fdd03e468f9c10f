#!/usr/bin/env bash
# Runs the commands of README.md's "Try it" and of docs/tour.md as written, each file's in one bash session (the way
# a newcomer pastes them into one terminal), from the repository's root on a fresh .stickerd: every line must exit 0
# (set -e). Between the two, the service is stopped and its data folder removed. Needs port 8080 free and the release
# builds the commands make (`make run` builds stickerd; the tour builds the client's sticker-sync).
# Usage: scripts/tour.sh   (or make tour)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ ! -e .stickerd ]] || { echo "tour: .stickerd exists; run this in a clean clone (it starts from an empty catalog)" >&2; exit 2; }
work=$(mktemp -d /tmp/stickerd-tour.XXXXXX)
cleanup() { rm -rf "$work" .stickerd stickers signal.zip /tmp/art /tmp/app /tmp/whatsapp /tmp/telegram; }
trap cleanup EXIT

blocks() {  # $1 file, $2 heading whose section to read ("" for the whole file): its ```sh blocks, in order
  python3 - "$1" "$2" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
if sys.argv[2]:
    text = text.split("\n## " + sys.argv[2], 1)[1].split("\n## ", 1)[0]
print("\n".join(re.findall(r"```sh\n(.*?)```", text, re.S)))
PY
}

session() {  # $1 name, $2 commands
  echo "== $1"
  printf 'set -euo pipefail\nset -x\n%s\n' "$2" >"$work/session.sh"
  local status=0
  setsid timeout 1500 bash "$work/session.sh" >"$work/$1.log" 2>&1 &
  local leader=$!
  wait "$leader" || status=$?
  # The session's background jobs (make run, sticker-sync --watch) are in its process group: SIGTERM ends them.
  kill -TERM -- "-$leader" 2>/dev/null || true
  for _ in $(seq 1 30); do pgrep -g "$leader" >/dev/null || break; sleep 1; done
  if ((status != 0)); then
    echo "tour: a command of $1 failed (exit $status); its last lines:" >&2
    tail -25 "$work/$1.log" >&2
    exit 1
  fi
  echo "   every line ran and exited 0"
  rm -rf .stickerd stickers
}

session readme "$(blocks README.md "Try it")"
session tour "$(blocks docs/tour.md "")"
echo "tour: every command of README.md's Try it and docs/tour.md ran as written"
