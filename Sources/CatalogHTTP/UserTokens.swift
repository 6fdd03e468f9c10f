import CatalogServices
import Crypto
import Foundation
import JWTKit
import Purchases
import Synchronization

/// Verifies the user tokens clients send as `Authorization: Bearer <JWT>`: HS256 with the configured secret or ES256
/// with one of the configured public keys, chosen by the token's own `alg` (so neither can pose as the other, and no
/// other algorithm is accepted); `sub` is the user id, `exp` is required, `nbf` honoured, and `iss` and `aud` must name
/// this service when it is configured with them (so a token the sign-in service minted for another purpose is no
/// session here). Times allow `clockSkew` either way. Verified tokens are remembered until they expire (bounded in
/// bytes, filled in a single flight), so a client's every request does not pay for a signature check.
package final class UserTokens: Sendable {
    package let hmac: JWTKeyCollection?
    package let ecdsa: JWTKeyCollection?
    /// The `iss` and `aud` a token must carry (`STICKER_USER_JWT_ISSUER`, `STICKER_USER_JWT_AUDIENCE`); nil: not
    /// checked.
    package let issuer: String?
    package let audience: String?
    /// How far the sign-in service's clock may be from ours when `exp` and `nbf` are checked.
    package static let clockSkew: TimeInterval = 60
    private let verified: Mutex<ByteLRU<String, Verified>>
    /// A token many requests bring at once (a client's first burst) is checked once.
    private let checks = SingleFlight<String, Verified>()
    /// Signature checks done, for tests of the cache.
    package let signatureChecks = Atomic<Int>(0)

    package struct Verified: Sendable {
        package let user: String
        package let expires: Date
    }

    package struct Claims: JWTPayload {
        package var sub: SubjectClaim
        package var exp: ExpirationClaim
        package var nbf: NotBeforeClaim?
        package var iss: IssuerClaim?
        package var aud: AudienceClaim?

        /// Times and names are checked in `check`, which knows the configuration and the skew.
        package func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// `secret` for HS256 (nil: none), `publicKeys` (PEM) for ES256; `issuer` and `audience`, when given, are required.
    package init(
        secret: String?, publicKeys: [String], issuer: String? = nil, audience: String? = nil,
        cacheBytes: Int = 4 << 20
    ) async throws {
        (self.issuer, self.audience) = (issuer, audience)
        if let secret {
            let keys = JWTKeyCollection()
            await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            hmac = keys
        } else {
            hmac = nil
        }
        if publicKeys.isEmpty {
            ecdsa = nil
        } else {
            let keys = JWTKeyCollection()
            for (index, pem) in publicKeys.enumerated() {
                await keys.add(ecdsa: try ES256PublicKey(pem: pem), kid: JWKIdentifier(string: "key-\(index)"))
            }
            ecdsa = keys
        }
        verified = Mutex(ByteLRU(capacity: cacheBytes))
    }

    /// Whether any key is configured; without one, every bearer token is refused.
    package var isConfigured: Bool { hmac != nil || ecdsa != nil }

    /// The user a token names; throws `Problem.invalidUserToken` for any token that does not verify.
    package func user(token: String, now: Date = Date()) async throws -> String {
        try await verify(token, now: now).user
    }

    /// The user a token names and when it expires; throws `Problem.invalidUserToken` for any token that does not
    /// verify.
    package func verify(_ token: String, now: Date = Date()) async throws -> Verified {
        if let hit = verified.withLock({ $0.value(for: token) }), hit.expires > now - Self.clockSkew { return hit }
        guard token.utf8.count <= 4096 else { throw Problem.invalidUserToken("The token is too long.") }
        let checked = try await checks.run(token) { try await self.check(token, now: now) }
        verified.withLock { $0.insert(checked, for: token, cost: token.utf8.count + checked.user.utf8.count + 64) }
        return checked
    }

    /// Verifies `token`'s signature, algorithm, times, issuer, audience and subject.
    private func check(_ token: String, now: Date) async throws -> Verified {
        signatureChecks.add(1, ordering: .relaxed)
        let keys: JWTKeyCollection?
        switch Self.algorithm(of: token) {
        case "HS256": keys = hmac
        case "ES256": keys = ecdsa
        default: throw Problem.invalidUserToken("The token must be a JWT signed with HS256 or ES256.")
        }
        guard let keys else {
            throw Problem.invalidUserToken(
                "Tokens signed with \(Self.algorithm(of: token) ?? "?") are not accepted here.")
        }
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self, iteratingKeys: true)
        } catch {
            throw Problem.invalidUserToken("The token does not verify.")
        }
        guard claims.exp.value > now - Self.clockSkew else { throw Problem.invalidUserToken("The token has expired.") }
        if let nbf = claims.nbf, nbf.value > now + Self.clockSkew {
            throw Problem.invalidUserToken("The token is not valid yet (nbf).")
        }
        if let issuer, claims.iss?.value != issuer {
            throw Problem.invalidUserToken("The token was not issued for this service (iss).")
        }
        if let audience, claims.aud?.value.contains(audience) != true {
            throw Problem.invalidUserToken("The token is not meant for this service (aud).")
        }
        let user = claims.sub.value
        guard (1...255).contains(user.unicodeScalars.count),  // code points, as the user routes count them
            !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw Problem.invalidUserToken("The token's sub must be 1 to 255 characters.")
        }
        return Verified(user: user, expires: claims.exp.value)
    }

    /// An HS256 token for `user` valid for `lifetime` seconds: for `stickerd token user`, tests and benchmarks (a real
    /// deployment's tokens come from its own sign-in service).
    package static func sign(
        user: String, secret: String, lifetime: TimeInterval, issuer: String? = nil,
        audience: String? = nil
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        return try await keys.sign(
            Claims(
                sub: SubjectClaim(value: user), exp: ExpirationClaim(value: Date().addingTimeInterval(lifetime)),
                iss: issuer.map(IssuerClaim.init(value:)), aud: audience.map { AudienceClaim(value: [$0]) }))
    }

    /// The `alg` of a JWT's header, read before anything is trusted.
    package static func algorithm(of token: String) -> String? {
        guard let header = token.split(separator: ".", maxSplits: 1).first,
            let data = Data(base64URL: header),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["alg"] as? String
    }
}
