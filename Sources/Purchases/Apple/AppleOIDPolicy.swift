import SwiftASN1
import X509

/// Apple's marks on an App Store signing chain: the leaf is a receipt signer (1.2.840.113635.100.6.11.1) and the
/// intermediate is Apple's WWDR CA (1.2.840.113635.100.6.2.1); the chain has exactly those two and the root.
struct AppleOIDPolicy: VerifierPolicy {
    static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]
    static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "the chain has \(chain.count) certificates, not 3")
        }
        guard chain[0].extensions.contains(where: { $0.oid == Self.leafOID }) else {
            return .failsToMeetPolicy(reason: "the leaf certificate lacks Apple's receipt signing OID")
        }
        guard chain[1].extensions.contains(where: { $0.oid == Self.intermediateOID }) else {
            return .failsToMeetPolicy(reason: "the intermediate certificate lacks Apple's WWDR OID")
        }
        return .meetsPolicy
    }
}
