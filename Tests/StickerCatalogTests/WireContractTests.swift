import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import StickerCatalogAPI
import TestSupport
import Testing

/// The wire contract between stickerd and the generated client (`StickerCatalogAPI`): every answer a client reads,
/// fetched from a catalog that sets every optional and nullable field, decodes into its generated type; the server
/// sends no key that type lacks; and every optional property of every generated type reached is set at least once.
/// A field added on one side only fails it: on the server, as a key the client drops; on the client, as a required
/// field that does not decode or an optional one never set. Admin answers are not generated (schemathesis checks
/// them against openapi.yaml); admin routes appear here only where they answer a client schema.
@Suite struct WireContractTests {
    typealias Schemas = Components.Schemas

    /// What the checks found so far: for each generated type reached (by its full name), whether each of its optional
    /// properties was set in at least one answer.
    struct Wire {
        var optionals: [String: [String: Bool]] = [:]

        /// As the generated client decodes: OpenAPIRuntime's default `Configuration` turns dates with
        /// `ISO8601DateTranscoder.iso8601` (internet date-time, no fractional seconds), which `.iso8601` matches.
        static var decoder: JSONDecoder {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            return decoder
        }

        static var encoder: JSONEncoder {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            return encoder
        }
        static func name(_ type: Any.Type) -> String {
            String(reflecting: type).replacingOccurrences(of: "StickerCatalogAPI.", with: "")
        }

        /// Fetches `uri`, decodes its body as `T` (a failure ends the test: a required field missing, a type or an
        /// enum case the client does not know), checks that T keeps every key the server sent, records coverage.
        @discardableResult
        mutating func check<T: Codable>(
            _ type: T.Type, _ client: any TestClientProtocol, _ uri: String, headers: HTTPFields = [:],
            method: HTTPRequest.Method = .get, body: ByteBuffer? = nil, status: HTTPResponse.Status = .ok
        ) async throws -> T {
            let response = try await client.execute(uri: uri, method: method, headers: headers, body: body)
            let data = Data(buffer: response.body)
            let text = String(decoding: data, as: UTF8.self)
            #expect(response.status == status, "\(method) \(uri): \(response.status) \(text.prefix(500))")
            let value: T
            do { value = try Self.decoder.decode(T.self, from: data) } catch {
                Issue.record("\(uri): \(Self.name(T.self)) cannot decode what the server sent: \(error)")
                throw error
            }
            // Server-only fields: every key the server sends with a value must survive the client's decode and
            // re-encode. Nulls are skipped (the client omits a nil optional): the catalog sets every nullable field.
            let sent = Self.paths(try JSONSerialization.jsonObject(with: data))
            let kept = Self.paths(try JSONSerialization.jsonObject(with: try Self.encoder.encode(value)))
            for path in sent.subtracting(kept).sorted() {
                Issue.record("\(uri): the server sends `\(path)`, which \(Self.name(T.self)) does not declare")
            }
            visit(value)
            return value
        }

        /// The key paths of a JSON value's non-null values (`groups[].stickers[].asset.url`), array elements merged.
        static func paths(_ json: Any, _ prefix: String = "") -> Set<String> {
            switch json {
            case let object as [String: Any]:
                return object.reduce(into: []) { paths, entry in
                    guard !(entry.value is NSNull) else { return }
                    let path = prefix.isEmpty ? entry.key : prefix + "." + entry.key
                    paths.insert(path)
                    paths.formUnion(Self.paths(entry.value, path))
                }
            case let array as [Any]: return array.reduce(into: []) { $0.formUnion(Self.paths($1, prefix + "[]")) }
            default: return []
            }
        }

        /// Client-only fields: notes, with `Mirror`, which optional properties of each generated struct are set, going
        /// into nested generated structs and arrays. Strings, numbers, `Date` and the generated `String`/`Int` enums
        /// (`SizeClass`, `Problem.CodePayload`) are leaves, their cases checked by decoding. The open values' `anyOf`
        /// wrappers (`ServedSizeClass`: `value1` the known case, `value2` any string) are structs like the others: a
        /// value the server sends that the client does not know leaves `value1` unset, and that fails here. The
        /// client schemas have no `OpenAPIValueContainer` or `additionalProperties`; one added needs handling here.
        mutating func visit(_ value: Any) {
            let mirror = Mirror(reflecting: value)
            let name = String(reflecting: type(of: value))
            switch mirror.displayStyle {
            case .collection?: for element in mirror.children { visit(element.value) }
            case .struct? where name.hasPrefix("StickerCatalogAPI."):
                var set = optionals[name] ?? [:]
                for child in mirror.children {
                    guard let label = child.label else { continue }
                    let field = Mirror(reflecting: child.value)
                    if field.displayStyle == .optional {
                        set[label] = (set[label] ?? false) || !field.children.isEmpty
                        if let wrapped = field.children.first { visit(wrapped.value) }
                    } else {
                        visit(child.value)
                    }
                }
                optionals[name] = set
            default: break
            }
        }

