"""Summarises scripts/bench/observability.sh's rounds: the best requests per second of each stickerd, per path, and what
the access log line and the request histogram cost. Usage: observability.py RESULTS (lines: ROUND PATH SHIPPED NO-LINE NO-HIST)."""
import sys
rows = [line.split() for line in open(sys.argv[1])]
for path in dict.fromkeys(row[1] for row in rows):
    shipped, noline, nohist = (max(float(row[i]) for row in rows if row[1] == path) for i in (2, 3, 4))
    name = "manifest" if path == "/v1/manifest" else "asset"
    print(f"{name}: best {shipped:.0f} rps shipped, {noline:.0f} without the access log line, {nohist:.0f} without the histogram; "
          f"the line costs {100 * (1 - shipped / noline):.1f}% (target: at most 3%), "
          f"the histogram {100 * (1 - shipped / nohist):.1f}% (target: at most 3%)")
