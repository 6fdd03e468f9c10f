import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Prometheus
import Testing

@Suite("openapi.yaml")
struct OpenAPITests {
    /// "METHOD /path" for every operation under `paths:` (two-space paths, four-space methods).
    static func documentedOperations() throws -> Set<String> {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appending(path: "openapi.yaml")
        var operations = Set<String>()
        var path: String?
        var inPaths = false
        for line in try String(contentsOf: url, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        {
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

    @Test("A manifest leaves out a missing size and cover, which generators cannot type as null, and keeps other nulls")
    func absentNotNull() throws {
        // Setup
        let group = ManifestGroup(
            id: "g", name: "G", sizeClass: .medium, flags: [], position: 0, locked: false, productId: nil,
            cover: nil, stickers: [])
        let manifest = Manifest(
            revision: 1, cursor: "c", filter: nil, flags: [], size: nil, scale: 1, format: nil, locale: nil,
            groups: [group])
        // Action
        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder.catalog.encode(manifest)) as? [String: Any])
        // Check: openapi.yaml leaves these two out of `required`; swift-openapi-generator drops an object-or-null key.
        let first = try #require((json["groups"] as? [[String: Any]])?.first)
        #expect(json.keys.contains("size") == false && first.keys.contains("cover") == false)
        #expect(json["filter"] is NSNull && first["productId"] is NSNull)
    }

    @Test("No two operations share an operationId: OpenAPI requires it, and generators name methods by it")
    func uniqueOperationIds() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appending(path: "openapi.yaml")
        let ids = try String(contentsOf: url, encoding: .utf8).matches(of: /\n +operationId: *([A-Za-z0-9_]+)/)
            .map { String($0.1) }
        #expect(ids.count > 50)
        #expect(Dictionary(grouping: ids, by: { $0 }).filter { $1.count > 1 }.keys.sorted() == [])
    }

    @Test("Every route the router serves is documented, and every documented route is served")
    func routesMatch() throws {
        var options = ServiceOptions()
        options.demo = true  // the demo chat's routes are served with --demo only
        let router = Offline.router(options: options, methodNotAllowed: false)
        var served = Set(
            router.routes.map { "\($0.method.rawValue) \($0.path.description.hasPrefix("/") ? "" : "/")\($0.path)" })
        // The router answers HEAD wherever it answers GET.
        for route in served where route.hasPrefix("GET ") { served.insert("HEAD " + route.dropFirst(4)) }
        // OPTIONS is among the routes `answerMethodNotAllowed` adds: `optionsWhereDocumented` checks it.
        let documented = try Self.documentedOperations().filter { !$0.hasPrefix("OPTIONS ") }
        #expect(served.count >= 18)
        #expect(served.subtracting(documented).sorted() == [], "served but not documented")
        #expect(documented.subtracting(served).sorted() == [], "documented but not served")
    }

    @Test("OPTIONS answers 204 on exactly the documented paths, and 405 or 401 on every other")
    func optionsWhereDocumented() async throws {
        let documented = try Self.documentedOperations()
        let paths = Set(documented.map { String($0.split(separator: " ")[1]) })
        let withOptions = Set(documented.filter { $0.hasPrefix("OPTIONS ") }.map { String($0.dropFirst(8)) })
        #expect(withOptions.count >= 10)
        var options = ServiceOptions()
        options.demo = true
        options.server.corsOrigins = ["https://chat.example.com"]
        try await Offline.app(options: options).test(.router) { client in
            for path in paths {
                let uri = path.replacing("{sha256}", with: String(repeating: "ab", count: 32))
                    .replacing(/\{[A-Za-z]+\}/, with: "x")
                let answer = try await client.execute(uri: uri, method: .options)
                if withOptions.contains(path) {
                    #expect(answer.status == .noContent, "\(path)")
                } else {
                    #expect([.methodNotAllowed, .unauthorized].contains(answer.status), "\(path): \(answer.status)")
                }
            }
        }
    }
}
