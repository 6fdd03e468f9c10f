#!/usr/bin/env bash
# Releases (issue 24) on a live release stickerd at 10,000 stickers (scripts/bench/catalog-search.sql beside the demo):
# 1,000 releases through the admin API, the history's size next to the catalog's tables, a page of release summaries,
# and a restore of the release before the 1,000, timed end to end, its manifest compared byte for byte
# (scripts/bench/releases.py). Targets: restore under 2 s with an equal manifest; history at most 2x the catalog.
# The boundary-to-disk target is measured by scripts/bench.sh client.
# Usage: scripts/bench.sh releases [path/to/stickerd]
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
work=$(mktemp -d /tmp/stickerd-bench-releases.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
admin="bench-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
"$stickerd" demo-art "$work/art" >/dev/null
STICKER_ADMIN_TOKEN=$admin start_stickerd "$stickerd" "$work/log" --demo --data-dir "$work/db"
psql -q -X -v ON_ERROR_STOP=1 -v stickers=10000 -h "$work/db" -U stickerd stickerd -f scripts/bench/catalog-search.sql
sleep 1  # the seed's NOTIFY reaches stickerd
echo "Releases at 10,000 stickers (stickerd as shipped; $(nproc) cores)"
python3 scripts/bench/releases.py "$STICKERD_URL" "$admin" "$work/art/Lollipop.png" -h "$work/db" -U stickerd stickerd
