import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// Premium groups as clients see them: locked for anonymous and unentitled users, unlocked with signed image URLs
/// for entitled ones; premium images only through those URLs.
@Suite struct PremiumManifestTests {
    /// Makes the demo's Chewy group premium.
    static func premiumChewy(_ client: some TestClientProtocol) async throws {
        let patched = try await client.execute(
            uri: "/v1/admin/groups/chewy", method: .patch, headers: admin,
            body: Body.json(["productId": Purchasing.product]))
        #expect(patched.status == .ok)
    }

    /// An answer's header fields and values, but its request id's and its date's.
    static func fields(_ response: TestResponse) -> [String] {
        response.headers.filter { !["x-request-id", "date"].contains($0.name.canonicalName) }
            .map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }

    static func chewy(_ response: TestResponse) -> [String: Any] {
        ((response.json["groups"] as? [[String: Any]]) ?? []).first { $0["id"] as? String == "chewy" } ?? [:]
    }

    static func grant(_ client: some TestClientProtocol, _ user: String) async throws -> TestResponse {
        try await client.execute(
            uri: "/v1/admin/users/\(user)/entitlements", method: .post, headers: admin,
            body: Body.json(["productId": Purchasing.product]))
    }

    @Test func lockedUnlockedAndTheETag() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            try await Self.premiumChewy(client)
            let (gus, hana) = (try await Purchasing.user("gus"), try await Purchasing.user("hana"))
            // Anonymous and unentitled users see the same locked group, with its cover.
            let anonymous = try await client.execute(uri: "/v1/manifest", method: .get)
            let unentitled = try await client.execute(uri: "/v1/manifest", method: .get, headers: gus)
            let locked = Self.chewy(anonymous)
            #expect(locked["locked"] as? Bool == true && locked["productId"] as? String == Purchasing.product)
            #expect(
                (locked["stickers"] as? [Any])?.isEmpty == true && (locked["cover"] as? [String: Any])?["url"] != nil)
            #expect(unentitled.headers[.eTag] == anonymous.headers[.eTag])
            #expect(unentitled.headers[.cacheControl] == "private, no-cache")
            // Granted: unlocked, a new ETag, stable on repeat.
            #expect(try await Self.grant(client, "hana").status == .created)
            let entitled = try await client.execute(uri: "/v1/manifest", method: .get, headers: hana)
            let unlocked = Self.chewy(entitled)
            #expect(unlocked["locked"] as? Bool == false && (unlocked["stickers"] as? [Any])?.count == 3)
            #expect(entitled.headers[.eTag] != anonymous.headers[.eTag])
            #expect(
                try await client.execute(uri: "/v1/manifest", method: .get, headers: hana).headers[.eTag]
                    == entitled.headers[.eTag])
            let group = try await client.execute(uri: "/v1/groups/chewy", method: .get, headers: hana)
            #expect(group.json["locked"] as? Bool == false)
            // Revoked: back to what everyone else sees.
            let revoked = try await client.execute(
                uri: "/v1/admin/users/hana/entitlements/\(Purchasing.product)", method: .delete, headers: admin)
            #expect(revoked.status == .ok && (revoked.json["entitlements"] as? [Any])?.isEmpty == true)
            #expect(
                try await client.execute(uri: "/v1/manifest", method: .get, headers: hana).headers[.eTag]
                    == anonymous.headers[.eTag])
            #expect(try await Purchasing.audit(client, user: "hana") == ["grant", "revoke"])
        }
    }

    @Test func premiumImagesNeedAValidSignedURL() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            try await Self.premiumChewy(client)
            _ = try await Self.grant(client, "hana")
            let manifest = try await client.execute(
                uri: "/v1/manifest", method: .get, headers: try await Purchasing.user("hana"))
            let sticker = ((Self.chewy(manifest)["stickers"] as? [[String: Any]]) ?? []).last ?? [:]
            let signed = (sticker["asset"] as? [String: Any])?["url"] as? String ?? ""
            let path = String(signed.prefix { $0 != "?" })
            #expect(signed.contains("?exp=") && signed.contains("&sig="))
            // Check
            let ok = try await client.execute(uri: signed, method: .get)
            #expect(ok.status == .ok && ok.headers[.cacheControl]?.hasPrefix("private, max-age=") == true)
            // Unsigned, a hidden image answers as an unknown digest does: status, code and headers (only the request's
            // id differs), in either format; a forged signature is judged alike for both.
            let bare = try await client.execute(uri: path, method: .get)
            let unknownPath = "/v1/assets/\(String(repeating: "0", count: 64)).png"
            let unknown = try await client.execute(uri: unknownPath, method: .get)
            #expect(bare.status == .notFound && bare.problemCode == "not_found")
            #expect(bare.status == unknown.status && bare.problemCode == unknown.problemCode)
            #expect(Self.fields(bare) == Self.fields(unknown), "\(bare.headers) against \(unknown.headers)")
            let otherFormat = String(path.dropLast(4)) + ".webp"
            #expect(try await client.execute(uri: otherFormat, method: .get).status == .notFound)
            let query = signed.split(separator: "?").last.map(String.init) ?? ""
            let forgedUnknown = try await client.execute(
                uri: unknownPath + "?" + query.replacingOccurrences(of: "sig=", with: "sig=A"), method: .get)
            #expect(forgedUnknown.problemCode == "signature_invalid")
            let tampered = signed.replacingOccurrences(of: "sig=", with: "sig=A")
            #expect(try await client.execute(uri: tampered, method: .get).problemCode == "signature_invalid")
            let longer = signed.replacingOccurrences(of: "exp=", with: "exp=9")
            #expect(try await client.execute(uri: longer, method: .get).status == .forbidden)
            let sha = String(path.dropFirst("/v1/assets/".count).dropLast(4))
            let expired = AssetSigner(key: Purchasing.assetKey, lifetime: 3600).query(
                sha256: sha, expires: Int64(Date().timeIntervalSince1970) - 5)
            #expect(
                try await client.execute(uri: path + "?" + expired, method: .get).problemCode == "signature_expired")
            // The locked group's cover and free groups' images stay public.
            let anonymous = try await client.execute(uri: "/v1/manifest", method: .get)
            let cover = (Self.chewy(anonymous)["cover"] as? [String: Any])?["url"] as? String ?? ""
            #expect(!cover.contains("?"))
            #expect(try await client.execute(uri: cover, method: .get).status == .ok)
            let free =
                ((anonymous.json["groups"] as? [[String: Any]])?.first { $0["id"] as? String == "crunchy" }?["stickers"]
                as? [[String: Any]])?
                .first?["asset"] as? [String: Any]
            #expect(try await client.execute(uri: free?["url"] as? String ?? "", method: .get).status == .ok)
        }
    }

    @Test func adminAnswersCarrySignedURLsThatOpenPremiumImages() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            try await Self.premiumChewy(client)
            // Action: the admin view of the premium group.
            let group = try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin)
            let sticker = try #require((group.json["stickers"] as? [[String: Any]])?.last)
            let url = try #require((sticker["asset"] as? [String: Any])?["url"] as? String)
            let rendition = try #require(
                ((sticker["renditions"] as? [[String: Any]])?.first?["asset"] as? [String: Any])?["url"] as? String)
            // Check: each opens without a user token; the bare path does not.
            #expect(url.contains("?exp=") && rendition.contains("?exp="))
            #expect(try await client.execute(uri: url, method: .get).status == .ok)
            #expect(try await client.execute(uri: rendition, method: .get).status == .ok)
            #expect(try await client.execute(uri: String(url.prefix { $0 != "?" }), method: .get).status == .notFound)
        }
    }

    @Test func badUserTokensAre401NeverAnonymous() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            let expired = try await UserTokens.sign(user: "ivy", secret: Purchasing.userSecret, lifetime: -120)
            let forged = try await UserTokens.sign(user: "ivy", secret: String(repeating: "x", count: 40), lifetime: 60)
            for header in [
                "Bearer \(expired)", "Bearer \(forged)", "Bearer not-a-jwt", "Basic aXZ5OnB3",
                "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJpdnkifQ.",
            ] {
                let response = try await client.execute(
                    uri: "/v1/manifest", method: .get, headers: [.authorization: header])
                #expect(response.status == .unauthorized && response.problemCode == "invalid_token", "\(header)")
                #expect(response.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
            }
            #expect(try await client.execute(uri: "/v1/me/entitlements", method: .get).status == .unauthorized)
        }
    }

    @Test func anotherReplicaSeesAGrantThroughNotify() async throws {
        let options = try await Purchasing.options()
        try await withReplicas(options: options) { first, second in
            try await Self.premiumChewy(first)
            let hana = try await Purchasing.user("hana")
            // The second replica has read hana's (empty) entitlements into memory.
            #expect(
                Self.chewy(try await second.execute(uri: "/v1/manifest", method: .get, headers: hana))["locked"]
                    as? Bool == true)
            _ = try await Self.grant(first, "hana")
            let unlocked = try await eventually {
                Self.chewy(try await second.execute(uri: "/v1/manifest", method: .get, headers: hana))["locked"]
                    as? Bool == false
            } until: {
                $0
            }
            #expect(unlocked)
        }
    }

    @Test func premiumImagesStayClosedWhenTheirGroupIsUnpublishedOrTheStickerDeleted() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            // Setup: Chewy premium; two of its non-cover stickers' images, as the admin sees them.
            try await Self.premiumChewy(client)
            let group = try await client.execute(uri: "/v1/admin/groups/chewy", method: .get, headers: admin)
            let stickers = try #require(group.json["stickers"] as? [[String: Any]])
            func path(_ sticker: [String: Any]) -> String {
                String(((sticker["asset"] as? [String: Any])?["url"] as? String ?? "").prefix { $0 != "?" })
            }
            let (deleted, kept) = (stickers[2], stickers[1])
            #expect(try await client.execute(uri: path(deleted), method: .get).status == .notFound)
            // Action: delete one premium sticker (its bytes stay for gc), then unpublish the group.
            let id = try #require(deleted["id"] as? String)
            #expect(
                try await client.execute(uri: "/v1/admin/stickers/\(id)", method: .delete, headers: admin).status
                    == .noContent)
            #expect(try await client.execute(uri: path(deleted), method: .get).status == .notFound)
            let draft = try await client.execute(
                uri: "/v1/admin/groups/chewy", method: .patch, headers: admin, body: Body.json(["published": false]))
            #expect(draft.status == .ok)
            // Check: neither image is served unsigned (and so never as public, immutable bytes a CDN keeps for a year).
            for image in [path(deleted), path(kept)] {
                let response = try await client.execute(uri: image, method: .get)
                #expect(
                    response.status == .notFound && response.headers[.cacheControl]?.contains("public") != true,
                    "\(image)")
            }
        }
    }

    @Test func manifestsVaryByAuthorizationAndSignedInAnswersArePrivate() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            try await Self.premiumChewy(client)
            let hana = try await Purchasing.user("hana")
            for uri in ["/v1/manifest", "/v1/groups/chewy"] {
                // Action: anonymous and signed-in answers, and their revalidations.
                let anonymous = try await client.execute(uri: uri, method: .get, headers: [.acceptEncoding: "gzip"])
                let signedIn = try await client.execute(uri: uri, method: .get, headers: hana)
                let revalidated = try await client.execute(
                    uri: uri, method: .get,
                    headers: [.acceptEncoding: "gzip", .ifNoneMatch: anonymous.headers[.eTag] ?? ""])
                // Check: a shared cache must key on Authorization, and may not store a signed-in user's answer at all.
                for response in [anonymous, signedIn, revalidated] {
                    let vary = Set(
                        (response.headers[.vary] ?? "").split(separator: ",").map {
                            $0.trimmingCharacters(in: .whitespaces).lowercased()
                        })
                    #expect(vary.contains("authorization"), "\(uri) \(response.status)")
                }
                #expect(revalidated.status == .notModified)
                #expect(signedIn.headers[.cacheControl] == "private, no-cache")
                #expect(anonymous.headers[.cacheControl] == "no-cache")
            }
        }
    }
}
