#!/usr/bin/env python3
"""Checks the relative links of the documentation: README.md, docs/**/*.md and the client's DocC articles.

Every relative Markdown link ([text](path), ![alt](path), [id]: path) must name a file or folder that exists, relative
to the file that links it (a leading / means the repository's root, as on GitHub). A link to `page.md#anchor` must also
name a heading of that page, slugged as GitHub does. Links with a scheme (https:, mailto:, ...) and links to an
anchor of the same page (#anchor) are not checked. Links inside code blocks and code spans are not links.

Usage: scripts/check_links.py [FILE...]   (no files: the documentation above)
Exit status 1 when a link is broken, after listing each one; the last line is "links: N checked, M broken".
"""
import re
import sys
import unicodedata
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent

# [text](target) and ![alt](target); the target may be <bracketed> and may carry a "title".
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
# [id]: target, a reference definition on a line of its own.
DEFINITION = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def documentation():
    files = [ROOT / "README.md"]
    files += sorted((ROOT / "docs").rglob("*.md"))
    # Hidden folders hold build output and other packages' checkouts (.build, .build-generator): not our docs.
    files += sorted(
        p for p in ROOT.rglob("*.docc/**/*.md") if not any(part.startswith(".") for part in p.relative_to(ROOT).parts)
    )
    return [f for f in files if f.is_file()]


def prose_lines(text):
    """(line number, line) for every line outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence:
            if match and match.group(1)[0] == fence[0] and len(match.group(1)) >= len(fence):
                fence = None
            continue
        if match:
            fence = match.group(1)
            continue
        yield number, line


def links(text):
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        definition = DEFINITION.match(line)
        if definition:
            yield number, definition.group(1)
            continue
        for match in INLINE.finditer(line):
            yield number, match.group(1)


def heading_text(line):
    """The text of an ATX heading as GitHub renders it (inline markup removed), or None."""
    match = re.match(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$", line)
    if not match:
        return None
    text = match.group(2) or ""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", text)  # links and images: their text
    text = re.sub(r"<[^>]+>", "", text)  # inline HTML
    text = text.replace("`", "")
    text = text.replace("*", "")
    text = re.sub(r"(?<![\w])_+|_+(?![\w])", "", text)  # _emphasis_, not snake_case
    return text


def slug(text):
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    text = text.strip().lower()
    kept = []
    for ch in text:
        if ch in " -_" or ch.isalnum():
            kept.append(ch)
        elif unicodedata.category(ch).startswith("M"):  # combining marks stay with their letter
            kept.append(ch)
    return "".join(kept).replace(" ", "-")


ANCHORS = {}


def anchors(path):
    if path not in ANCHORS:
        seen, found = {}, set()
        for _, line in prose_lines(path.read_text(encoding="utf-8")):
            text = heading_text(line)
            if text is None:
                continue
            base = slug(text)
            count = seen.get(base, 0)
            seen[base] = count + 1
            found.add(base if count == 0 else f"{base}-{count}")
        ANCHORS[path] = found
    return ANCHORS[path]


def check(source, target):
    """None when the link resolves, else why not."""
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    path_part, _, anchor = target.partition("#")
    path_part = unquote(path_part.split("?", 1)[0])
    base = ROOT if path_part.startswith("/") else source.parent
    resolved = (base / path_part.lstrip("/")).resolve()
    try:
        resolved.relative_to(ROOT)
    except ValueError:
        return "outside the repository"
    if not resolved.exists():
        return "no such file"
    if anchor and resolved.is_file() and resolved.suffix.lower() == ".md":
        if unquote(anchor).lower() not in anchors(resolved):
            return f"no heading #{anchor} in {resolved.relative_to(ROOT)}"
    return None


def main(argv):
    files = [Path(a).resolve() for a in argv] if argv else documentation()
    checked, broken = 0, []
    for source in files:
        text = source.read_text(encoding="utf-8")
        for number, target in links(text):
            if not target or target.startswith("#") or SCHEME.match(target):
                continue
            checked += 1
            problem = check(source, target)
            if problem:
                broken.append(f"{source.relative_to(ROOT)}:{number}: {target} ({problem})")
    for line in broken:
        print(line)
    print(f"links: {checked} checked, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