        /// Every type in `expected` was reached (an empty array would hide its elements' fields), and every optional
        /// property of every generated type reached was set at least once.
        func expectEveryOptionalSet(reaching expected: [Any.Type]) {
            for type in expected where optionals[String(reflecting: type)] == nil {
                Issue.record("No answer carried a \(Self.name(type)): the catalog does not exercise it")
            }
            for (type, fields) in optionals.sorted(by: { $0.key < $1.key }) {
                for (field, set) in fields.sorted(by: { $0.key < $1.key }) where !set {
                    Issue.record(
                        "\(type.replacingOccurrences(of: "StickerCatalogAPI.", with: "")).\(field) is never set: declared by the client alone, or not exercised"
                    )
                }
            }
        }
    }

    static let retired = "com.example.retired"

    /// The demo catalog with every state the wire can show: Chewy premium (locked for anonymous callers with its
    /// productId and cover), an APNG sticker (an animated WebP under `format=webp`) with a French description in the
    /// free Chocolate group, that group scheduled to leave (the client wire carries no schedule: it must not leak
    /// one), and hana holding the product until 2099 with another product granted and revoked.
    static func makeCatalog(_ client: any TestClientProtocol, _ wire: inout Wire) async throws {
        try await PremiumManifestTests.premiumChewy(client)
        let apng = APNGWriter.animation(side: 408, frames: 12, delay: 1, denominator: 12).bytes
        let uploaded = try await client.execute(
            uri: "/v1/admin/groups/chocolate/stickers?name=Blink&description=Blinks", method: .post,
            headers: Body.pngHeaders, body: ByteBuffer(bytes: apng))
        #expect(uploaded.status == .created)
        let blink = try #require(uploaded.json["id"] as? String)
        try await ChangeFeedTests.patch(
            client, "stickers/\(blink)",
            ["localizedDescriptions": ["fr": "Il clignote"], "keywords": ["blink"], "emoji": ["✨"]])
        try await ChangeFeedTests.patch(client, "groups/chocolate", ["unpublishAt": "2099-01-01T00:00:00Z"])
        // The admin's grant and revoke answer the client's EntitlementList: checked too.
        let grants = "/v1/admin/users/hana/entitlements"
        for grant: [String: Any] in [
            ["productId": Purchasing.product, "expiresAt": "2099-01-01T00:00:00Z"], ["productId": retired],
        ] {
            try await wire.check(
                Schemas.EntitlementList.self, client, grants, headers: admin, method: .post, body: Body.json(grant),
                status: .created)
        }
        try await wire.check(
            Schemas.EntitlementList.self, client, grants + "/" + retired, headers: admin, method: .delete)
    }

