import CatalogApp
import CatalogCore
import CatalogHTTP
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

/// The manifest routes over a snapshot in memory, with no database: validators and 304s, the `Viewer` each request
/// makes from its headers, and the hot path answering byte for byte what the router answers.
@Suite struct ManifestRouteTests {
    static let countryHeader = HTTPField.Name("CloudFront-Viewer-Country")!

    /// g0 to g3, g2 for the US only.
    static let snapshot: CatalogSnapshot = {
        let base = SampleCatalog.snapshot(revision: 3, groups: 4, perGroup: 2)
        var groups = base.groups
        (groups[2].audience, groups[2].audienceSalt) = (Audience(countries: ["US"]), "salt")
        return CatalogSnapshot(revision: 3, groups: groups, stickers: base.stickers, filters: base.filters)
    }()

    static var ports: CatalogPorts {
        var ports = CatalogPorts.unimplemented
        ports.reader = SnapshotReader(snapshot)
        return ports
    }

    static var options: ServiceOptions {
        var options = ServiceOptions()
        options.server.countryHeader = countryHeader.rawName
        options.access.assetSigningKey = Array(repeating: 9, count: 32)
        return options
    }

    static func groups(_ response: TestResponse) throws -> [(id: String, position: Int)] {
        let json = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]
        let groups = try #require(json?["groups"] as? [[String: Any]])
        return groups.map { ($0["id"] as? String ?? "", $0["position"] as? Int ?? -1) }
    }

    @Test func anETagIsAnsweredWith304AndTheCatalogIsReadOnce() async throws {
        let ports = Self.ports
        let reader = try #require(ports.reader as? SnapshotReader)
        try await Offline.app(ports: ports, options: Self.options).test(.router) { client in
            let first = try await client.execute(uri: "/v1/manifest?scale=2", method: .get)
            #expect(first.status == .ok)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.execute(
                uri: "/v1/manifest?scale=2", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let other = try await client.execute(
                uri: "/v1/manifest?scale=3", method: .get, headers: [.ifNoneMatch: etag])
            #expect(other.status == .ok && other.headers[.eTag] != etag)
            #expect(reader.reads == 1)
        }
    }

    @Test func eachRequestsViewerComesFromItsFactsHeaders() async throws {
        try await Offline.app(ports: Self.ports, options: Self.options).test(.router) { client in
            let inside = try await client.execute(
                uri: "/v1/manifest", method: .get, headers: [Self.countryHeader: "US"])
            let outside = try await client.execute(
                uri: "/v1/manifest", method: .get, headers: [Self.countryHeader: "FR"])
            let nobody = try await client.execute(uri: "/v1/manifest", method: .get)
            #expect(try Self.groups(inside).map(\.id) == ["g0", "g1", "g2", "g3"])
            #expect(try Self.groups(outside).map(\.id) == ["g0", "g1", "g3"])
            #expect(try Self.groups(outside).map(\.position) == [0, 1, 2])
            #expect(outside.headers[.eTag] == nobody.headers[.eTag] && inside.headers[.eTag] != nobody.headers[.eTag])
            let hidden = try await client.execute(
                uri: "/v1/groups/g2", method: .get, headers: [Self.countryHeader: "FR"])
            #expect(hidden.status == .notFound)
            let shown = try await client.execute(
                uri: "/v1/groups/g2", method: .get, headers: [Self.countryHeader: "US"])
            #expect(shown.status == .ok)
        }
    }

    @Test(arguments: ["/v1/manifest", "/v1/manifest?scale=2&format=webp", "/v1/manifest?locale=fr"])
    func theHotPathAnswersWhatTheRouterAnswers(_ uri: String) async throws {
        let headers: HTTPFields = [.acceptEncoding: "gzip", Self.countryHeader: "US"]
        let hot = try await Offline.app(ports: Self.ports, options: Self.options).test(.router) { client in
            try await client.execute(uri: uri, method: .get, headers: headers)
        }
        let router = Offline.router(ports: Self.ports, options: Self.options)
        let routed = try await Application(router: router).test(.router) { client in
            try await client.execute(uri: uri, method: .get, headers: headers)
        }
        #expect(hot.status == .ok && hot.status == routed.status)
        #expect(hot.body == routed.body && hot.body.readableBytes > 0)
        for name in [HTTPField.Name.eTag, .contentType, .contentEncoding, .cacheControl, .vary] {
            #expect(hot.headers[name] == routed.headers[name], "\(name)")
        }
    }

    /// The hot path asks the user token before the stated facts, as the router's middleware do: a token that does not
    /// verify beside a malformed fact is a 401 on both.
    @Test func theHotPathChecksTheTokenBeforeTheFactsAsTheRouterDoes() async throws {
        let headers: HTTPFields = [.authorization: "Bearer not.a.jwt", HTTPField.Name("Sticker-Platform")!: "iOS 17"]
        let hot = try await Offline.app(ports: Self.ports, options: Self.options).test(.router) { client in
            try await client.execute(uri: "/v1/manifest", method: .get, headers: headers)
        }
        let router = Offline.router(ports: Self.ports, options: Self.options)
        let routed = try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/v1/manifest", method: .get, headers: headers)
        }
        #expect(hot.status == .unauthorized && routed.status == .unauthorized)
        #expect(hot.json["code"] as? String == "invalid_token" && routed.json["code"] as? String == "invalid_token")
    }

    /// `X-Request-Id` is made from the id Hummingbird gave the request, scrambled, and is the one its problem (and every
    /// log line) quotes; `RequestIdentity` writes it without `context.id` (were Hummingbird's `RequestID` to change,
    /// this says so).
    @Test func theRequestIdIsTheOneTheProblemAndTheLogQuote() async throws {
        #expect(RequestIdentity.readsTheNumber, "RequestIdentity falls back to context.id: RequestID changed")
        try await Offline.app(ports: Self.ports, options: Self.options).test(.router) { client in
            var seen = Set<String>()
            for _ in 0..<50 {
                let refused = try await client.execute(uri: "/v1/manifest?scale=9", method: .get)
                let id = try #require(refused.headers[.requestID])
                #expect(refused.json["requestId"] as? String == id)
                seen.insert(id)
            }
            #expect(seen.count == 50)
            // Unpredictable: Hummingbird numbers requests one by one; the ids sent are spread over the 64-bit range.
            let numbers = seen.compactMap { UInt64($0.suffix(16), radix: 16) }
            #expect(numbers.count == 50 && numbers.max()! - numbers.min()! > 1 << 40, "\(seen.sorted())")
        }
    }
}
