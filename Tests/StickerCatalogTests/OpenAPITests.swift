import Foundation
import Logging
import PostgresNIO
import Prometheus
import Testing
@testable import StickerCatalog

@Suite("openapi.yaml")
struct OpenAPITests {
    /// "METHOD /path" for every operation under `paths:` (two-space paths, four-space methods).
    static func documentedOperations() throws -> Set<String> {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "openapi.yaml")
        var operations = Set<String>()
        var path: String?
        var inPaths = false
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" "), !line.isEmpty { inPaths = line == "paths:" }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                path = String(line.dropFirst(2).dropLast())
            } else if let path, let method = line.firstMatch(of: /^    (get|put|post|patch|delete|head|options):$/)?.1 {
                operations.insert("\(method.uppercased()) \(path)")
            }
        }
        return operations
    }

    @Test("Every route the router serves is documented, and every documented route is served")
    func routesMatch() throws {
        let router = offlineRouter(methodNotAllowed: false)
        var served = Set(router.routes.map { "\($0.method.rawValue) \($0.path.description.hasPrefix("/") ? "" : "/")\($0.path)" })
        // The router answers HEAD wherever it answers GET.
        for route in served where route.hasPrefix("GET ") { served.insert("HEAD " + route.dropFirst(4)) }
        let documented = try Self.documentedOperations()
        #expect(served.count >= 18)
        #expect(served.subtracting(documented).sorted() == [], "served but not documented")
        #expect(documented.subtracting(served).sorted() == [], "documented but not served")
    }
}
