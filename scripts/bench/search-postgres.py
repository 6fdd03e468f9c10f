"""The 200 benchmark queries (search-queries.py --sql) as PostgreSQL full-text and trigram searches over the table
search-postgres.sql builds, one pgbench script per query: every word as a prefix (tsquery `w:*`) or, from five
letters, a near word (pg_trgm's `<%`), emoji through a GIN index on the array, best 20 by ts_rank. pgbench takes at
most 128 scripts, so the queries go into a table and one script runs a random one through `run_search(n)` (dynamic
SQL: planned on every call, as a query sent as text is).
Usage: search-queries.py --sql | search-postgres.py DIR   (writes DIR/queries.sql and DIR/pgbench.sql)"""
import re, sys, os

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rows = []
for number, line in enumerate(sys.stdin):
    text, _locale = line.rstrip("\n").split("\t")
    words = re.findall(r"[^\W_]+", text.lower())
    emoji = [c for c in text if ord(c) > 0x2000 and c not in "\ufe0f\ufe0e" and not 0x1F3FB <= ord(c) <= 0x1F3FF]
    conditions, ranks = [], []
    for w in words:
        literal = w.replace("'", "''")
        condition = f"tsv @@ to_tsquery('simple', unaccent('{literal}') || ':*')"
        if len(w) >= 5:
            condition = f"({condition} OR unaccent('{literal}') <% doc)"
        conditions.append(condition)
        ranks.append(f"ts_rank(tsv, to_tsquery('simple', unaccent('{literal}') || ':*'))")
    for e in emoji:
        conditions.append(f"emoji && ARRAY['{e}']")
    rank = (" + ".join(ranks) + " DESC, ") if ranks else ""
    sql = f"SELECT id, name FROM search_docs WHERE {' AND '.join(conditions)} ORDER BY {rank}ordinal LIMIT 20"
    rows.append("(%d, '%s')" % (number, sql.replace("'", "''")))
with open(os.path.join(out, "queries.sql"), "w") as f:
    f.write("DROP TABLE IF EXISTS bench_queries;\nCREATE TABLE bench_queries (n int PRIMARY KEY, sql text NOT NULL);\n")
    f.write("INSERT INTO bench_queries VALUES\n" + ",\n".join(rows) + ";\n")
    f.write("""CREATE OR REPLACE FUNCTION run_search(k int) RETURNS TABLE (id uuid, name text) LANGUAGE plpgsql AS $$
BEGIN RETURN QUERY EXECUTE (SELECT sql FROM bench_queries WHERE n = k); END $$;\n""")
with open(os.path.join(out, "pgbench.sql"), "w") as f:
    f.write("\\set k random(0, %d)\nSELECT * FROM run_search(:k);\n" % (len(rows) - 1))
