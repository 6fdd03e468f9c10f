"""Prints one value of a JSON document: the scripts' way to read an answer of stickerd's.

Usage: json_get.py PATH [FILE]   (FILE, or standard input when there is none)
PATH is dot-separated steps: a key of an object, an index of an array (0, 1, ...), or KEY=VALUE, the first object of an
array whose KEY is VALUE (as text). A string is printed as is; anything else as Python prints it (True, 12, [...]).
Examples: groups.0.cover.url   stickers.0.id   cursor   groups.id=chewy.locked
"""
import json
import sys


def get(value, path):
    for step in path.split("."):
        if isinstance(value, list) and "=" in step:
            key, wanted = step.split("=", 1)
            value = next(item for item in value if str(item.get(key)) == wanted)
        elif isinstance(value, list):
            value = value[int(step)]
        else:
            value = value[step]
    return value


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    document = json.load(open(sys.argv[2]) if len(sys.argv) == 3 else sys.stdin)
    print(get(document, sys.argv[1]))
