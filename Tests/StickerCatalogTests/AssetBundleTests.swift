import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /v1/assets/bundle`: the images asked for, framed in order, by the rules of one image's route.
@Suite struct AssetBundleTests {
    /// The frames of an answer: each status and bytes.
    static func frames(_ body: ByteBuffer) -> [(status: UInt8, bytes: [UInt8])]? {
        var body = body
        var frames: [(UInt8, [UInt8])] = []
        while body.readableBytes > 0 {
            guard let status = body.readInteger(as: UInt8.self),
                let length = body.readInteger(endianness: .big, as: UInt32.self),
                let bytes = body.readBytes(length: Int(length))
            else { return nil }
            frames.append((status, bytes))
        }
        return frames
    }

    static func post(_ client: some TestClientProtocol, _ assets: [[String: String]]) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/assets/bundle", method: .post, headers: [.contentType: "application/json"],
            body: Body.json(["assets": assets]))
    }

    @Test("Bundles in flight are bounded per client address (429) and per replica (503), each place given back")
    func bundlesInFlightAreBounded() async throws {
        let asked = [["sha256": String(repeating: "0", count: 64)]]
        // One at a time from an address: sequential bundles each get the place the one before gave back.
        try await withApp(demo: true, options: { $0.limits.bundlesPerAddress = 1 }) { client, _ in
            for _ in 0..<20 {
                let answer = try await Self.post(client, asked)
                #expect(answer.status == .ok)
            }
        }
        // No place at all: the address's share, then the replica's, refuse with Retry-After and read nothing.
        for (perAddress, total, status, code) in [
            (0, 32, HTTPResponse.Status.tooManyRequests, "too_many_address_bundles"),
            (8, 0, .serviceUnavailable, "too_many_bundles"),
        ] {
            try await withApp(
                demo: true, options: { ($0.limits.bundlesPerAddress, $0.limits.bundlesInFlight) = (perAddress, total) }
            ) { client, _ in
                let refused = try await Self.post(client, asked)
                #expect(refused.status == status && refused.problemCode == code)
                #expect(refused.headers[.retryAfter] != nil)
            }
        }
    }

    @Test func imagesComeFramedInTheOrderAskedWithTheRulesOfOneImage() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            // Setup: Chewy premium, hana entitled; her manifest's links, free and signed.
            try await PremiumManifestTests.premiumChewy(client)
            _ = try await PremiumManifestTests.grant(client, "hana")
            let manifest = try await client.execute(
                uri: "/v1/manifest", method: .get, headers: try await Purchasing.user("hana"))
            let links = ((manifest.json["groups"] as? [[String: Any]]) ?? []).flatMap {
                ($0["stickers"] as? [[String: Any]]) ?? []
            }
            .compactMap { ($0["asset"] as? [String: Any])?["url"] as? String }
            // The last: the first of a group is its cover too, which stays public.
            let signed = try #require(links.last { $0.contains("sig=") })
            let free = try #require(links.first { !$0.contains("sig=") })
            func item(_ url: String) -> [String: String] {
                let components = URLComponents(string: url)
                var item = ["sha256": String(url.dropFirst("/v1/assets/".count).prefix(64))]
                for query in components?.queryItems ?? [] { item[query.name] = query.value }
                return item
            }
            let unsigned = ["sha256": item(signed)["sha256"]!]
            let forged = item(signed).merging(["sig": "AAAA"]) { $1 }
            let unknown = ["sha256": String(repeating: "0", count: 64)]
            let forgedUnknown = unknown.merging(["sig": "AAAA", "exp": forged["exp"] ?? "1"]) { $1 }
            // Action
            let answer = try await Self.post(
                client, [item(free), item(signed), unsigned, forged, unknown, item(free), forgedUnknown])
            // Check: 200 of our media type, one frame per image in order; each image's bytes are the single route's.
            #expect(
                answer.status == .ok && answer.headers[.contentType] == AssetBundle.mediaType
                    && answer.headers[.cacheControl] == "no-store")
            let frames = try #require(Self.frames(answer.body))
            // A hidden image unsigned is an unknown digest (1), and a forged signature is judged alike for both (4).
            #expect(frames.map(\.status) == [0, 0, 1, 4, 1, 0, 4])
            for (index, url) in [(0, free), (1, signed)] {
                let single = try await client.execute(uri: url, method: .get)
                #expect(frames[index].bytes == Array(buffer: single.body))
                #expect(
                    SHA256.hash(data: frames[index].bytes).map { String(format: "%02x", $0) }.joined()
                        == item(url)["sha256"])
            }
            #expect(frames[2].bytes.isEmpty && frames[4].bytes.isEmpty)
        }
    }

    @Test func badRequestsAre4xxProblems() async throws {
        try await withApp(demo: true) { client, _ in
            let digest = String(repeating: "a", count: 64)
            for (assets, field) in [
                ([[String: String]](), "assets"), (Array(repeating: ["sha256": digest], count: 257), "assets"),
                ([["sha256": "../etc/passwd"]], "assets.sha256"), ([["sha256": digest, "exp": "-1"]], "assets.exp"),
                ([["sha256": digest, "sig": "a b"]], "assets.sig"),
            ] {
                let answer = try await Self.post(client, assets)
                #expect(answer.status == .unprocessableContent && answer.problemCode == "validation_failed", "\(field)")
                #expect((answer.json["errors"] as? [[String: Any]])?.first?["field"] as? String == field)
            }
            // Null is not a string (schemathesis found it accepted).
            let null = try await client.execute(
                uri: "/v1/assets/bundle", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"assets": [{"sha256": "\#(digest)", "sig": null}]}"#))
            #expect(null.status == .badRequest && null.problemCode == "invalid_body")
            let garbage = try await client.execute(
                uri: "/v1/assets/bundle", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{\"assets\": 7"))
            #expect(garbage.status == .badRequest && garbage.problemCode == "invalid_body")
            let huge = try await client.execute(
                uri: "/v1/assets/bundle", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{\"assets\": [\"" + String(repeating: "a", count: 100_000) + "\"]}"))
            #expect(huge.status == .contentTooLarge)
            let get = try await client.execute(uri: "/v1/assets/bundle", method: .get)
            // OPTIONS too: a web page's preflight (CrossOrigin).
            #expect(get.status == .methodNotAllowed && get.headers[.allow] == "POST, OPTIONS")
        }
    }
}
