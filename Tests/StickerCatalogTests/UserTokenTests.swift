import Crypto
import Foundation
import JWTKit
@testable import StickerCatalog
import Testing

/// User tokens: HS256 with the secret, ES256 with configured public keys, chosen by the token's `alg`.
@Suite struct UserTokenTests {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
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
        #expect(try await tokens.user(token: try await UserTokens.sign(user: "yan", secret: Self.secret, lifetime: 60)) == "yan")
        // Another key's token, and an expired one, are refused.
        let other = JWTKeyCollection()
        await other.add(ecdsa: ES256PrivateKey())
        await #expect(throws: Problem.self) { try await tokens.user(token: try await other.sign(Claims(sub: "zoe", exp: .init(value: Date() + 60)))) }
        await #expect(throws: Problem.self) { try await tokens.user(token: try await signer.sign(Claims(sub: "zoe", exp: .init(value: Date() - 1)))) }
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
        await #expect(throws: Problem.self) { try await tokens.user(token: try await UserTokens.sign(user: "x", secret: Self.secret, lifetime: 60)) }
        await #expect(throws: Problem.self) { try await tokens.user(token: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwiZXhwIjo5OTk5OTk5OTk5fQ.") }
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
}
