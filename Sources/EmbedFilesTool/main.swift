import Foundation

// Usage: EmbedFilesTool migrations OUTPUT.swift MIGRATION.sql...
//        EmbedFilesTool console|web|demo ROOT OUTPUT.swift FILE...
// Writes text files as a Swift array literal, sorted by name, so the binary needs no sql/ or console/ folder at run
// time.
var arguments = Array(CommandLine.arguments.dropFirst())

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(2)
}

/// `text` as a raw string literal whose delimiter cannot occur in it.
func literal(_ text: String) -> String {
    var hashes = "#"
    while text.contains("\"" + hashes) { hashes += "#" }
    return "\(hashes)\"\"\"\n\(text)\n\"\"\"\(hashes)"
}

guard arguments.count >= 2 else {
    fail("usage: EmbedFilesTool migrations OUTPUT.swift FILE... | console ROOT OUTPUT.swift FILE...")
}
let kind = arguments.removeFirst()
var source = "// Generated at build time by the EmbedFiles plugin. Do not edit.\n"
switch kind {
case "migrations":
    let output = arguments.removeFirst()
    source += "let embeddedMigrations: [(file: String, sql: String)] = [\n"
    for path in arguments.sorted(by: { ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent }) {
        let name = (path as NSString).lastPathComponent
        guard name.wholeMatch(of: /[0-9]{4}_[a-z0-9_]+\.sql/) != nil else {
            fail("\(path): migrations are named NNNN_name.sql")
        }
        source += "    (file: \"\(name)\", sql: \(literal(try String(contentsOfFile: path, encoding: .utf8)))),\n"
    }
    source += "]\n"
    try source.write(toFile: output, atomically: true, encoding: .utf8)
case "console", "web", "demo":
    guard arguments.count >= 2 else { fail("usage: EmbedFilesTool \(kind) ROOT OUTPUT.swift FILE...") }
    let root = arguments.removeFirst()
    let output = arguments.removeFirst()
    source += "let embedded\(kind.prefix(1).uppercased() + kind.dropFirst())Files: [(path: String, text: String)] = [\n"
    for path in arguments.sorted() {
        guard path.hasPrefix(root + "/") else { fail("\(path) is not under \(root)") }
        let name = String(path.dropFirst(root.count + 1))
        // Names become URL paths under /admin/, /web/ or /demo/: keep them to one plain segment.
        guard name.wholeMatch(of: /[a-z0-9][a-z0-9-]*\.(html|css|js|svg|d\.ts)/) != nil else {
            fail("\(path): \(kind) files are named like app.js")
        }
        source += "    (path: \"\(name)\", text: \(literal(try String(contentsOfFile: path, encoding: .utf8)))),\n"
    }
    source += "]\n"
    try source.write(toFile: output, atomically: true, encoding: .utf8)
default:
    fail("unknown kind \(kind): migrations, console, web or demo")
}
