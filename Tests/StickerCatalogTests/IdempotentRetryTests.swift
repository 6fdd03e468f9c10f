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

/// Retries as they really come: from curl (a new multipart boundary each time), from tokens that share a name, after
/// a failure between the write and its answer, at the same moment, and past the upload bound.
@Suite struct IdempotentRetryTests {
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    /// A sticker upload as curl -F sends it: `boundary` is drawn anew for every attempt.
    static func form(_ boundary: String, name: String) -> (HTTPFields, ByteBuffer) {
        var body = ByteBuffer()
        for (field, value) in [("name", name), ("description", "Sent by curl")] {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"\r\n\r\n\(value)\r\n")
        }
        body.writeString(
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"s.png\"\r\nContent-Type: image/png\r\n\r\n"
        )
        body.writeBytes(Samples.opaqueSticker)
        body.writeString("\r\n--\(boundary)--\r\n")
        let headers: HTTPFields = [
            .authorization: "Bearer \(adminToken)", .contentType: "multipart/form-data; boundary=\(boundary)",
            HTTPField.Name("Idempotency-Key")!: "curl-1",
        ]
        return (headers, body)
    }

    @Test func aMultipartRetryWithAnotherBoundaryReplaysTheFirstAnswer() async throws {
        try await withApp(demo: true) { client, db in
            let uri = "/v1/admin/groups/chewy/stickers"
            let before = try await db.count("SELECT count(*) FROM stickers")
            // Action: the upload, its retry with a new boundary, then the key with another name.
            let (headers, body) = Self.form("------------------------a1b2c3", name: "Curl")
            let first = try await client.execute(uri: uri, method: .post, headers: headers, body: body)
            let (retryHeaders, retryBody) = Self.form("------------------------d4e5f6", name: "Curl")
            let retry = try await client.execute(uri: uri, method: .post, headers: retryHeaders, body: retryBody)
            let (otherHeaders, otherBody) = Self.form("------------------------0a0b0c", name: "Other")
            let other = try await client.execute(uri: uri, method: .post, headers: otherHeaders, body: otherBody)
            // Check
            #expect(first.status == .created && retry.status == .created, "\(retry.problemCode ?? "")")
            #expect(retry.headers[Self.replayed] == "true" && Array(buffer: retry.body) == Array(buffer: first.body))
            #expect(other.status == .unprocessableContent && other.problemCode == "idempotency_key_reused")
            #expect(try await db.count("SELECT count(*) FROM stickers") == before + 1)
        }
    }

    @Test func keysBelongToTokensNotToTheirNames() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: a stored token named like the bootstrap token.
            let (token, digest) = makeAdminToken()
            try await PostgresCatalog(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger)
                .createAdminToken(name: "bootstrap", digest: digest)
            func create(_ id: String, as bearer: String) async throws -> TestResponse {
                try await client.execute(
                    uri: "/v1/admin/groups", method: .post,
                    headers: [
                        .authorization: "Bearer \(bearer)", .contentType: "application/json",
                        HTTPField.Name("Idempotency-Key")!: "shared",
                    ],
                    body: Body.json(["id": id, "name": id.capitalized]))
            }
            // Action: each token writes under the same key, then retries.
            let first = try await create("sour", as: adminToken)
            let second = try await create("bitter", as: token)
            let (firstRetry, secondRetry) = (
                try await create("sour", as: adminToken), try await create("bitter", as: token)
            )
            // Check: each token got its own write and, on retry, its own answer.
            #expect(first.status == .created && second.status == .created, "\(second.problemCode ?? "")")
            #expect(second.headers[Self.replayed] == nil && second.headers[.location] == "/v1/admin/groups/bitter")
            #expect(
                firstRetry.headers[Self.replayed] == "true" && firstRetry.headers[.location] == "/v1/admin/groups/sour",
                "\(firstRetry.status) \(firstRetry.problemCode ?? "")")
            #expect(
                secondRetry.headers[Self.replayed] == "true"
                    && secondRetry.headers[.location] == "/v1/admin/groups/bitter",
                "\(secondRetry.status) \(secondRetry.problemCode ?? "")")
            #expect(try await db.count("SELECT count(*) FROM sticker_groups WHERE id IN ('sour', 'bitter')") == 2)
        }
    }

    @Test func aJSONRetryWithItsKeysInAnotherOrderReplays() async throws {
        try await withApp(demo: true) { client, db in
            var headers = admin
            headers[.contentType] = "application/json"
            headers[HTTPField.Name("Idempotency-Key")!] = "json-order"
            // Action: the same group twice, its keys written in another order (as Foundation may on Linux), then
            // another.
            let first = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"id":"tart","name":"Tart"}"#))
            let retry = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: headers,
                body: ByteBuffer(string: #"{ "name": "Tart", "id": "tart" }"#))
            let other = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: headers,
                body: ByteBuffer(string: #"{"id":"tart","name":"Sweet"}"#))
            // Check
            #expect(first.status == .created && retry.status == .created && retry.headers[Self.replayed] == "true")
            #expect(other.status == .unprocessableContent)
            #expect(try await db.count("SELECT count(*) FROM sticker_groups WHERE id = 'tart'") == 1)
        }
    }

    @Test func anAnswerCommitsWithItsWriteOrNotAtAll() async throws {
        try await withApp(demo: true) { client, db in
            // Setup: storing an answer fails, as when PostgreSQL goes away between a write and its answer.
            try await db.execute(
                """
                CREATE FUNCTION refuse_answers() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'no answer'; END $$
                """)
            try await db.execute(
                """
                CREATE TRIGGER refuse_answers BEFORE UPDATE ON idempotency_keys FOR EACH ROW WHEN (NEW.status IS NOT NULL)
                EXECUTE FUNCTION refuse_answers()
                """)
            let before = try await db.count("SELECT count(*) FROM stickers")
            let uri = "/v1/admin/groups/chewy/stickers?name=Once&description=Stored%20once"
            let headers = IdempotencyTests.headers("crash-1")
            // Action: the upload whose answer fails, then its retries once answers can be stored.
            let failed = try await client.execute(
                uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: Samples.opaqueSticker))
            let afterFailure = try await db.count("SELECT count(*) FROM stickers")
            try await db.execute("DROP TRIGGER refuse_answers ON idempotency_keys")
            let retry = try await client.execute(
                uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: Samples.opaqueSticker))
            let again = try await client.execute(
                uri: uri, method: .post, headers: headers, body: ByteBuffer(bytes: Samples.opaqueSticker))
            // Check: the failed attempt stored neither sticker nor answer; the retry wrote once, then replays.
            #expect(failed.status.code >= 500)
            #expect(afterFailure == before)
            #expect(retry.status == .created && retry.headers[Self.replayed] == nil, "\(retry.problemCode ?? "")")
            #expect(
                again.status == .created && again.headers[Self.replayed] == "true"
                    && Array(buffer: again.body) == Array(buffer: retry.body))
            #expect(try await db.count("SELECT count(*) FROM stickers") == before + 1)
        }
    }

    @Test func concurrentRetriesWriteOnceAndAllGetTheAnswer() async throws {
        try await withApp(demo: true) { client, db in
            let json: HTTPFields = [.authorization: "Bearer \(adminToken)", .contentType: "application/json"]
            // Action: five copies of one request at once, as an impatient client's retries would come.
            let answers = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<5 {
                    group.addTask {
                        try await client.execute(
                            uri: "/v1/admin/groups", method: .post, headers: IdempotencyTests.headers("at-once", json),
                            body: ByteBuffer(string: #"{"id":"fizzy","name":"Fizzy"}"#))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Check: one write; every copy answered 201 with its body, all but one as a replay.
            #expect(
                answers.allSatisfy { $0.status == .created }, "\(answers.map { $0.problemCode ?? "\($0.status.code)" })"
            )
            #expect(answers.filter { $0.headers[Self.replayed] == nil }.count == 1)
            #expect(Set(answers.map { Array(buffer: $0.body) }).count == 1)
            #expect(try await db.count("SELECT count(*) FROM sticker_groups WHERE id = 'fizzy'") == 1)
        }
    }
}
