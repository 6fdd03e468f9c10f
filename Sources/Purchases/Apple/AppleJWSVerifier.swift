import Foundation
import JWTKit
import X509

/// Verifies JWS signed by the App Store as Apple's App Store Server Library does: three parts, `alg` ES256, an `x5c`
/// chain of leaf, intermediate and root that leads to a configured root, Apple's OIDs on leaf and intermediate, each
/// certificate valid at the payload's `signedDate` (the current time when it has none), then the signature by the
/// leaf. jwt-kit's `X5CVerifier` (on swift-certificates) checks chain and signature; this adds Apple's rules.
public struct AppleJWSVerifier: Sendable {
    let verifier: X5CVerifier

    /// Trusts `roots`: DER or PEM certificates (in production, Apple Root CA - G3).
    public init(roots: [[UInt8]]) throws {
        let certificates = try roots.map { bytes in
            if let pem = String(bytes: bytes, encoding: .utf8), pem.contains("-----BEGIN CERTIFICATE-----") {
                return try Certificate(pemEncoded: pem)
            }
            return try Certificate(derEncoded: bytes)
        }
        verifier = try X5CVerifier(rootCertificates: certificates)
    }

    /// The verified payload of `jws`; `signedDate` reads the validation time from the (not yet verified) payload.
    func verify<Payload: JWTPayload>(_ jws: String, as type: Payload.Type, signedDate: (Payload) -> Int64?) async throws(PurchaseError) -> Payload {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else { throw .malformed("a JWS has three non-empty parts") }
        guard let headerData = Data(base64URL: parts[0]), let payloadData = Data(base64URL: parts[1]) else {
            throw .malformed("the JWS is not base64url")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData) else { throw .malformed("the JWS header is not JSON") }
        guard let unverified = try? JSONDecoder().decode(Payload.self, from: payloadData) else {
            throw .malformed("the JWS payload is not the expected JSON")
        }
        guard header.alg == "ES256" else { throw .unauthorized("alg is \(header.alg ?? "missing"), not ES256") }
        guard let x5c = header.x5c, x5c.count == 3 else { throw .unauthorized("the x5c header must hold leaf, intermediate and root") }
        let date = signedDate(unverified).map(Date.init(millis:)) ?? Date()
        do {
            return try await verifier.verifyJWS(Array(jws.utf8), as: Payload.self, jsonDecoder: JSONDecoder(), validationTime: .fixed(date)) {
                AppleOIDPolicy()
            }
        } catch {
            throw .unauthorized("the signature or its certificate chain does not verify: \(error)")
        }
    }

    struct Header: Decodable {
        var alg: String?
        var x5c: [String]?
    }
}

extension Data {
    /// Decodes base64url without padding (RFC 7515).
    init?(base64URL text: Substring) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
