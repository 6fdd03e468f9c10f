import CatalogApp
import CatalogCore
import CatalogHTTP
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// CORS (`--cors-origin`) over a catalog in memory: a page on an allowed origin may call the client routes and read
/// their validators, any other origin may not, the admin API answers none, and images answer every origin alike.
@Suite struct CrossOriginTests {
    static let page = "https://chat.example.com"

    static func options(origins: [String]) -> ServiceOptions {
        var options = ManifestRouteTests.options
        options.server.corsOrigins = origins
        return options
    }

    @Test func anAllowedOriginReadsTheManifestAndItsETag() async throws {
        try await Offline.app(ports: ManifestRouteTests.ports, options: Self.options(origins: [Self.page]))
            .test(.router) { client in
                let answer = try await client.execute(
                    uri: "/v1/manifest", method: .get, headers: [.origin: Self.page])
                #expect(answer.status == .ok)
                #expect(answer.headers[.accessControlAllowOrigin] == Self.page)
                #expect(answer.headers[.accessControlExposeHeaders]?.contains("ETag") == true)
                #expect(answer.headers[values: .vary].contains { $0.contains("Origin") })
                #expect(answer.headers[.accessControlAllowCredentials] == nil)
                // Another origin gets the same bytes, without the header that lets its page read them.
                let other = try await client.execute(
                    uri: "/v1/manifest", method: .get, headers: [.origin: "https://evil.example"])
                #expect(other.status == .ok && other.headers[.accessControlAllowOrigin] == nil)
                #expect(other.headers[values: .vary].contains { $0.contains("Origin") })
            }
    }

    @Test func aPreflightFromAnAllowedOriginSaysWhatThePageMaySend() async throws {
        try await Offline.app(ports: ManifestRouteTests.ports, options: Self.options(origins: [Self.page]))
            .test(.router) { client in
                let preflight: HTTPFields = [
                    .origin: Self.page, .accessControlRequestMethod: "GET",
                    .accessControlRequestHeaders: "authorization, if-none-match",
                ]
                let answer = try await client.execute(uri: "/v1/manifest", method: .options, headers: preflight)
                #expect(answer.status == .noContent)
                #expect(answer.headers[.accessControlAllowOrigin] == Self.page)
                let methods = answer.headers[.accessControlAllowMethods] ?? ""
                #expect(methods.contains("GET") && !methods.contains("OPTIONS"))
                let headers = answer.headers[.accessControlAllowHeaders] ?? ""
                #expect(
                    ["Authorization", "If-None-Match", "Sticker-Platform", "Idempotency-Key"].allSatisfy(
                        headers.contains))
                #expect(answer.headers[.allow]?.contains("GET") == true)
                // The usage route takes POST.
                let usage = try await client.execute(uri: "/v1/usage", method: .options, headers: preflight)
                #expect(usage.headers[.accessControlAllowMethods]?.contains("POST") == true)
                // Another origin's preflight gets no permission, and learns nothing of who has one.
                var foreign = preflight
                foreign[.origin] = "https://chat.example.com.evil.example"
                let refused = try await client.execute(uri: "/v1/manifest", method: .options, headers: foreign)
                #expect(refused.status == .noContent && refused.headers[.accessControlAllowOrigin] == nil)
                #expect(refused.headers[.accessControlAllowHeaders] == nil)
                // An unknown path is still a 404.
                let unknown = try await client.execute(uri: "/v1/nothing", method: .options, headers: preflight)
                #expect(unknown.status == .notFound)
            }
    }

    @Test func theAdminAPINeverAnswersAnotherOrigin() async throws {
        try await Offline.app(ports: ManifestRouteTests.ports, options: Self.options(origins: [Self.page]))
            .test(.router) { client in
                let preflight: HTTPFields = [
                    .origin: Self.page, .accessControlRequestMethod: "POST",
                    .accessControlRequestHeaders: "authorization",
                ]
                for uri in ["/v1/admin/groups", "/admin", "/metrics", "/v1/webhooks/revenuecat"] {
                    let answer = try await client.execute(uri: uri, method: .options, headers: preflight)
                    #expect(answer.status != .noContent, "\(uri)")
                    #expect(answer.headers[.accessControlAllowOrigin] == nil, "\(uri)")
                    let get = try await client.execute(uri: uri, method: .get, headers: [.origin: Self.page])
                    #expect(get.headers[.accessControlAllowOrigin] == nil, "\(uri)")
                }
            }
    }

    @Test func imagesAnswerEveryOriginAlikeSoACDNKeepsOneCopy() async throws {
        try await Offline.app(ports: ManifestRouteTests.ports, options: Self.options(origins: [Self.page]))
            .test(.router) { client in
                for origin in [Self.page, "https://other.example"] {
                    // A refusal too: what the path is, not what it holds, decides.
                    let answer = try await client.execute(
                        uri: "/v1/assets/not-a-digest.png", method: .get, headers: [.origin: origin])
                    #expect(answer.headers[.accessControlAllowOrigin] == "*")
                    #expect(!answer.headers[values: .vary].contains { $0.contains("Origin") })
                }
            }
    }

    @Test func withoutAnOriginGivenNothingChanges() async throws {
        try await Offline.app(ports: ManifestRouteTests.ports, options: Self.options(origins: [])).test(.router) {
            client in
            let answer = try await client.execute(uri: "/v1/manifest", method: .get, headers: [.origin: Self.page])
            #expect(answer.status == .ok && answer.headers[.accessControlAllowOrigin] == nil)
            #expect(!answer.headers[values: .vary].contains { $0.contains("Origin") })
            let preflight = try await client.execute(
                uri: "/v1/manifest", method: .options,
                headers: [.origin: Self.page, .accessControlRequestMethod: "GET"])
            #expect(preflight.status == .noContent && preflight.headers[.accessControlAllowOrigin] == nil)
        }
    }

    @Test(arguments: [
        ("https://chat.example.com", true), ("http://localhost:3000", true), ("HTTPS://Chat.Example.com", true),
        ("*", false), ("null", false), ("https://chat.example.com/", false), ("https://a.example/path", false),
        ("ftp://a.example", false), ("https://user@a.example", false), ("https://", false),
    ])
    func originsAreExact(origin: String, accepted: Bool) {
        #expect((CrossOrigin.normalized(origin) != nil) == accepted)
    }
}