    @Test("Every answer a client reads decodes into its generated schema, with no field on one side only")
    func everyClientAnswerMatchesTheGeneratedSchemas() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            var wire = Wire()
            try await Self.makeCatalog(client, &wire)
            let hana = try await Purchasing.user("hana")
            // Manifests: anonymous (locked premium group, APNG), signed in (unlocked, signed URLs), every parameter.
            let french = try await wire.check(Schemas.Manifest.self, client, "/v1/manifest?locale=fr&format=webp")
            try await wire.check(Schemas.Manifest.self, client, "/v1/manifest")
            try await wire.check(
                Schemas.Manifest.self, client, "/v1/manifest?locale=fr&format=webp&size=small&scale=2", headers: hana)
            try await wire.check(
                Schemas.Manifest.self, client,
                "/v1/manifest?filter=chocoholic&flags=chocolate&size=large&scale=1&format=png&locale=fr-CA")
            try await wire.check(
                Schemas.ManifestGroup.self, client, "/v1/groups/chewy?locale=fr&format=webp", headers: hana)
            try await wire.check(Schemas.ManifestGroup.self, client, "/v1/groups/chocolate?size=medium&scale=2")
            try await wire.check(Schemas.ManifestGroup.self, client, "/v1/groups/chocolate?sources=all")
            // A group in pages (a next cursor), and the group index: anonymous (a locked group), signed in, a next page.
            try await wire.check(Schemas.ManifestGroup.self, client, "/v1/groups/chocolate?limit=1")
            try await wire.check(Schemas.GroupIndexPage.self, client, "/v1/groups?locale=fr&format=webp&limit=2")
            try await wire.check(Schemas.GroupIndexPage.self, client, "/v1/groups?size=small&scale=2", headers: hana)
            try await wire.check(
                Schemas.Problem.self, client, "/v1/groups?cursor=bm90IGEgY3Vyc29y", status: .gone)
            // Search: locked and free results, unlocked ones, a first page with a next cursor; suggestions.
            try await wire.check(Schemas.SearchPage.self, client, "/v1/search?q=wrapper")
            try await wire.check(Schemas.SearchPage.self, client, "/v1/search?q=wrapper&format=webp", headers: hana)
            try await wire.check(
                Schemas.SearchPage.self, client, "/v1/search?q=chocolat&locale=fr&size=small&scale=2&limit=1")
            try await wire.check(Schemas.SuggestionList.self, client, "/v1/search/suggestions?q=ch&locale=fr")
            // Inline response objects of client routes: generated under Operations, not Components.Schemas.
            try await wire.check(Operations.ListFilters.Output.Ok.Body.JsonPayload.self, client, "/v1/filters")
            try await wire.check(
                Operations.GetPurchaseToken.Output.Ok.Body.JsonPayload.self, client, "/v1/me/purchase-token",
                headers: hana)
            // Entitlements: the user's own, and the admin's view with every transaction (one revoked).
            try await wire.check(Schemas.EntitlementList.self, client, "/v1/me/entitlements", headers: hana)
            try await wire.check(
                Schemas.EntitlementList.self, client, "/v1/admin/users/hana/entitlements", headers: admin)
            // Problems: a client route's 404 and 401, and a 422 with its field errors.
            try await wire.check(Schemas.Problem.self, client, "/v1/manifest?filter=nope", status: .notFound)
            try await wire.check(Schemas.Problem.self, client, "/v1/me/entitlements", status: .unauthorized)
            try await wire.check(
                Schemas.Problem.self, client, "/v1/admin/users/hana/entitlements", headers: admin, method: .post,
                body: Body.json(["productId": "not a product"]), status: .unprocessableContent)
            // The change feed after the French manifest: a group changed, a sticker deleted, a group unpublished.
            let chocolate = try #require(french.groups.first { $0.id == "chocolate" })
            let deleted = try #require(chocolate.stickers.first { $0.name != "Blink" }).id
            let deletion = try await client.execute(
                uri: "/v1/admin/stickers/\(deleted)", method: .delete, headers: admin)
            #expect(deletion.status == .noContent)
            try await ChangeFeedTests.patch(client, "groups/crunchy", ["published": false])
            let changes = try await wire.check(
                Schemas.ManifestChanges.self, client,
                "/v1/manifest/changes?since=\(french.cursor)&locale=fr&format=webp")
            #expect(changes.groups.contains { $0.id == "chocolate" } && changes.removedGroups == ["crunchy"])
            #expect(changes.removedStickers == [deleted] && !changes.order.isEmpty && !changes.moreComing)
            wire.expectEveryOptionalSet(reaching: [
                Schemas.Manifest.self, Schemas.ManifestChanges.self, Schemas.ManifestGroup.self,
                Schemas.ManifestSticker.self, Schemas.AssetLink.self, Schemas.SearchPage.self,
                Schemas.SearchResult.self, Schemas.SearchResultGroup.self, Schemas.SuggestionList.self,
                Schemas.StickerFilter.self, Schemas.EntitlementList.self,
                Schemas.EntitlementList.EntitlementsPayloadPayload.self, Schemas.TransactionView.self,
                Schemas.Problem.self, Schemas.Problem.ErrorsPayloadPayload.self, Schemas.GroupIndexPage.self,
                Schemas.GroupSummary.self,
            ])
        }
    }
}
