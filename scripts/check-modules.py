#!/usr/bin/env python3
"""Checks the module map: docs/architecture.md's target table against Package.swift and every `import` line.

The table ("## Targets": target | owns | may import) is the one place the map is written. This fails when
- a Swift file imports a module its target does not declare in Package.swift (one that merely comes along with another
  dependency builds today and breaks when that dependency changes);
- a target declares a dependency none of its files imports (a source target or a test target);
- a source target's imports differ from the table's "may import" cell, or the table names a target Package.swift lacks,
  or lacks one it has;
- a rule of "## Rules" is broken: only CatalogStore imports PostgresNIO; only CatalogHTTP and CatalogApp import
  Hummingbird (tests and the bench's baseline app aside); CatalogCore imports neither.

Usage: scripts/check-modules.py [--self-test]   Exit 0: the map holds; 1: findings.
"""
import json, re, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs/architecture.md"
# What the toolchain itself provides: never a Package.swift dependency.
TOOLCHAIN = {"Foundation", "FoundationEssentials", "FoundationNetworking", "Dispatch", "Synchronization", "Glibc",
             "Musl", "Darwin", "Testing", "XCTest", "_Concurrency", "Observation", "os", "CoreFoundation"}
IMPORT = re.compile(r"^\s*(?:@[\w]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?"
                    r"import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_]\w*)", re.M)
# Products whose module has another name.
PRODUCT_MODULES = {"SwiftPrometheus": "Prometheus"}
RULES = [
    ("PostgresNIO", {"CatalogStore", "StickerCatalogTests"}),
    ("Hummingbird", {"CatalogHTTP", "CatalogApp", "StickerCatalogTests", "CatalogHTTPTests", "baseline-server"}),
    ("HummingbirdCore", {"CatalogHTTP", "CatalogApp", "CatalogHTTPTests", "baseline-server"}),
]


def dump_package():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def dependencies(target):
    """The module names a target's Package.swift entry declares."""
    names = set()
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dep:
                name = dep[kind][0]
                names.add(PRODUCT_MODULES.get(name, name))
    return names


def imports(folder):
    """Each module imported under `folder`, with the first file that imports it: the imports at each file's head, up to
    its first declaration (an `import` later on is in a string, a Python script a test runs, say)."""
    found = {}
    for path in sorted(folder.rglob("*.swift")):
        head = []
        for line in path.read_text(encoding="utf-8").splitlines():
            bare = line.strip()
            if bare and not bare.startswith(("//", "/*", "*", "#if", "#else", "#elseif", "#endif")) \
                    and not IMPORT.match(line):
                break
            head.append(line)
        for module in IMPORT.findall("\n".join(head)):
            found.setdefault(module, path.relative_to(ROOT))
    return found


def table():
    """docs/architecture.md's rows: target -> the set its "may import" cell names (C targets' row skipped)."""
    text = TABLE.read_text(encoding="utf-8")
    section = text.split("## Targets", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("target", "---"):
            continue
        names = [n.strip() for n in re.split(r"[,;]", cells[0])]
        allowed = set() if cells[2] == "nothing" else {m.strip() for m in cells[2].split(",")}
        for name in names:
            rows[name] = allowed
    return rows


def check(package, rows):
    findings = []
    by_name = {t["name"]: t for t in package["targets"]}
    for target in package["targets"]:
        if target["type"] not in ("regular", "executable", "test"):
            continue
        name = target["name"]
        default = ("Tests/" if target["type"] == "test" else "Sources/") + name
        folder = ROOT / (target.get("path") or default)
        if not any(folder.rglob("*.swift")):
            continue  # a C target
        declared, used = dependencies(target), imports(folder)
        for module, path in sorted(used.items()):
            if module not in declared and module not in TOOLCHAIN and module != name:
                findings.append("%s: imports %s, which %s does not declare in Package.swift" % (path, module, name))
        for module in sorted(declared - set(used)):
            kind = by_name.get(module, {}).get("type")
            if kind not in ("system-target", "plugin") and not (kind == "regular" and not any(
                    (ROOT / (by_name[module].get("path") or "Sources/" + module)).rglob("*.swift"))):
                findings.append("%s declares %s, which none of its files imports" % (name, module))
        for module, allowed in RULES:
            if module in used and name not in allowed:
                findings.append("%s: %s imports %s (only %s may)" % (used[module], name, module, ", ".join(sorted(allowed))))
        if target["type"] != "test" and folder.is_relative_to(ROOT / "Sources"):
            mine = set(used) - TOOLCHAIN
            if name not in rows:
                findings.append("docs/architecture.md: the target table has no row for %s" % name)
            elif rows[name] != mine:
                extra, missing = sorted(mine - rows[name]), sorted(rows[name] - mine)
                findings.append("docs/architecture.md: %s's row %s" % (name, "; ".join(
                    filter(None, ["lacks " + ", ".join(extra) if extra else "",
                                  "lists " + ", ".join(missing) + ", never imported" if missing else ""]))))
    swift_targets = {t["name"] for t in package["targets"]}
    for name in sorted(set(rows) - swift_targets):
        findings.append("docs/architecture.md: the target table names %s, which Package.swift does not have" % name)
    return findings


def self_test():
    """The check fails on each kind of break, shown on a copy of the real package with one thing changed each."""
    package, rows = dump_package(), table()
    assert not check(package, rows), "the tree itself must pass first"
    core = next(t for t in package["targets"] if t["name"] == "CatalogCore")
    broken_rows = dict(rows, CatalogCore=rows["CatalogCore"] | {"Hummingbird"})
    dropped = dict(package, targets=[dict(t, dependencies=[d for d in t.get("dependencies", [])
                                                           if "Crypto" not in json.dumps(d)])
                                     if t is core else t for t in package["targets"]])
    cases = {
        "a stale row": check(package, broken_rows),
        "an undeclared import": check(dropped, rows),
        "a target the table lacks": check(package, {k: v for k, v in rows.items() if k != "CatalogSearch"}),
        "a row Package.swift lacks": check(package, dict(rows, CatalogGhost=set())),
    }
    ok = True
    for what, found in cases.items():
        print("self-test: %s: %s" % ("ok" if found else "FAILED", what))
        ok = ok and bool(found)
    return 0 if ok else 1


def main():
    if "--self-test" in sys.argv:
        return self_test()
    package = dump_package()
    findings = check(package, table())
    for finding in findings:
        print("module map: " + finding)
    if findings:
        return 1
    print("module map: %d targets' imports match Package.swift and docs/architecture.md's table" % len(
        [t for t in package["targets"] if t["type"] in ("regular", "executable", "test")]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
