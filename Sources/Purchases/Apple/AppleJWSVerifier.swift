import Foundation
import JWTKit
import X509

/// Verifies JWS signed by the App Store as Apple's App Store Server Library does: three parts, `alg` ES256, an `x5c`
/// chain of leaf, intermediate and root that leads to a configured root, Apple's OIDs on leaf and intermediate, each
/// certificate valid at the payload's `signedDate` (the current time when it has none), then the signature by the
/// leaf. jwt-kit's `X5CVerifier` (on swift-certificates) checks chain and signature; this adds Apple's rules.
public struct AppleJWSVerifier: Sendable {
    let verifier: X5CVerifier
    let chains = VerifiedChains()

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
    func verify<Payload: JWTPayload>(
        _ jws: String, as type: Payload.Type, signedDate: (Payload) -> Int64?
    ) async throws(PurchaseError) -> Payload {
        // Split as bytes: splitting a String compares Characters, slow over the kilobytes of an App Store JWS.
        let parts = jws.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { Substring($0) }
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty }) else {
            throw .malformed("a JWS has three non-empty parts")
        }
        guard let headerData = Data(base64URL: parts[0]), let payloadData = Data(base64URL: parts[1]) else {
            throw .malformed("the JWS is not base64url")
        }
        guard let header = try? JSONDecoder().decode(Header.self, from: headerData) else {
            throw .malformed("the JWS header is not JSON")
        }
        guard let unverified = try? JSONDecoder().decode(Payload.self, from: payloadData) else {
            throw .malformed("the JWS payload is not the expected JSON")
        }
        guard header.alg == "ES256" else { throw .unauthorized("alg is \(header.alg ?? "missing"), not ES256") }
        guard let x5c = header.x5c, x5c.count == 3 else {
            throw .unauthorized("the x5c header must hold leaf, intermediate and root")
        }
        let date = signedDate(unverified).map(Date.init(millis:)) ?? Date()
        guard Date.purchaseTimes.contains(date) else {
            throw .malformed("signedDate must lie between 1970 and the end of 9999")
        }
        do {
            if let leafKey = chains.key(for: x5c, at: date) {
                return try await leafKey.verify(jws, as: Payload.self)
            }
            let payload = try await verifier.verifyJWS(
                Array(jws.utf8), as: Payload.self, jsonDecoder: JSONDecoder(), validationTime: .fixed(date)
            ) {
                AppleOIDPolicy()
            }
            await chains.remember(x5c)
            return payload
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
    /// Decodes base64url without padding (RFC 7515), byte by byte (String's replacingOccurrences goes through
    /// NSString, and JWS parts of App Store notifications are kilobytes long).
    public init?(base64URL text: Substring) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(text.utf8.count + 3)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
            default: bytes.append(byte)
            }
        }
        while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
        self.init(base64Encoded: Data(bytes))
    }
}
