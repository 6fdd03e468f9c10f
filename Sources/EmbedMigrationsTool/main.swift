import Foundation

// Usage: EmbedMigrationsTool OUTPUT.swift MIGRATION.sql...
// Writes the migrations as a Swift array literal, in file-name order, so the binary needs no sql/ folder at run time.
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first else {
    FileHandle.standardError.write(Data("usage: EmbedMigrationsTool OUTPUT.swift MIGRATION.sql...\n".utf8))
    exit(2)
}
var source = "// Generated at build time from sql/*.sql by the EmbedMigrations plugin. Do not edit.\n"
source += "let embeddedMigrations: [(file: String, sql: String)] = [\n"
for path in arguments.dropFirst().sorted(by: { ($0 as NSString).lastPathComponent < ($1 as NSString).lastPathComponent }) {
    let sql = try String(contentsOfFile: path, encoding: .utf8)
    // A raw string whose delimiter cannot occur in the SQL.
    var hashes = "#"
    while sql.contains("\"" + hashes) { hashes += "#" }
    let name = (path as NSString).lastPathComponent
    guard name.wholeMatch(of: /[0-9]{4}_[a-z0-9_]+\.sql/) != nil else {
        FileHandle.standardError.write(Data("\(path): migrations are named NNNN_name.sql\n".utf8))
        exit(1)
    }
    source += "    (file: \"\(name)\", sql: \(hashes)\"\"\"\n\(sql)\n\"\"\"\(hashes)),\n"
}
source += "]\n"
try source.write(toFile: output, atomically: true, encoding: .utf8)
