import Crypto
import Foundation
import SwiftASN1
import X509

/// An App Store signing PKI made at test time, so the code that guards the money is tested in a bare clone: a root,
/// an intermediate carrying Apple's WWDR OID and a leaf carrying Apple's receipt-signing OID, as Apple's own chain,
/// plus the broken variants (a leaf or an intermediate without its OID). Valid from 2023-01-05 to 2033-01-01, like
/// Apple's test certificates, so validity is checked at a notification's signedDate.
package struct TestPKI: Sendable {
    package struct Issued: Sendable {
        package let key: P256.Signing.PrivateKey
        package let certificate: Certificate
        /// The DER in plain base64, as an `x5c` entry.
        package let x5c: String

        package init(key: P256.Signing.PrivateKey, certificate: Certificate, x5c: String) {
            self.key = key
            self.certificate = certificate
            self.x5c = x5c
        }
    }

    package static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    package static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    package static let notBefore = Date(timeIntervalSince1970: 1_672_876_800)
    package static let notAfter = Date(timeIntervalSince1970: 1_988_150_400)

    package let root: Issued
    package let intermediate: Issued
    package let leaf: Issued
    package let leafWithoutOID: Issued
    package let intermediateWithoutOID: Issued
    package let leafUnderIntermediateWithoutOID: Issued

    /// One PKI for the whole test run (key generation and signing are cheap, but chains are cached by the verifier).
    package static let shared: TestPKI = try! TestPKI()

    package init() throws {
        root = try Self.issue("Test Root CA", oid: nil, ca: true, issuer: nil)
        intermediate = try Self.issue("Test WWDR Intermediate", oid: Self.intermediateOID, ca: true, issuer: root)
        leaf = try Self.issue("Test Receipt Signing", oid: Self.leafOID, ca: false, issuer: intermediate)
        leafWithoutOID = try Self.issue("Test Leaf Without OID", oid: nil, ca: false, issuer: intermediate)
        intermediateWithoutOID = try Self.issue("Test Intermediate Without OID", oid: nil, ca: true, issuer: root)
        leafUnderIntermediateWithoutOID = try Self.issue(
            "Test Leaf Under It", oid: Self.leafOID, ca: false, issuer: intermediateWithoutOID)
    }

    /// The root's DER, as `STICKER_APPLE_ROOT_CERTS` would hold it.
    package var rootDER: [UInt8] { Self.der(root.certificate) }

    package static func issue(_ name: String, oid: ASN1ObjectIdentifier?, ca: Bool, issuer: Issued?) throws -> Issued {
        let key = P256.Signing.PrivateKey()
        let subject = try DistinguishedName {
            CommonName(name)
            OrganizationName("StickerCatalog tests")
        }
        let extensions = try Certificate.Extensions {
            Critical(ca ? BasicConstraints.isCertificateAuthority(maxPathLength: nil) : .notCertificateAuthority)
            if let oid {
                // Apple's marker extensions hold an ASN.1 NULL.
                Certificate.Extension(oid: oid, critical: false, value: [0x05, 0x00])
            }
        }
        let certificate = try Certificate(
            version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: notBefore,
            notValidAfter: notAfter,
            issuer: issuer?.certificate.subject ?? subject, subject: subject, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: extensions, issuerPrivateKey: .init(issuer?.key ?? key))
        return Issued(key: key, certificate: certificate, x5c: Data(der(certificate)).base64EncodedString())
    }

    package static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }
}
