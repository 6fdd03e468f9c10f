#!/usr/bin/env bash
# Drives the admin console in a real, headless Chromium (Debian's chromium and chromium-driver, through selenium)
# against a live stickerd with the demo catalog on a throwaway embedded PostgreSQL. Screenshots go to
# .build/screenshots/. Usage: scripts/browser-test.sh [path/to/stickerd]   (default: the debug build)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib.sh
stickerd=${1:-.build/debug/stickerd}
chromium=$(command -v chromium || true)
driver=$(command -v chromedriver || true)
[[ -n "$chromium" && -n "$driver" ]] || { echo "chromium and chromium-driver are not installed: scripts/install-deps.sh" >&2; exit 1; }
python3 -c "import selenium" 2>/dev/null || { echo "selenium is not installed: python3 -m pip install selenium" >&2; exit 1; }
work=$(mktemp -d /tmp/stickerd-browser.XXXXXX)
chmod 755 "$work"
token="browser-$(head -c 16 /dev/urandom | od -An -tx1 | tr -d ' \n')"
trap 'stop_stickerds; rm -rf "$work"' EXIT
# Usage events reach the Stats screen when they are written, every 5 s by default: every second keeps that step short.
# Asked of the binary, so that one built before the option still runs the other scenarios.
serve_options=()
if "$stickerd" serve --help 2>/dev/null | grep -q -- '--usage-flush-interval'; then serve_options+=(--usage-flush-interval 1); fi
# The Stats scenario posts every send from this one client: the bound per source (3 uses of a sticker an hour) would
# count 3 of its 7.
if "$stickerd" serve --help 2>/dev/null | grep -q -- '--usage-per-source-hour'; then
  serve_options+=(--usage-per-source-hour 100)
fi
# The demo chat (issue 49) from a static host of its own, as a web chat's page would be: its origin is allowed, the
# same files under "localhost" are another origin, which is not.
mkdir -p "$work/static/web" "$work/static/demo"
cp web/stickers.js "$work/static/web/" && cp web/demo/* "$work/static/demo/"
static_port=$(free_port)
python3 -m http.server "$static_port" --directory "$work/static" >"$work/static.log" 2>&1 &
static_pid=$!
trap 'kill $static_pid 2>/dev/null; stop_stickerds; rm -rf "$work"' EXIT
if "$stickerd" serve --help 2>/dev/null | grep -q -- '--cors-origin'; then
  serve_options+=(--cors-origin "http://127.0.0.1:$static_port")
fi
STICKER_ADMIN_TOKEN=$token LOG_LEVEL=warning start_stickerd "$stickerd" "$work/stickerd.log" --demo --data-dir "$work/db" \
  "${serve_options[@]}"
mkdir -p .build/screenshots
status=0
SE_OFFLINE=true CHROMIUM="$chromium" CHROMEDRIVER="$driver" python3 scripts/browser/console_test.py \
  "$STICKERD_URL" "$token" .build/screenshots "$work/images" || status=$?
# Last: its final scenario stops stickerd, to open the chat again from IndexedDB alone.
if [[ -f web/demo/chat.js ]]; then
  SE_OFFLINE=true CHROMIUM="$chromium" CHROMEDRIVER="$driver" python3 scripts/browser/chat_test.py \
    "$STICKERD_URL" "http://127.0.0.1:$static_port" "http://localhost:$static_port" "$token" .build/screenshots \
    "$STICKERD_PID" || status=$?
fi
if [[ $status -ne 0 ]]; then echo "stickerd log:"; tail -40 "$work/stickerd.log"; fi
exit $status
