import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import Crypto
import Foundation
import JWTKit
import Testing

/// User tokens: HS256 with the secret, ES256 with configured public keys, chosen by the token's `alg`.
@Suite struct UserTokenTests {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var nbf: NotBeforeClaim? = nil
        var iss: IssuerClaim? = nil
        var aud: AudienceClaim? = nil
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    static let secret = String(repeating: "s", count: 40)

    @Test func es256TokensVerifyWithAConfiguredPublicKey() async throws {
        // Setup: a sign-in service's key pair; stickerd knows only the public half.
        let key = P256.Signing.PrivateKey()
        let tokens = try await UserTokens(secret: Self.secret, publicKeys: [key.publicKey.pemRepresentation])
        let signer = JWTKeyCollection()
        await signer.add(ecdsa: try ES256PrivateKey(backing: key))
        let token = try await signer.sign(Claims(sub: "zoe", exp: .init(value: Date() + 60)))
        // Action and check
        #expect(try await tokens.user(token: token) == "zoe")
        #expect(
            try await tokens.user(token: try await UserTokens.sign(user: "yan", secret: Self.secret, lifetime: 60))
                == "yan")
        // Another key's token, and an expired one, are refused.
        let other = JWTKeyCollection()
        await other.add(ecdsa: ES256PrivateKey())
        await #expect(throws: Problem.self) {
            try await tokens.user(token: try await other.sign(Claims(sub: "zoe", exp: .init(value: Date() + 60))))
        }
        await #expect(throws: Problem.self) {
            try await tokens.user(token: try await signer.sign(Claims(sub: "zoe", exp: .init(value: Date() - 120))))
        }
    }

    @Test func theAlgorithmCannotBeSwitched() async throws {
        // An HS256 token whose secret is the ES256 public key (the classic confusion) must not pass as ES256 or HS256.
        let key = P256.Signing.PrivateKey()
        let tokens = try await UserTokens(secret: nil, publicKeys: [key.publicKey.pemRepresentation])
        let forger = JWTKeyCollection()
        await forger.add(hmac: HMACKey(from: key.publicKey.pemRepresentation), digestAlgorithm: .sha256)
        let forged = try await forger.sign(Claims(sub: "mallory", exp: .init(value: Date() + 60)))
        await #expect(throws: Problem.self) { try await tokens.user(token: forged) }
        // Without a secret, HS256 is not accepted at all; `none` never is.
        await #expect(throws: Problem.self) {
            try await tokens.user(token: try await UserTokens.sign(user: "x", secret: Self.secret, lifetime: 60))
        }
        await #expect(throws: Problem.self) {
            try await tokens.user(token: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwiZXhwIjo5OTk5OTk5OTk5fQ.")
        }
    }

    @Test func aTokenIsCheckedOnceHoweverManyRequestsBringIt() async throws {
        // Setup
        let tokens = try await UserTokens(secret: Self.secret, publicKeys: [])
        let token = try await UserTokens.sign(user: "uma", secret: Self.secret, lifetime: 60)
        // Action: a client's first burst, then more requests.
        let users = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await tokens.user(token: token) } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        _ = try await tokens.user(token: token)
        // Check
        #expect(users.count == 50 && Set(users) == ["uma"])
        #expect(tokens.signatureChecks.load(ordering: .relaxed) == 1)
    }

    @Test func issuerAudienceAndNotBeforeAreRequiredWhenConfigured() async throws {
        // Setup: the sign-in service signs tokens for several purposes with one key; this service is "stickers".
        let tokens = try await UserTokens(
            secret: Self.secret, publicKeys: [], issuer: "https://id.example", audience: "stickers")
        let signer = JWTKeyCollection()
        await signer.add(hmac: HMACKey(from: Self.secret), digestAlgorithm: .sha256)
        func token(
            iss: String? = "https://id.example", aud: [String]? = ["stickers"], nbf: Date? = nil,
            exp: Date = Date() + 600
        ) async throws -> String {
            try await signer.sign(
                Claims(
                    sub: "ann", exp: .init(value: exp), nbf: nbf.map { .init(value: $0) },
                    iss: iss.map { .init(value: $0) }, aud: aud.map { .init(value: $0) }))
        }
        // Action and check: ours passes, also among other audiences and within the clock skew.
        #expect(try await tokens.user(token: try await token()) == "ann")
        #expect(try await tokens.user(token: try await token(aud: ["billing", "stickers"], nbf: Date() + 30)) == "ann")
        #expect(try await tokens.user(token: try await token(exp: Date() - 30)) == "ann")
        // Another issuer, another audience, none of either, not valid yet, long expired: each refused.
        for refused in [
            try await token(iss: "https://evil.example"), try await token(aud: ["billing"]), try await token(iss: nil),
            try await token(aud: nil), try await token(nbf: Date() + 3600), try await token(exp: Date() - 120),
        ] {
            await #expect(throws: Problem.self) { try await tokens.user(token: refused) }
        }
        // `stickerd token user` mints tokens this configuration accepts.
        let minted = try await UserTokens.sign(
            user: "bo", secret: Self.secret, lifetime: 60, issuer: "https://id.example", audience: "stickers")
        #expect(try await tokens.user(token: minted) == "bo")
    }

    @Test func webhookSecretsAndRevenueCatAuthorizationMustBeLongEnough() throws {
        let long = String(repeating: "k", count: 32)
        #expect(try Secrets.webhookSecrets("\(long), \(long)x") == [Array(long.utf8), Array((long + "x").utf8)])
        // A trailing comma used to make an empty secret, with which anyone could sign (HMAC with an empty key).
        let empty = #expect(throws: Secrets.Refused.self) { try Secrets.webhookSecrets("\(long), ") }
        #expect(empty?.description.contains("empty") == true && empty?.description.contains(long) == false)
        #expect(throws: Secrets.Refused.self) { try Secrets.webhookSecrets(String(repeating: "k", count: 31)) }
        #expect(throws: Secrets.Refused.self) { try Secrets.revenueCatAuthorization("Bearer short") }
        #expect(try Secrets.revenueCatAuthorization("Bearer rc-0123456789") == "Bearer rc-0123456789")
    }
}
