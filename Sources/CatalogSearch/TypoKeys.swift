/// One-edit matching by symmetric deletion: a word and each of its one-letter deletions hash to keys; two words one
/// edit apart (a letter added, dropped, changed, or two swapped) share a key, and `isOneEditApart` confirms the pair.
package enum TypoKeys {
    /// The word's own key and one per deleted letter, without repeats.
    package static func keys(_ scalars: [Unicode.Scalar]) -> [UInt64] {
        var keys = [hash(scalars, skipping: -1)]
        for index in scalars.indices {
            let key = hash(scalars, skipping: index)
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// FNV-1a over the scalars, leaving out the one at `skipping`.
    package static func hash(_ scalars: [Unicode.Scalar], skipping: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (index, scalar) in scalars.enumerated() where index != skipping {
            hash = (hash ^ UInt64(scalar.value)) &* 0x100_0000_01b3
        }
        return hash
    }

    /// Whether `a` becomes `b` by exactly one insertion, deletion, substitution or swap of neighbours.
    package static func isOneEditApart(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Bool {
        guard a != b, abs(a.count - b.count) <= 1 else { return false }
        let prefix = zip(a, b).prefix { $0 == $1 }.count
        let (restA, restB) = (a[prefix...], b[prefix...])
        if a.count == b.count {
            if restA.dropFirst().elementsEqual(restB.dropFirst()) { return true }  // a substitution
            return restA.count >= 2 && restA.first == restB.dropFirst().first && restB.first == restA.dropFirst().first
                && restA.dropFirst(2).elementsEqual(restB.dropFirst(2))  // neighbours swapped
        }
        return a.count > b.count ? restA.dropFirst().elementsEqual(restB) : restB.dropFirst().elementsEqual(restA)
    }
}
