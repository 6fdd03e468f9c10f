import CatalogCore
import CatalogHTTP
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Targeted rollout through the API: an audience is validated field by field, each condition holds alone and with the
/// others, and a percentage raised keeps everyone who had the group.
@Suite struct AudienceAPITests {
    @Test func aBadAudienceIsRefusedNamingEachFieldAndNothingIsStored() async throws {
        try await withApp(demo: true) { client, db in
            // Action: a new group and a PATCH, each with bad conditions.
            let created = try await client.execute(
                uri: "/v1/admin/groups", method: .post, headers: admin,
                body: Body.json([
                    "id": "thanksgiving", "name": "Thanksgiving",
                    "audience": [
                        "countries": ["US", "usa"], "appVersions": ["minimum": "3.0", "maximum": "2.9"],
                        "percentage": 100.5,
                    ],
                ]))
            let patched = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["audience": ["platforms": ["iOS"], "percentage": 12.34, "appVersions": [:]]]))
            let malformed = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
                body: Body.json(["audience": ["countries": "US"]]))
            // Check: 422s naming each field, 400 for a wrong type; nothing stored.
            #expect(created.status == .unprocessableContent && patched.status == .unprocessableContent)
            #expect(
                Audiences.fields(created) == ["audience.countries[1]", "audience.appVersions", "audience.percentage"])
            #expect(
                Audiences.fields(patched) == ["audience.platforms[0]", "audience.appVersions", "audience.percentage"])
            #expect(malformed.status == .badRequest && malformed.problemCode == "invalid_body")
            #expect(try await db.count("SELECT count(*)::int FROM sticker_groups WHERE id = 'thanksgiving'") == 0)
            #expect(try await db.count("SELECT count(*)::int FROM sticker_groups WHERE audience IS NOT NULL") == 0)
        }
    }

    @Test func anAudienceReadsBackInItsCanonicalForm() async throws {
        try await withApp(demo: true) { client, _ in
            try await Audiences.set(
                client, "chewy",
                ["countries": ["CA", "US"], "platforms": ["ios"], "appVersions": ["minimum": "2.3"], "percentage": 10])
            let group = try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin)
            let audience = try #require(group.json["audience"] as? [String: Any])
            #expect(audience["countries"] as? [String] == ["CA", "US"])
            #expect((audience["appVersions"] as? [String: String])?["minimum"] == "2.3.0")
            #expect(audience["percentage"] as? Double == 10)
            try await Audiences.set(client, "chewy", nil)
            let cleared = try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin)
            #expect(cleared.json["audience"] is NSNull)
        }
    }

    @Test func eachConditionHoldsAloneAndCombined() async throws {
        try await withApp(demo: true, options: Audiences.options) { client, _ in
            typealias C = Audiences
            // Countries: unknown (no header) is outside.
            try await C.set(client, "chewy", ["countries": ["US", "CA"]])
            #expect(try await C.sees(client, "chewy", C.caller(country: "US")))
            #expect(try await !C.sees(client, "chewy", C.caller(country: "FR")))
            #expect(try await !C.sees(client, "chewy", C.caller()))
            // Platforms.
            try await C.set(client, "chewy", ["platforms": ["android"]])
            #expect(try await C.sees(client, "chewy", C.caller(platform: "android")))
            #expect(try await !C.sees(client, "chewy", C.caller(platform: "ios")))
            #expect(try await !C.sees(client, "chewy", C.caller()))
            // Versions, both ends inclusive.
            try await C.set(client, "chewy", ["appVersions": ["minimum": "2.3", "maximum": "3.0"]])
            #expect(try await !C.sees(client, "chewy", C.caller(version: "2.2.9")))
            #expect(try await C.sees(client, "chewy", C.caller(version: "2.3")))
            #expect(try await C.sees(client, "chewy", C.caller(version: "3.0.0")))
            #expect(try await !C.sees(client, "chewy", C.caller(version: "3.0.1")))
            // All at once: every condition must hold.
            try await C.set(
                client, "chewy", ["countries": ["US"], "platforms": ["ios"], "appVersions": ["minimum": "2.3"]])
            #expect(try await C.sees(client, "chewy", C.caller(country: "US", platform: "ios", version: "2.4")))
            #expect(try await !C.sees(client, "chewy", C.caller(country: "US", platform: "android", version: "2.4")))
            #expect(try await !C.sees(client, "chewy", C.caller(country: "FR", platform: "ios", version: "2.4")))
            #expect(try await !C.sees(client, "chewy", C.caller(country: "US", platform: "ios", version: "2.2")))
            // Groups without an audience are everyone's.
            #expect(Set(try await C.groups(client, C.caller(country: "FR"))) == ["crunchy", "chocolate"])
            // A stated fact that is malformed is a 400 naming it; query parameters work where headers cannot be set.
            let bad = try await client.execute(uri: "/v1/manifest", method: .get, headers: C.caller(version: "2.x"))
            #expect(bad.status == .badRequest && bad.json["detail"] as? String ?? "" != "")
            let query = try await ChangeFeedTests.manifest(
                client, "?platform=ios&appVersion=2.4", headers: C.caller(country: "US"))
            #expect(query.groups.map(\.id).contains("chewy"))
            // A malformed parameter is refused beside a good header, as on its own.
            let beside = try await client.execute(
                uri: "/v1/manifest?platform=", method: .get, headers: C.caller(platform: "ios"))
            #expect(beside.status == .badRequest && beside.problemCode == "invalid_parameter")
        }
    }

    @Test func raisingThePercentageKeepsEveryoneWhoHadTheGroup() async throws {
        try await withApp(demo: true) { client, _ in
            let installations = (0..<100).map { "install-\($0)-\(UUID().uuidString.prefix(8))" }
            func seeing() async throws -> Set<String> {
                var seen = Set<String>()
                for id in installations
                where try await Audiences.sees(client, "chewy", Audiences.caller(installation: id)) {
                    seen.insert(id)
                }
                return seen
            }
            try await Audiences.set(client, "chewy", ["percentage": 10])
            let tenth = try await seeing()
            try await Audiences.set(client, "chewy", ["percentage": 50])
            let half = try await seeing()
            try await Audiences.set(client, "chewy", ["percentage": 100])
            let all = try await seeing()
            try await Audiences.set(client, "chewy", ["percentage": 0])
            let none = try await seeing()
            #expect(tenth.isSubset(of: half) && half.isSubset(of: all))
            #expect((1...25).contains(tenth.count), "\(tenth.count) of 100 at 10%")
            #expect((30...70).contains(half.count), "\(half.count) of 100 at 50%")
            #expect(all.count == 100 && none.isEmpty)
            // Without an installation id a partial rollout is not shown.
            try await Audiences.set(client, "chewy", ["percentage": 99.9])
            #expect(try await !Audiences.sees(client, "chewy", [:]))
        }
    }

    @Test func aQueryStringNamesAFactOnlyAsAParameterName() {
        for query in ["platform=ios", "size=small&appVersion=2", "a=1&installation=x&b=2", "installation="] {
            #expect(ClientFactsMiddleware.namesFact(query), "\(query)")
        }
        for query in ["", "filter=platform", "xplatform=ios", "size=small&flags=appVersion", "platforms=ios", "&&"] {
            #expect(!ClientFactsMiddleware.namesFact(query), "\(query)")
        }
    }
}
