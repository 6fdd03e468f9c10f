import Crypto
import Foundation
import JWTKit
import Synchronization
import X509

/// Certificate chains that passed `X5CVerifier` and Apple's policy, by their exact x5c header, with the leaf's key:
/// a JWS carrying the same chain is checked with that key alone while the chain is valid at its date. Apple's own
/// library keeps the same cache (32 chains, 15 minutes), since the App Store signs with one leaf for months and
/// checking the chain again (parsing three certificates, two more ECDSA verifications) is most of the work.
final class VerifiedChains: Sendable {
    struct Entry: Sendable {
        let leafKey: JWTKeyCollection
        /// When every certificate of the chain is valid.
        let validity: ClosedRange<Date>
        let verifiedAt: ContinuousClock.Instant
    }

    static let capacity = 32
    static let lifetime = Duration.seconds(15 * 60)
    private let entries = Mutex<[String: Entry]>([:])

    /// The leaf key of `chain` when it was verified lately and is valid at `date`.
    func key(for chain: [String], at date: Date) -> JWTKeyCollection? {
        let key = chain.joined(separator: ",")
        return entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard ContinuousClock.now - entry.verifiedAt < Self.lifetime else {
                entries[key] = nil
                return nil
            }
            return entry.validity.contains(date) ? entry.leafKey : nil
        }
    }

    /// Remembers `chain` (leaf first, base64 DER), which just passed verification.
    func remember(_ chain: [String]) async {
        guard
            let certificates = try? chain.map({ try Certificate(derEncoded: Array(Data(base64Encoded: $0) ?? Data())) }
            ),
            let leaf = certificates.first, let p256 = P256.Signing.PublicKey(leaf.publicKey),
            let leafKey = try? ES256PublicKey(backing: p256)
        else { return }
        let from = certificates.map(\.notValidBefore).max() ?? .distantPast
        let until = certificates.map(\.notValidAfter).min() ?? .distantFuture
        guard from <= until else { return }
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: leafKey)
        let entry = Entry(leafKey: keys, validity: from...until, verifiedAt: .now)
        entries.withLock { entries in
            if entries.count >= Self.capacity,
                let oldest = entries.min(by: { $0.value.verifiedAt < $1.value.verifiedAt })?.key
            {
                entries[oldest] = nil
            }
            entries[chain.joined(separator: ",")] = entry
        }
    }
}
