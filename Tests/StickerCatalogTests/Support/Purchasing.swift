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
import Purchases
import TestSupport

/// Secrets every purchase test configures, and helpers to act as clients, App Store, RevenueCat and a backend.
enum Purchasing {
    static let userSecret = "test-user-jwt-secret-0123456789abcdef"
    static let assetKey = Array("test-asset-signing-key-0123456789abcdef".utf8)
    static let webhookSecret = Array("whsec-test-0123456789abcdef0123456789".utf8)
    static let revenueCatAuth = "Bearer rc-test-authorization"
    static let product = "com.example.premium"

    /// Options with user tokens, a known asset signing key, every webhook source, Apple's test root.
    static func options() async throws -> @Sendable (inout ServiceOptions) -> Void {
        let tokens = try await UserTokens(secret: userSecret, publicKeys: [])
        let apple = try AppStore.configuration()
        return { options in
            options.access.userTokens = tokens
            options.access.assetSigningKey = assetKey
            options.purchases.apple = apple
            options.purchases.webhookSecrets = [webhookSecret]
            options.purchases.revenueCatAuthorization = revenueCatAuth
            // Most tests buy in the sandbox, as a staging deployment does; the default policy has a test of its own.
            options.purchases.sandbox = .everyone
        }
    }

    /// `Authorization` for `user`.
    static func user(_ user: String) async throws -> HTTPFields {
        [.authorization: "Bearer " + (try await UserTokens.sign(user: user, secret: userSecret, lifetime: 3600))]
    }

    /// A generic webhook delivery of `event`, signed with `secret` at `at`.
    static func generic(
        _ event: [String: Any], secret: [UInt8] = webhookSecret, at: Date = Date()
    ) -> (ByteBuffer, HTTPFields) {
        let body = Array(try! JSONSerialization.data(withJSONObject: event, options: [.sortedKeys]))
        let header = SignedWebhook.signatureHeader(body: body, secret: secret, at: Int64(at.timeIntervalSince1970))
        return (
            ByteBuffer(bytes: body), [HTTPField.Name("Sticker-Signature")!: header, .contentType: "application/json"]
        )
    }

    /// A RevenueCat delivery with the configured Authorization.
    static func revenueCat(_ event: [String: Any]) -> (ByteBuffer, HTTPFields) {
        (
            Body.json(["api_version": "1.0", "event": event]),
            [.authorization: revenueCatAuth, .contentType: "application/json"]
        )
    }

    /// The product ids `headers`' user holds, by `GET /v1/me/entitlements`.
    static func held(_ client: some TestClientProtocol, _ headers: HTTPFields) async throws -> [String] {
        let response = try await client.execute(uri: "/v1/me/entitlements", method: .get, headers: headers)
        return ((response.json["entitlements"] as? [[String: Any]]) ?? []).compactMap { $0["productId"] as? String }
    }

    /// The actions of a user's audit, oldest first.
    static func audit(_ client: some TestClientProtocol, user: String) async throws -> [String] {
        let response = try await client.execute(
            uri: "/v1/admin/users/\(user)/audit?limit=200", method: .get, headers: admin)
        return ((response.json["entries"] as? [[String: Any]]) ?? []).compactMap { $0["action"] as? String }.reversed()
    }
}
