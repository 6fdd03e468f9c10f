"""Prints hyperfine's mean times for scripts/bench/validator.sh, each next to stickerd validate's (the first command).
Usage: validator.py TIMES_JSON (hyperfine --export-json)."""
import json, sys
results = json.load(open(sys.argv[1]))["results"]
ours = results[0]["mean"]
for r in results:
    print(f'  {r["command"]:<18} {r["mean"] * 1000:8.2f} ms ± {r["stddev"] * 1000:5.2f}   stickerd/this = {ours / r["mean"]:.2f}')
