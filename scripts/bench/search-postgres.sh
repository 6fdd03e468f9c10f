#!/usr/bin/env bash
# The alternative to search's in-memory index, measured on the same catalogs and the same 200 queries as
# scripts/bench.sh search: PostgreSQL full-text search (tsvector prefixes) with unaccent and pg_trgm (typos), as
# scripts/bench/search-postgres.sql builds it; pgbench -c16 -j2 runs the queries (scripts/bench/search-postgres.py),
# with no HTTP, JSON or pictures around them. Prints the build time, the size on disk, p50, p99 and queries per second.
# Usage: scripts/bench.sh search-postgres [path/to/stickerd]   Environment: SIZES ("10000 100000"), DURATION (10).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib.sh
stickerd=${1:-.build/release/stickerd}
sizes=${SIZES:-10000 100000}
duration=${DURATION:-10}
work=$(mktemp -d /tmp/stickerd-bench-search-pg.XXXXXX)
chmod 755 "$work"
cleanup() { stop_stickerds; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
command -v pgbench >/dev/null || { echo "pgbench is not installed (apt install postgresql-contrib or postgresql-client)" >&2; exit 1; }
python3 scripts/bench/search-queries.py --sql | python3 scripts/bench/search-postgres.py "$work/queries"
printf '%-9s %-12s %-18s %-9s %-9s %s\n' stickers build "table and indexes" "p50 ms" "p99 ms" "queries/s"
for size in $sizes; do
  dir="$work/$size"
  mkdir -p "$dir" && chmod 755 "$dir"
  STICKER_ADMIN_TOKEN=bench-admin-token-0123456789 start_stickerd "$stickerd" "$dir.log" --demo --data-dir "$dir/db"
  sql=(psql -q -X -v ON_ERROR_STOP=1 -h "$dir/db" -U stickerd stickerd)
  "${sql[@]}" -v stickers="$size" -f scripts/bench/catalog-search.sql
  started=$(date +%s.%N)
  table=$("${sql[@]}" -At -f scripts/bench/search-postgres.sql 2>/dev/null | tail -1)
  "${sql[@]}" -f "$work/queries/queries.sql"
  build=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f ms", (b - a) * 1000 }')
  (cd "$dir" && pgbench -n -h "$dir/db" -U stickerd -c16 -j2 -T "$duration" -l --log-prefix=latency -f "$work/queries/pgbench.sql" stickerd >"$dir.pgbench" 2>&1) || { tail -20 "$dir.pgbench"; exit 1; }
  read -r p50 p99 <<<"$(cat "$dir"/latency.* | awk '{ print $3 / 1000 }' | sort -n | awk '{ v[NR] = $1 } END { printf "%.2f %.2f", v[int(NR * 0.5)], v[int(NR * 0.99)] }')"
  qps=$(awk '/^tps/ { printf "%.0f", $3 }' "$dir.pgbench")
  printf '%-9s %-12s %-18s %-9s %-9s %s\n' "$size" "$build" "$table" "$p50" "$p99" "$qps"
  stop_stickerds
done
echo "(pgbench -c16 -j2 -T$duration over the 200 queries; $(nproc) cores shared by pgbench and PostgreSQL)"
