import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Forged cursors are cheap to refuse: one the service did not sign (made up, altered, signed with another key) is a
/// 410 before anything is read, while replicas sharing the asset signing key accept each other's cursors.
@Suite struct ForgedCursorTests {
    static let key = Array("forged-cursor-tests-asset-signing-key-0123".utf8)

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(
            of: "/", with: "_"
        )
        .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of a cursor: its JSON, then its tag (the last 16).
    static func bytes(_ cursor: String) throws -> [UInt8] {
        let base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return Array(
            try #require(Data(base64Encoded: base64 + String(repeating: "=", count: (4 - base64.count % 4) % 4))))
    }

    @Test func aCursorTheServiceDidNotSignIsRefusedBeforeAnythingIsRead() async throws {
        // Setup: a replica whose database does not exist, so any read would be a 503.
        var options = ServiceOptions()
        options.access.assetSigningKey = Self.key
        let cursor = ChangeCursor(since: 0, stamp: 0, view: "0", products: [])
        let json = Array(#"{"products":[],"since":0,"view":"0"}"#.utf8)
        let signed = cursor.encoded(with: CursorKey(signer: AssetSigner(key: Self.key, lifetime: 60)))
        let sealed = try Self.bytes(signed)
        let forged = [
            "unsigned": Self.base64URL(json),
            "tampered": Self.base64URL(Array(#"{"products":[],"since":9,"view":"0"}"#.utf8) + sealed.suffix(16)),
            "another key": cursor.encoded(
                with: CursorKey(signer: AssetSigner(key: Array(repeating: 1, count: 32), lifetime: 60))),
            "no key": cursor.encoded(with: CursorKey(signer: nil)),
            "tag cut short": String(signed.dropLast(4)),
        ]
        try await Application(router: offlineRouter(options: options, ports: .down)).test(.router) { client in
            for (name, text) in forged {
                // Action
                let changes = try await client.execute(uri: "/v1/manifest/changes?since=\(text)", method: .get)
                let events = try await client.execute(uri: "/v1/events?since=\(text)", method: .get)
                let resumed = try await client.execute(
                    uri: "/v1/events", method: .get, headers: [HTTPField.Name("Last-Event-ID")!: text])
                // Check
                for response in [changes, events, resumed] {
                    #expect(response.status == .gone && response.problemCode == "cursor_expired", "\(name)")
                }
            }
            // The replica's own cursor gets past the signature, to the database it cannot reach.
            #expect(
                try await client.execute(uri: "/v1/manifest/changes?since=\(signed)", method: .get).status
                    == .serviceUnavailable)
        }
    }

    @Test func replicasSharingTheSigningKeyAcceptEachOthersCursorsAndATamperedOneIsRefused() async throws {
        try await withReplicas(options: { $0.access.assetSigningKey = Self.key }) { first, second in
            // Setup
            let manifest = try await ChangeFeedTests.manifest(first)
            let cursor = try ChangeCursor(
                encoded: manifest.cursor, key: CursorKey(signer: AssetSigner(key: Self.key, lifetime: 60)))
            var older = cursor
            older.since -= 1
            let sealed = try Self.bytes(manifest.cursor)
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            let tampered = Self.base64URL(Array(try encoder.encode(older)) + sealed.suffix(16))
            // Action
            let across = try await ChangeFeedTests.changes(second, since: manifest.cursor)
            let refused = try await ChangeFeedTests.changes(first, since: tampered)
            // Check: without the signature the older revision would have been a page of changes.
            #expect(across.status == .notModified)
            #expect(refused.status == .gone && refused.problemCode == "cursor_expired")
        }
        try await withReplicas { first, second in
            // Each replica with a random key of its own: the other's cursors send the client back to the manifest.
            let manifest = try await ChangeFeedTests.manifest(first)
            let across = try await ChangeFeedTests.changes(second, since: manifest.cursor)
            #expect(across.status == .gone && across.problemCode == "cursor_expired")
        }
    }
}
