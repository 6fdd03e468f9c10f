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
import TestSupport
import Testing

/// `Idempotency-Key` on admin writes: a retry after a lost acknowledgement answers the first result and writes nothing.
@Suite struct IdempotencyTests {
    static func headers(_ key: String, _ base: HTTPFields = Body.pngHeaders) -> HTTPFields {
        var headers = base
        headers[HTTPField.Name("Idempotency-Key")!] = key
        return headers
    }

    @Test func aRetriedUploadAnswersTheFirstResultAndStoresOneSticker() async throws {
        try await withApp(demo: true) { client, db in
            let uri = "/v1/admin/groups/chewy/stickers?name=Again&description=Uploaded%20twice"
            let before = try await db.count("SELECT count(*) FROM stickers")
            // Action: the upload, then its retry (the client never saw the 201), then the key with another body.
            let first = try await client.execute(
                uri: uri, method: .post, headers: Self.headers("upload-1"),
                body: ByteBuffer(bytes: Samples.opaqueSticker))
            let retry = try await client.execute(
                uri: uri, method: .post, headers: Self.headers("upload-1"),
                body: ByteBuffer(bytes: Samples.opaqueSticker))
            let other = try await client.execute(
                uri: uri, method: .post, headers: Self.headers("upload-1"), body: ByteBuffer(bytes: Samples.sticker))
            // Check
            #expect(first.status == .created && retry.status == .created)
            #expect(
                Array(buffer: retry.body) == Array(buffer: first.body)
                    && retry.headers[.location] == first.headers[.location])
            #expect(
                retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true"
                    && first.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            #expect(other.status == .unprocessableContent && other.problemCode == "idempotency_key_reused")
            #expect(try await db.count("SELECT count(*) FROM stickers") == before + 1)
        }
    }

    @Test func aFailedWriteFreesItsKeyAndBadKeysAreRefused() async throws {
        try await withApp(demo: true) { client, db in
            let json: HTTPFields = [.authorization: "Bearer \(adminToken)", .contentType: "application/json"]
            // A refused write (an invalid id) keeps nothing: the same key then runs the corrected request.
            let refused = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: Self.headers("group-1", json),
                body: ByteBuffer(string: #"{"id":"Not A Slug","name":"Sour"}"#))
            let created = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: Self.headers("group-1", json),
                body: ByteBuffer(string: #"{"id":"sour","name":"Sour"}"#))
            let replayed = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: Self.headers("group-1", json),
                body: ByteBuffer(string: #"{"id":"sour","name":"Sour"}"#))
            #expect(
                refused.status == .unprocessableContent && created.status == .created && replayed.status == .created)
            #expect(try await db.count("SELECT count(*) FROM sticker_groups WHERE id = 'sour'") == 1)
            // Keys must be visible ASCII, 255 at most.
            for key in ["", String(repeating: "k", count: 256), "with space"] {
                let response = try await client.execute(
                    uri: "/v1/admin/groups", method: .post, headers: Self.headers(key, json),
                    body: Body.json(["id": "bitter", "name": "Bitter"]))
                #expect(response.status == .badRequest && response.problemCode == "invalid_idempotency_key", "\(key)")
            }
        }
    }

    @Test func aKeyedUploadPastTheBoundIsRefusedBeforeItsBodyIsRead() async throws {
        try await withApp(
            demo: true, live: true,
            options: {
                $0.limits.concurrentUploads = 1
                $0.server.bodyTimeout = .seconds(10)
            }
        ) { client, _ in
            // Setup: an upload holding the only slot, waiting with 10 of its 1,000 bytes sent (as in
            // HTTPBehaviourTests).
            let port = try #require(client.port)
            let head =
                "POST /v1/admin/groups/chewy/stickers?name=A&description=d HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(adminToken)\r\n"
                + "Content-Type: image/png\r\nContent-Length: 1000\r\n"
            let holder = try RawSocket(port: port)
            holder.send(Array((head + "\r\n").utf8) + Array(Samples.sticker.prefix(10)))
            let held = try await eventually {
                ObservabilityTests.value(try await ObservabilityTests.metrics(client), "uploads_in_progress") ?? 0
            } until: {
                $0 >= 1
            }
            #expect(held == 1)
            // Action: a keyed upload that sends its head and 10 bytes, then waits like the holder.
            let keyed = try RawSocket(port: port)
            keyed.send(Array((head + "Idempotency-Key: bound-1\r\n\r\n").utf8) + Array(Samples.sticker.prefix(10)))
            let answer = try await keyed.read { $0.contains("\r\n\r\n{") && $0.hasSuffix("}") }.text
            // Check: refused without waiting for the body it never sent (waiting, it would get nothing: `read` throws
            // after 30 s of silence).
            #expect(answer.hasPrefix("HTTP/1.1 503") && answer.contains("too_many_uploads"), "\(answer.prefix(80))")
        }
    }
}
