"""Writes 200 distinct search paths for the benchmark (one per line), from the vocabulary of catalog-search.sql:
50 words, 50 prefixes, 50 typos (one edit: a letter dropped, added, changed or two swapped), 30 emoji, 20 pairs of
words; in three locales (none, fr, de), each query in the locale its words come from. Deterministic (seeded).
Usage: search-queries.py > paths.txt   (or --sql: the same queries as psql-readable lines, text<TAB>locale)"""
import random, re, sys, urllib.parse

sql = open(__file__.replace("search-queries.py", "catalog-search.sql")).read()
vocab = re.findall(r"\('([a-z -]+)','([a-z -]+)','([a-z -]+)'\)", sql.split("CREATE TEMP TABLE adjective")[0])
adjectives = re.findall(r"\('([a-z]+)','([a-z]+)','([a-z]+)'\)", sql.split("CREATE TEMP TABLE adjective")[1].split("syllable")[0])
emoji = ["🍎", "🍌", "🍒", "🍋", "🍊", "🍓", "🍑", "🍐", "🍇", "🍈", "🥥", "🥜", "🍮", "🍬", "🍭", "🍫", "🍪", "🧁", "🍩", "🍰"]
rng = random.Random(7)
locales = [(0, None), (1, "fr"), (2, "de")]

def word(pool):
    column, locale = rng.choice(locales)
    text = rng.choice(pool)[column].split(" ")[0]
    return text, locale

def typo(text):
    i = rng.randrange(1, len(text) - 1)
    kind = rng.randrange(4)
    if kind == 0: return text[:i] + text[i + 1:]
    if kind == 1: return text[:i] + rng.choice("aeiou") + text[i:]
    if kind == 2: return text[:i] + rng.choice("xqz") + text[i + 1:]
    return text[:i - 1] + text[i] + text[i - 1] + text[i + 1:]

queries = set()
def add(kind, count, make):
    made = 0
    while made < count:
        q = make()
        if q not in queries:
            queries.add(q)
            made += 1
add("word", 50, lambda: word(vocab + adjectives))
add("prefix", 50, lambda: (lambda t: (t[0][:rng.randrange(3, 6)], t[1]))(word(vocab)))
add("typo", 50, lambda: (lambda t: (typo(t[0]), t[1]) if len(t[0]) >= 6 else ("", None))(word(vocab)))
queries.discard(("", None))
while len(queries) < 150: queries.add((typo(rng.choice(vocab)[0]), None))
add("emoji", 30, lambda: (rng.choice(emoji) + ("" if rng.random() < 0.5 else rng.choice(["🏻", "\ufe0f", ""])), rng.choice([None, "fr", "de"])))
add("pair", 20, lambda: (lambda a, v: (f"{a[0]} {v[0]}", None))(rng.choice(adjectives), rng.choice(vocab)))
ordered = sorted(queries, key=lambda q: (q[0], q[1] or ""))
assert len(ordered) == 200, len(ordered)
for text, locale in ordered:
    if "--sql" in sys.argv:
        print(f"{text}\t{locale or ''}")
    else:
        print("/v1/search?q=" + urllib.parse.quote(text) + (f"&locale={locale}" if locale else ""))
