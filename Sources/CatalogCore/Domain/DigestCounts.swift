/// A set of image digests that counts how often each was added, so that a snapshot read after a change removes what
/// the changed groups showed and adds what they show now, without going through every other group's images again.
package struct DigestCounts: Sendable, Equatable {
    private var counts: [AssetDigest: Int32] = [:]

    package init() {}

    package init(_ digests: [AssetDigest]) {
        add(digests)
    }

    package func contains(_ digest: AssetDigest) -> Bool { counts[digest] != nil }

    /// Distinct digests.
    package var count: Int { counts.count }

    mutating func add(_ digests: [AssetDigest]) {
        for digest in digests { counts[digest, default: 0] += 1 }
    }

    mutating func remove(_ digests: [AssetDigest]) {
        for digest in digests {
            guard let count = counts[digest] else { continue }
            counts[digest] = count > 1 ? count - 1 : nil
        }
    }
}
