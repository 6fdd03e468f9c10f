import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Admin API: groups")
struct GroupAPITests {
    @Test("Create, read, change and delete a group")
    func lifecycle() async throws {
        try await withApp { client, _ in
            let created = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json([
                    "id": "sour", "name": "Sour", "flags": ["sour"], "sizeClass": "large",
                    "localizedNames": ["fr": "Acide"],
                ]))
            #expect(created.status == .created)
            #expect(created.headers[.location] == "/v1/admin/groups/sour")
            #expect(created.json["sizeClass"] as? String == "large")
            #expect(created.json["published"] as? Bool == true)

            let patched = try await client.execute(
                uri: "/v1/admin/groups/sour", method: .patch, headers: admin,
                body: Body.json(["name": "Very Sour", "productId": "com.example.sour"]))
            #expect(patched.status == .ok)
            #expect(patched.json["name"] as? String == "Very Sour")
            #expect(patched.json["productId"] as? String == "com.example.sour")
            let cleared = try await client.execute(
                uri: "/v1/admin/groups/sour", method: .patch, headers: admin, body: Body.json(["productId": NSNull()]))
            #expect(cleared.json["productId"] is NSNull)
            #expect(cleared.json["name"] as? String == "Very Sour")

            #expect(
                try await client.execute(uri: "/v1/admin/groups/sour", method: .delete, headers: admin).status
                    == .noContent)
            let gone = try await client.execute(uri: "/v1/admin/groups/sour", method: .get, headers: admin)
            #expect(gone.status == .notFound)
            #expect(gone.problemCode == "not_found")
        }
    }

    @Test("Bad fields are 422 validation_failed naming each field; a duplicate id is 409; bad JSON is 400")
    func refusals() async throws {
        try await withApp(demo: true) { client, _ in
            let invalid = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json(["id": "Not A Slug", "name": "", "flags": ["Bad Flag"]]))
            #expect(invalid.status == .unprocessableContent)
            #expect(invalid.problemCode == "validation_failed")
            let fields = (invalid.json["errors"] as? [[String: String]] ?? []).compactMap { $0["field"] }
            #expect(fields == ["id", "name", "flags"])

            let duplicate = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json(["id": "chewy", "name": "Chewy again"]))
            #expect(duplicate.status == .conflict)
            #expect(duplicate.problemCode == "conflict")

            let broken = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin, body: ByteBuffer(string: "{nope"))
            #expect(broken.status == .badRequest)
            #expect(broken.problemCode == "invalid_body")

            let wrongType = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["position": "first"]))
            #expect(wrongType.status == .badRequest)
            #expect(wrongType.problemCode == "invalid_body")
        }
    }

    @Test("Groups list in position, then name order, a page at a time")
    func pagination() async throws {
        try await withApp(demo: true) { client, _ in
            _ = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json(["id": "aaa", "name": "Aaa", "position": 5, "published": false]))
            let first = try await client.execute(uri: "/v1/admin/groups?limit=2", method: .get, headers: admin)
            #expect(
                (first.json["groups"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [
                    "chewy", "chocolate",
                ])
            #expect(first.json["nextOffset"] as? Int == 2)
            #expect((first.json["groups"] as? [[String: Any]])?.first?["stickerCount"] as? Int == 3)
            let second = try await client.execute(
                uri: "/v1/admin/groups?limit=2&offset=2", method: .get, headers: admin)
            #expect(
                (second.json["groups"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["crunchy", "aaa"])
            #expect(second.json["nextOffset"] is NSNull)
            let bad = try await client.execute(uri: "/v1/admin/groups?limit=0", method: .get, headers: admin)
            #expect(bad.problemCode == "invalid_parameter")
        }
    }

    @Test("PUT order sets the sticker order in one call and refuses anything but the group's own stickers")
    func order() async throws {
        try await withApp(demo: true) { client, _ in
            let group = try await client.execute(uri: "/v1/admin/groups/crunchy", method: .get, headers: admin)
            let ids = (group.json["stickers"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(ids.count == 3)
            let reordered = try await client.execute(
                uri: "/v1/admin/groups/crunchy/order", method: .put, headers: admin,
                body: Body.json(["stickerIds": Array(ids.reversed())]))
            #expect(reordered.status == .ok)
            #expect(reordered.jsonArray.compactMap { $0["id"] as? String } == Array(ids.reversed()))
            let manifest = try await client.execute(uri: "/v1/manifest", method: .get)
            let crunchy = (manifest.json["groups"] as? [[String: Any]])?.first { $0["id"] as? String == "crunchy" }
            #expect(
                (crunchy?["stickers"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == Array(ids.reversed()))

            let partial = try await client.execute(
                uri: "/v1/admin/groups/crunchy/order", method: .put, headers: admin,
                body: Body.json(["stickerIds": Array(ids.prefix(2))]))
            #expect(partial.status == .unprocessableContent)
            #expect(partial.problemCode == "validation_failed")
        }
    }
}
