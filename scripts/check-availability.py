#!/usr/bin/env python3
"""Fails when Client/Sources uses an Apple API introduced after the client package's platform floor.

CI builds on Linux only, where the compiler never checks Apple availability: `Synchronization.Mutex` (iOS 18) builds
there in a package whose floor is iOS 16 and breaks only an app's build. This reads what a debug build indexed
(libIndexStore), looks each referenced symbol up in the symbol graphs of the modules the client builds against (they
carry Apple availability), and reports each use above the floor (Client/Package.swift's `platforms:`) that no
`@available` / `#available` guards. Code Linux does not compile never reaches the index: it is scanned as text for a
table of Apple-only names. A last scan flags conversions that trap where Int is 32-bit (watchOS' arm64_32).

Usage: scripts/check-availability.py [--store PATH] [--self-test]   (build first: builds write the index)
Exit 0: clean; 1: findings; 2: cannot check (no index, no client units, sources changed since the build).
"""
import argparse, bisect, ctypes, hashlib, json, platform, re, shutil, subprocess, sys, tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLIENT, SOURCES = ROOT / "Client", ROOT / "Client/Sources"
STORES = [p / ".build/x86_64-unknown-linux-gnu/debug/index/store" for p in (CLIENT, ROOT)]
USR_BIN = Path(shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc").resolve().parent
PLATFORMS = ("iOS", "macOS", "tvOS", "watchOS", "visionOS")
NEVER = (9999, 0)  # how far `@available(iOS, unavailable)` guards: everything
TOOLCHAIN_MODULES = ["Swift", "_Concurrency", "Synchronization", "_StringProcessing", "RegexBuilder", "Observation",
                     "Distributed", "FoundationEssentials", "FoundationInternationalization", "Foundation", "Dispatch"]
PACKAGE_MODULES = ["OpenAPIRuntime", "HTTPTypes", "Crypto", "Logging", "AsyncHTTPClient", "NIOCore", "NIOPosix"]
# What an Apple build can never import, so `#if canImport(...)` of it is Linux-only code.
LINUX_ONLY_MODULES = {"Glibc", "Musl", "Android", "Bionic", "WinSDK", "WASILibc", "FoundationNetworking",
                      "AsyncHTTPClient", "OpenAPIAsyncHTTPClient", "NIOCore", "NIOPosix"}


def version(text):
    parts = [int(p) for p in re.findall(r"\d+", str(text))] + [0, 0]
    return parts[0], parts[1]


def shown(v):
    return "%d" % v[0] if v[1] == 0 else "%d.%d" % v


def _v(*versions):  # iOS, macOS, tvOS, watchOS, visionOS; None: no such API there
    return {p: version(v) for p, v in zip(PLATFORMS, versions) if v is not None}


# MAINTAINED BY HAND. For code Linux does not compile (so never indexed): names matched as whole words outside
# comments and strings, with the introduction Apple's documentation gives (developer.apple.com/documentation/<page>,
# page after each entry), in the order iOS, macOS, tvOS, watchOS, visionOS. Add a name when Apple-only code starts
# using a recent API; entries at or below the floor document what was checked and is fine.
APPLE_ONLY_NAMES = {
    "Mutex": _v(18, 15, 18, 11, 2),  # synchronization/mutex
    "Atomic": _v(18, 15, 18, 11, 2),  # synchronization/atomic
    "OSAllocatedUnfairLock": _v(16, 13, 16, 9, 1),  # os/osallocatedunfairlock
    "Observable": _v(17, 14, 17, 10, 1),  # observation/observable() (the macro), observation/observable
    "withObservationTracking": _v(17, 14, 17, 10, 1),  # observation/withobservationtracking(_:onchange:)
    "ObservationIgnored": _v(17, 14, 17, 10, 1),  # observation/observationignored()
    "withDiscardingTaskGroup": _v(17, 14, 17, 10, 1),  # swift/withdiscardingtaskgroup(returning:isolation:body:)
    "withThrowingDiscardingTaskGroup": _v(17, 14, 17, 10, 1),  # swift/withthrowingdiscardingtaskgroup(...)
    r"Task\s*\.\s*immediate": _v(26, 26, 26, 26, 26),  # swift/task/immediate(name:priority:executorpreference:...)
    "InlineArray": _v(26, 26, 26, 26, 26),  # swift/inlinearray
    "Span": _v(26, 26, 26, 26, 26),  # swift/span
    "RangeSet": _v(18, 15, 18, 11, 2),  # swift/rangeset
    "Int128": _v(18, 15, 18, 11, 2),  # swift/int128
    "UInt128": _v(18, 15, 18, 11, 2),  # swift/uint128
    "NSExtensionHostWillEnterForeground": _v("8.2", "10.10", 9, 2, 1),  # foundation/nsextensionhostwillenter...
    "willEnterForegroundNotification": _v(4, None, 9, None, 1),  # uikit/uiapplication/willenterforegroundnot...
    "MSStickerBrowserViewController": _v(10, None, None, None, 1),  # messages/msstickerbrowserviewcontroller
    "MSSticker": _v(10, None, None, None, 1),  # messages/mssticker
}
NAME_PATTERNS = [(re.compile(r"(?<![\w$])%s(?![\w$])" % name), re.sub(r"\\s\*|\\", "", name), needs)
                 for name, needs in APPLE_ONLY_NAMES.items()]
# Conversions that trap where Int is 32-bit (watchOS' arm64_32); `clamping:` / `truncatingIfNeeded:` do not.
WIDTH_PATTERNS = {r"\bInt\(\s*UInt32\.max\s*\)": "Int(UInt32.max)", r"\bInt\(\s*UInt64\b": "Int(UInt64...)",
                  r"\bInt\(\s*Int64\b": "Int(Int64...)", r"\bInt\([^()\n]*\bst_size\b": "Int(...st_size)"}


def read_floor(package):
    """The `platforms:` of Package.swift: `.iOS(.v16)` -> {"iOS": (16, 0)}."""
    listed = re.search(r"platforms:\s*\[([^\]]*)\]", package.read_text())
    found = re.findall(r"\.(\w+)\(\s*\.v(\d+(?:_\d+)?)\s*\)", listed.group(1) if listed else "")
    floor = {name: version(v.replace("_", ".")) for name, v in found if name in PLATFORMS}
    if set(floor) != set(PLATFORMS):
        sys.exit("availability: %s must list %s in `platforms:`" % (package, ", ".join(PLATFORMS)))
    return floor


# ---- Swift source: comments and strings, #if branches, availability guards ----

STRING_START, SKIPPED = re.compile(r'#*(?:"""|")'), re.compile(r'//|/\*|#*"')


def _string_end(text, i):
    """Offset just past the string literal at i: raw (`#"`), multi-line, `\\(...)` holding strings."""
    start = STRING_START.match(text, i)
    pounds = start.group().rstrip('"')
    close, escape, j = start.group()[len(pounds):] + pounds, "\\" + pounds, start.end()
    while j < len(text) and not text.startswith(close, j):
        if text.startswith(escape + "(", j):
            j, depth = j + len(escape) + 1, 1
            while j < len(text) and depth:
                if STRING_START.match(text, j):
                    j = _string_end(text, j)
                else:
                    depth, j = depth + {"(": 1, ")": -1}.get(text[j], 0), j + 1
        elif text[j] == "\n" and close == '"' + pounds:
            return j  # unterminated: ends with its line
        else:
            j += len(escape) + 1 if text.startswith(escape, j) else 1
    return j + len(close)


def blank(text):
    """`text` with comments and string literals turned to spaces (newlines kept), so scans see code only."""
    out, i = list(text), 0
    while (m := SKIPPED.search(text, i)):
        i = m.start()
        if m.group() == "//":
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
        elif m.group() == "/*":  # comments nest in Swift
            end, depth = i + 2, 1
            while end < len(text) and depth:
                pair = text[end:end + 2]
                depth, end = depth + (pair == "/*") - (pair == "*/"), end + (2 if pair in ("/*", "*/") else 1)
        else:
            end = _string_end(text, i)
        out[i:end] = [c if c == "\n" else " " for c in text[i:end]]
        i = max(end, i + 1)
    return "".join(out)


def evaluate(condition, env, linux):
    """An `#if` condition on Linux (env "Linux") or on one Apple platform; what cannot be known is taken as true."""
    def atom(token):
        name, _, arg = (t.strip() for t in token.partition("("))
        arg, apple = arg.rstrip(")").split(",")[0].strip(), env != "Linux"
        if name == "os":
            return arg == env
        if name == "canImport":
            return arg not in LINUX_ONLY_MODULES if apple else arg in linux["modules"]
        if name in ("compiler", "swift"):  # an app may build with a newer Xcode than this toolchain
            return apple or (linux["compiler"] >= version(arg)) == (">=" in arg)
        if name in ("arch", "true", "false"):
            return name == "true" or (name == "arch" and (apple or arg == platform.machine()))
        return apple or name != "targetEnvironment"  # -D flags: possible in an app's build

    # Python's not/and/or bind as Swift's !/&&/||; the expression is rebuilt from operators and True/False only.
    operators = {"&&": "and", "||": "or", "!": "not", "(": "(", ")": ")"}
    tokens = re.findall(r"&&|\|\||!|\(|\)|\w+\s*\([^()]*\)|\w+", condition)
    try:
        return eval(" ".join(operators.get(t) or str(atom(t)) for t in tokens) or "True", {"__builtins__": {}})
    except SyntaxError:
        return True


def compiled_lines(lines, linux):
    """Per line: (compiled on Linux, the Apple platforms compiling it), following #if/#elseif/#else/#endif."""
    envs = ("Linux",) + PLATFORMS
    state, stack, result = {e: True for e in envs}, [], []
    for line in lines:
        directive = re.match(r"\s*#(if|elseif|else|endif)\b(.*)", line)
        if directive and (directive.group(1) == "if" or stack):
            kind, condition = directive.groups()
            if kind == "if":
                stack.append((state, {e: False for e in envs}))
            parent, taken = stack[-1]
            if kind == "endif":
                state = stack.pop()[0]
            else:
                state = {e: parent[e] and not taken[e] and (kind == "else" or evaluate(condition, e, linux))
                         for e in envs}
                taken.update({e: taken[e] or state[e] for e in envs})
        result.append((False, frozenset()) if directive else
                      (state["Linux"], frozenset(p for p in PLATFORMS if state[p])))
    return result


def parse_available(arguments):
    """{platform: version} an @available/#available list guards; `unavailable` guards all; `*` guards nothing."""
    parts, guards = [p.strip() for p in arguments.split(",")], {}
    if re.fullmatch(r"\*|\w+", parts[0]) and len(parts) > 1:  # long form: `iOS, introduced: 17`, `*, unavailable`
        named = PLATFORMS if parts[0] == "*" else [p for p in PLATFORMS if p == parts[0]]
        for part in parts[1:]:
            introduced = re.fullmatch(r"introduced\s*:\s*([\d.]+)", part)
            if part == "unavailable" or introduced:  # deprecated/obsoleted: irrelevant to this check
                guards.update({p: version(introduced.group(1)) if introduced else NEVER for p in named})
        return guards
    for part in parts:
        short = re.fullmatch(r"(\w+)\s+([\d.]+)", part)
        if short and short.group(1) in PLATFORMS:
            guards[short.group(1)] = version(short.group(2))
    return guards


DECL_KEYWORD = (r"\b(func|var|let|init|case|struct|enum|class|extension|protocol|actor|typealias|subscript|deinit|"
                r"macro|associatedtype)\b")
DECL_START = re.compile(r"\s*(@|#|}|\b(public|private|fileprivate|internal|open|package|static|final|override|"
                        r"nonisolated|mutating|lazy|weak|convenience|required)\b|" + DECL_KEYWORD + ")")


def _brace_after(code, i, bodiless_ends=False):
    """(offset, True) of the first `{` from i outside () and [], or (offset, False) where the enclosing scope closes
    first or, with `bodiless_ends`, where a line ends before another declaration (a stored property, a requirement)."""
    depth = 0
    for j in range(i, len(code)):
        depth += (code[j] in "([") - (code[j] in ")]")
        if depth <= 0 and code[j] == "{":
            return j, True
        if depth <= 0 and (code[j] == "}" or bodiless_ends and code[j] == "\n" and DECL_START.match(code, j + 1)):
            return j, False
    return len(code), False


def guarded_span(code, kind, at, after, pairs):
    """Offsets of the code an @available (the declaration after it), #available (an if/while body, or the rest of
    the scope after a guard) or #unavailable (the else branch) guards; None if there is none."""
    if kind == "@available":
        keyword = re.compile(DECL_KEYWORD).search(code, after)
        body, found = _brace_after(code, keyword.end(), True) if keyword else (len(code), False)
        return at, pairs.get(body, len(code)) if found else body
    statement = re.search(r"\b(if|guard|while)\b[^{};]*$", code[max(0, at - 400):at])
    body, found = _brace_after(code, after)
    if not statement or not found:
        return None
    end = pairs.get(body, len(code))
    if statement.group(1) == "guard":  # `guard #available ... else { exit }`: the rest of the enclosing scope
        scopes = [o for o, c in pairs.items() if o < at < c]
        return (body, end) if kind == "#unavailable" else (end, pairs[max(scopes)] if scopes else len(code))
    if kind == "#available":
        return body, end
    otherwise = re.compile(r"\s*else\s*\{").match(code, end + 1)
    return (otherwise.end() - 1, pairs.get(otherwise.end() - 1, len(code))) if otherwise else None


class Source:
    """One Swift file as the checks see it: code without comments and strings, per-line #if state, guards."""

    def __init__(self, text, linux):
        self.code = blank(text)
        self.lines = self.code.split("\n")
        self.compiled = compiled_lines(self.lines, linux)
        starts = [0] + [m.end() for m in re.finditer("\n", self.code)]
        pairs, stack = {}, []
        for m in re.finditer(r"[{}]", self.code):
            if m.group() == "{":
                stack.append(m.start())
            elif stack:
                pairs[stack.pop()] = m.start()
        self.regions = []  # (first line, last line, {platform: version})
        for m in re.finditer(r"(@available|#available|#unavailable)\s*\(", self.code):
            close = self.code.find(")", m.end())
            guards = parse_available(self.code[m.end():close])
            span = guards and guarded_span(self.code, m.group(1), m.start(), close + 1, pairs)
            if span:
                self.regions.append((bisect.bisect(starts, span[0]), bisect.bisect(starts, span[1]), guards))

    def apple(self, line):
        return self.compiled[line - 1][1] if 0 < line <= len(self.compiled) else frozenset()

    def guarded(self, line, name):
        return max((g[name] for a, b, g in self.regions if a <= line <= b and name in g), default=None)

    def violation(self, line, needs, floor):
        """(platform, version) of the first platform compiling `line` where `needs` is above the floor, unguarded."""
        for name in PLATFORMS:
            need = needs.get(name)
            if need and need > floor[name] and name in self.apple(line):
                guard = self.guarded(line, name)
                if guard is None or guard < need:
                    return name, need
        return None


def finding(path, line, symbol, name, need, floor):
    return "%s:%d: %s is %s %s+, above the floor %s %s" % (path, line, symbol, name, shown(need), name,
                                                           shown(floor[name]))


def scan_names(path, src, floor, every_line=False):
    """Lines Linux does not compile (every line, when the index cannot vouch for the file) against the table."""
    found = []
    for number, (on_linux, _) in enumerate(src.compiled, 1):
        for pattern, label, needs in NAME_PATTERNS if every_line or not on_linux else ():
            hit = pattern.search(src.lines[number - 1]) and src.violation(number, needs, floor)
            found += [finding(path, number, label, *hit, floor)] if hit else []
    return found


def scan_widths(path, src):
    """Lines compiled for watchOS against WIDTH_PATTERNS."""
    found = []
    for number, line in enumerate(src.lines, 1):
        if "watchOS" in src.apple(number) and "clamping:" not in line and "truncatingIfNeeded:" not in line:
            found += ["%s:%d: %s traps where Int is 32-bit (watchOS arm64_32); use Int(clamping:) or "
                      "Int(truncatingIfNeeded:)" % (path, number, label)
                      for pattern, label in WIDTH_PATTERNS.items() if re.search(pattern, line)]
    return found


# ---- Symbol graphs: the Apple availability of what the client builds against ----

def linux_environment(build):
    """What `#if` sees in this Linux build: the toolchain's version, the modules there are to import."""
    banner = subprocess.run([USR_BIN / "swiftc", "--version"], capture_output=True, text=True).stdout.strip()
    name = (re.findall(r"Swift version ([\d.]+)", banner) or ["0"])[0]
    modules = {p.stem for p in (USR_BIN.parent / "lib/swift/linux").glob("*.swiftmodule")}
    modules |= {p.stem for p in (build / "Modules").glob("*.swiftmodule")} if build else set()
    return {"compiler": version(name), "name": name, "banner": banner, "modules": modules}


def extract(module, into, build):
    """swift-symbolgraph-extract for one module; None, or a note saying why there is no graph."""
    flags = []
    if build:  # a package module's dependencies: Swift modules, generated and checked-out C module maps
        flags = ["-I", build / "Modules"] + [f for m in sorted(build.glob("*.build/module.modulemap"))
                                             for f in ("-Xcc", "-fmodule-map-file=%s" % m)]
        flags += [f for m in sorted(build.parent.parent.glob("checkouts/*/Sources/*/include/module.modulemap"))
                  for f in ("-I", m.parent)]
    (into / module).mkdir(parents=True)
    run = subprocess.run([USR_BIN / "swift-symbolgraph-extract", "-module-name", module, "-target",
                          "%s-unknown-linux-gnu" % platform.machine(), "-output-dir", into / module,
                          "-minimum-access-level", "public", *flags], capture_output=True, text=True)
    why = (run.stderr.strip() or "exit %d" % run.returncode).splitlines()[0]
    return None if run.returncode == 0 else "no symbol graph for %s (%s)" % (module, why)


def effective_availability(graphs):
    """USR -> (qualified name, {platform: introduced}): a symbol's own availability raised by its parents'
    (memberOf, requirementOf, extensionTo), as a member of an iOS 18 type is iOS 18 whatever it says itself."""
    own, parent, names = {}, {}, {}
    for path in graphs.rglob("*.symbols.json"):  # all of them: _Concurrency's land in `_Concurrency@Swift...`
        graph = json.loads(path.read_bytes())
        for symbol in graph["symbols"]:
            usr = symbol["identifier"]["precise"]
            names.setdefault(usr, ".".join(symbol["pathComponents"]))
            for entry in symbol.get("availability", []):
                if entry.get("domain") in PLATFORMS and "introduced" in entry:
                    given = entry["introduced"]
                    own.setdefault(usr, {})[entry["domain"]] = (given["major"], given.get("minor", 0))
        for relation in graph["relationships"]:
            if relation["kind"] in ("memberOf", "requirementOf", "optionalRequirementOf", "extensionTo"):
                parent.setdefault(relation["source"], relation["target"])
    table = {}
    for usr in names:
        needs, seen, at = {}, set(), usr
        while at and at not in seen:
            seen.add(at)
            for name, need in own.get(at, {}).items():
                needs[name] = max(needs.get(name, need), need)
            at = parent.get(at)
        if needs:
            table[usr] = (names[usr], needs)
    return table


def load_availability(build, linux):
    """(table, notes on modules without a graph): cached in `<build>/availability-graphs`, keyed by the toolchain,
    Package.resolved and which package modules are built; extracted afresh otherwise."""
    resolved = next((p / "Package.resolved" for p in build.parents if (p / "Package.resolved").exists()), None) \
        if build else None
    built = [m for m in PACKAGE_MODULES if (build / "Modules" / (m + ".swiftmodule")).exists()] if build else []
    key = "%s %s %s %s v1" % (linux["banner"], TOOLCHAIN_MODULES, built,
                              resolved.read_text() if resolved else "")
    cache = build / "availability-graphs" / ("swift-%s-%s.json" % (
        linux["name"], hashlib.sha256(key.encode()).hexdigest()[:12])) if build else None
    if cache and cache.exists():
        stored = json.loads(cache.read_text())
        return {usr: (name, {p: tuple(v) for p, v in needs.items()}) for usr, (name, needs) in stored["table"].items()
                }, stored["notes"]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(2) as pool:  # 2: the machine's cores
        jobs = [(m, None) for m in TOOLCHAIN_MODULES] + [(m, build) for m in PACKAGE_MODULES if build]
        notes = [n for n in pool.map(lambda job: extract(job[0], Path(tmp), job[1]), jobs) if n]
        table = effective_availability(Path(tmp))
    if cache:
        cache.parent.mkdir(exist_ok=True)
        for outdated in cache.parent.glob("*.json"):  # an earlier toolchain's or Package.resolved's table
            outdated.unlink()
        cache.with_suffix(".tmp").write_text(json.dumps({"table": table, "notes": notes}))
        cache.with_suffix(".tmp").replace(cache)
    return table, notes


# ---- Index store: what the client's sources reference ----

ROLE_DECLARATION, ROLE_DEFINITION, ROLE_REFERENCE, ROLE_IMPLICIT = 1, 2, 4, 256
KIND_EXTENSION, DEPENDENCY_RECORD = 9, 2


class StringRef(ctypes.Structure):
    _fields_ = [("data", ctypes.c_char_p), ("length", ctypes.c_size_t)]


def text(ref, *_):
    return ctypes.string_at(ref.data, ref.length).decode()


class IndexStore:
    """libIndexStore through ctypes (its functions as methods, `indexstore_` dropped), with the `_f` variants of
    its apply functions: ctypes can make function pointers, not blocks."""
    P, B, I = ctypes.c_void_p, ctypes.c_bool, ctypes.c_int
    APPLY, NAMES = ctypes.CFUNCTYPE(B, P, P), ctypes.CFUNCTYPE(B, P, StringRef)
    SIGNATURES = {
        "store_create": (P, [ctypes.c_char_p, P]), "store_units_apply_f": (B, [P, ctypes.c_uint, P, NAMES]),
        "unit_reader_create": (P, [P, ctypes.c_char_p, P]), "unit_reader_dispose": (None, [P]),
        "unit_reader_get_main_file": (StringRef, [P]), "unit_reader_dependencies_apply_f": (B, [P, P, APPLY]),
        "unit_reader_get_modification_time": (None, [P, P, P]), "unit_dependency_get_kind": (I, [P]),
        "unit_dependency_get_name": (StringRef, [P]), "unit_dependency_get_filepath": (StringRef, [P]),
        "record_reader_create": (P, [P, ctypes.c_char_p, P]), "record_reader_dispose": (None, [P]),
        "record_reader_occurrences_apply_f": (B, [P, P, APPLY]), "occurrence_get_symbol": (P, [P]),
        "occurrence_get_roles": (ctypes.c_uint64, [P]), "occurrence_get_line_col": (None, [P, P, P]),
        "symbol_get_usr": (StringRef, [P]), "symbol_get_name": (StringRef, [P]), "symbol_get_kind": (I, [P]),
    }

    def __init__(self, path):
        lib = ctypes.CDLL(str(USR_BIN.parent / "lib/libIndexStore.so"))
        for name, (result, arguments) in self.SIGNATURES.items():
            function = getattr(lib, "indexstore_" + name)
            function.restype, function.argtypes = result, arguments
            if result is StringRef:
                function.errcheck = text
            setattr(self, name, function)
        self.store = self.store_create(str(path).encode(), None)

    def units(self):
        names = []
        self.store_units_apply_f(self.store, 0, None, self.NAMES(lambda _, name: names.append(text(name)) or True))
        return names

    def unit(self, name, wanted):
        """(main file, modification time, [(record, source file)]); the records only if `wanted(main file)`."""
        reader, records, seconds, nanos = self.unit_reader_create(self.store, name.encode(), None), [], \
            ctypes.c_int64(), ctypes.c_int64()
        self.unit_reader_get_modification_time(reader, ctypes.byref(seconds), ctypes.byref(nanos))
        main = self.unit_reader_get_main_file(reader)

        def dependency(_, d):
            if self.unit_dependency_get_kind(d) == DEPENDENCY_RECORD:
                records.append((self.unit_dependency_get_name(d), self.unit_dependency_get_filepath(d)))
            return True

        if wanted(main):
            self.unit_reader_dependencies_apply_f(reader, None, self.APPLY(dependency))
        self.unit_reader_dispose(reader)
        return main, seconds.value + nanos.value / 1e9, records

    def occurrences(self, record):
        """[(usr, name, kind, roles, line, column)] of one record."""
        reader, found, line, column = self.record_reader_create(self.store, record.encode(), None), [], \
            ctypes.c_uint(), ctypes.c_uint()

        def occurrence(_, o):
            symbol = self.occurrence_get_symbol(o)
            self.occurrence_get_line_col(o, ctypes.byref(line), ctypes.byref(column))
            found.append((self.symbol_get_usr(symbol), self.symbol_get_name(symbol), self.symbol_get_kind(symbol),
                          self.occurrence_get_roles(o), line.value, column.value))
            return True

        self.record_reader_occurrences_apply_f(reader, None, self.APPLY(occurrence))
        self.record_reader_dispose(reader)
        return found


def read_index(path):
    """Client source file (resolved path) -> (indexed time, occurrences), from the newest unit compiling it."""
    store, files, sources = IndexStore(path), {}, str(SOURCES.resolve()) + "/"
    if not store.store:
        return files
    for unit in store.units():
        main, when, records = store.unit(unit, lambda main: main and str(Path(main).resolve()).startswith(sources))
        main = str(Path(main).resolve()) if records else ""
        if main and when >= files.get(main, (0,))[0]:
            files[main] = (when, [o for record, source in records if str(Path(source).resolve()) == main
                                  for o in store.occurrences(record)])
    return files


def stale(path, indexed, occurrences):
    """Why the index no longer describes `path` (edited since, or during, the build), or None."""
    if path.stat().st_mtime > indexed:
        return "changed since it was indexed"
    raw = path.read_bytes().split(b"\n")
    for usr, name, kind, roles, line, column in occurrences:  # a definition sits on its name, unless lines moved
        base = name.split("(")[0]
        if roles & (ROLE_DEFINITION | ROLE_DECLARATION) and not roles & ROLE_IMPLICIT and kind != KIND_EXTENSION \
                and re.fullmatch(r"\w+", base) and base != "_":
            there = raw[line - 1][column - 1:] if line <= len(raw) else b""
            if not there.startswith((base.encode(), b"`")):
                return "line %d is not what was indexed (%s)" % (line, name)
    return None


def default_store():
    found = [s for s in STORES if (s / "v5/units").is_dir()]
    return max(found, key=lambda s: (s / "v5/units").stat().st_mtime) if found else None


def own_availability(files):
    """USR -> (name, {platform: version}) of the client's own guarded declarations (an @available type and its
    members): as available as the guards around their definitions."""
    own = {}
    for src, indexed in files.values():
        for usr, name, kind, roles, line, _ in indexed[1] if indexed else ():
            guards = {p: src.guarded(line, p) for p in PLATFORMS} if roles & ROLE_DEFINITION else {}
            guards = {p: g for p, g in guards.items() if g and g != NEVER}
            if guards:
                own[usr] = (name, guards)
    return own


def check_references(path, src, occurrences, table, floor):
    """(findings, references checked) for one file's index occurrences."""
    found, references = [], 0
    for usr, name, kind, roles, line, _ in occurrences:
        # Implicit references (a `for await`'s `next(isolation:)`) are what the compiler picked for Linux, where
        # nothing is unavailable; for an Apple target it picks what the floor allows.
        if roles & ROLE_REFERENCE and not roles & (ROLE_DEFINITION | ROLE_DECLARATION | ROLE_IMPLICIT):
            references += 1
            symbol, needs = table.get(usr, (name, {}))
            hit = src.violation(line, needs, floor)
            found += [finding(path, line, symbol, *hit, floor)] if hit else []
    return found, references


def check(store):
    floor, build = read_floor(CLIENT / "Package.swift"), store.parents[1]
    index = read_index(store)
    if not index:
        return fail("no unit in %s compiles a file of %s; build the client first" % (store, SOURCES))
    linux = linux_environment(build)
    table, notes = load_availability(build, linux)
    for note in notes:
        print("availability: note: %s" % note, file=sys.stderr)
    files = {p: (Source(p.read_text(), linux), index.get(str(p.resolve()))) for p in sorted(SOURCES.rglob("*.swift"))}
    symbols = {**own_availability(files), **table}
    findings, unchecked, references = [], [], 0
    for path, (src, indexed) in files.items():
        shown_path = path.relative_to(ROOT)
        problem = "not in the index" if indexed is None else stale(path, *indexed)
        if problem:  # line numbers would lie: the table scan covers the whole file instead
            unchecked.append("availability: %s: %s; rebuild, then run this again (its references were not checked)"
                             % (shown_path, problem))
        else:
            found, count = check_references(shown_path, src, indexed[1], symbols, floor)
            findings, references = findings + found, references + count
        findings += scan_names(shown_path, src, floor, every_line=bool(problem)) + scan_widths(shown_path, src)
    for line in list(dict.fromkeys(findings)) + unchecked:
        print(line)
    if findings or unchecked:
        return 1 if findings else 2
    floors = " / ".join("%s %s" % (p, shown(floor[p])) for p in PLATFORMS)
    print("availability: %d references in %d files checked against %d symbols with Apple availability; nothing "
          "above %s" % (references, len(files), len(table), floors))
    return 0


def fail(message):
    print("availability: %s" % message, file=sys.stderr)
    return 2


MUTEX_USR = "s:15Synchronization5MutexV"
SELF_TEST_SOURCE = """import Synchronization
let a = Mutex<Int>(0)
if #available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *) {
    let b = Mutex<Int>(0)
}
#if canImport(Darwin)
    let c = Mutex<Int>(0)  // Mutex, "Mutex"
#endif
let d = Int(UInt32.max)
let e = Int(clamping: UInt32.max)
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
struct Guarded {
    let f = Mutex<Int>(0)
}
@available(iOS 18, *)
func partly() { _ = Mutex<Int>(0) }
func later() {
    guard #available(iOS 18, macOS 15, tvOS 18, watchOS 11, visionOS 2, *) else { return }
    _ = Mutex<Int>(0)
}
"""


def self_test():
    """Proves the check can fail, on synthetic code through the same table, guard and scan functions as a run."""
    store = default_store()
    linux = linux_environment(store and store.parents[1])
    table, _ = load_availability(store and store.parents[1], linux)
    floor, src, mutex = read_floor(CLIENT / "Package.swift"), Source(SELF_TEST_SOURCE, linux), MUTEX_USR
    # The occurrences a build would index for the Mutex uses of SELF_TEST_SOURCE (struct, kind 6), and an implicit
    # one, the compiler's choice rather than the code's, which is not reported.
    uses = [(mutex, "Mutex", 6, ROLE_REFERENCE, line, 9) for line in (2, 4, 13, 16, 19)]
    uses.append((mutex, "Mutex", 6, ROLE_REFERENCE | ROLE_IMPLICIT, 2, 9))
    found, _ = check_references("t.swift", src, uses, table, floor)
    names, widths = scan_names("t.swift", src, floor), scan_widths("t.swift", src)
    checks = {
        "the graphs have Mutex as iOS 18": table.get(mutex, ("", {}))[1].get("iOS") == (18, 0),
        "unguarded and partly guarded uses reported, guarded ones not: %s" % found:
            found == ["t.swift:2: Mutex is iOS 18+, above the floor iOS 16",
                      "t.swift:16: Mutex is macOS 15+, above the floor macOS 13"],
        "Apple-only Mutex reported once: %s" % names: len(names) == 1 and names[0].startswith("t.swift:7: Mutex is"),
        "Int(UInt32.max) reported, clamping not: %s" % widths: len(widths) == 1 and widths[0].startswith("t.swift:9:"),
    }
    for what, ok in checks.items():
        print("self-test: %s: %s" % ("ok" if ok else "FAILED", what))
    return 0 if all(checks.values()) else 1


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--store", type=Path, help="index store (default: the client's or the root's, the newest)")
    parser.add_argument("--self-test", action="store_true", help="show on synthetic code that the check can fail")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    store = args.store or default_store()
    if not store or not (store / "v5/units").is_dir():
        return fail("no index store at %s; build the client first (`swift build` in Client)"
                    % (store or " or ".join(map(str, STORES))))
    return check(store.resolve())


if __name__ == "__main__":
    sys.exit(main())
