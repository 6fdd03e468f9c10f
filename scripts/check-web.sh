#!/usr/bin/env bash
# Checks the web module (web/stickers.js) with no service: its unit tests under node's own test runner, its JSDoc and
# its stickers.d.ts with tsc (Debian's node-typescript), the declarations against the exports, and its size as served
# (gzip) against the 15 KB budget. scripts/install-deps.sh installs nodejs and node-typescript.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v node >/dev/null || { echo "node is not installed: scripts/install-deps.sh installs it" >&2; exit 1; }
node --test web/test/*.test.mjs >/tmp/stickercatalog-web-tests.$$ 2>&1 || { cat /tmp/stickercatalog-web-tests.$$; rm -f /tmp/stickercatalog-web-tests.$$; exit 1; }
summary=$(grep -E '^# (pass|fail)' /tmp/stickercatalog-web-tests.$$ | tr '\n' ' ')
rm -f /tmp/stickercatalog-web-tests.$$
echo "web: node --test: $summary"
node web/test/exports.mjs
if command -v tsc >/dev/null; then
  tsc -p web
  tsc -p web/test
  echo "web: tsc $(tsc --version | cut -d' ' -f2): stickers.js (checkJs) and stickers.d.ts compile"
else
  echo "web: tsc is not installed (Debian's node-typescript): types not checked" >&2
  exit 1
fi
size=$(gzip -9c web/stickers.js | wc -c)
((size < 15 * 1024)) || { echo "web: stickers.js is $size bytes gzipped, over the 15 KB budget" >&2; exit 1; }
echo "web: stickers.js is $size bytes gzipped (budget 15360)"
