import CatalogCore

/// A query as search reads it: its folded words and its normalised emoji, each required; at most `limit` of them,
/// words first.
package struct SearchTerms: Hashable, Sendable {
    package let words: [String]
    package let emoji: [String]

    package init(_ text: String, limit: Int = .max) {
        var seen = Set<String>()
        // Cut at case changes as names are: `ChocolateBar` asks for both its parts (`chocolatebar` finds the whole
        // name).
        words = Array(SearchText.words(text, camelCase: true).filter { seen.insert($0).inserted }.prefix(limit))
        emoji = Array(SearchText.emoji(text).filter { seen.insert($0).inserted }.prefix(limit - words.count))
    }

    package var count: Int { words.count + emoji.count }
}

extension SearchIndex {
    /// How well one term matched one posting; lower is better. A name's first word exactly (a sticker named what was
    /// asked: `lemon` finds the sticker Lemon before one that only carries it as a keyword), then an exact keyword or
    /// emoji or a later word of a name, then a prefix of a name's first word, then prefixes of the rest of names (group
    /// names too) and of keywords, then descriptions; within each, a misspelt match after a true one, and a text in
    /// another locale than the one asked after the rest.
    package static func rank(_ posting: Posting, exact: Bool, typo: Bool, asked: UInt8) -> UInt8 {
        let tier: UInt8 =
            switch posting.field {
            case .nameStart: exact ? 0 : 2
            case .keyword, .name, .groupName: exact ? 1 : 3
            case .description: 4
            }
        let otherLocale = posting.locale != neutralLocale && posting.locale != asked
        return tier * 4 + (typo ? 2 : 0) + (otherLocale ? 1 : 0)
    }

    /// The stickers that match every word (as itself, as a prefix, or one edit away when it has `typoMinimum` letters)
    /// and every emoji of `terms` and carry the `required` flags: how many, and the `first` best of them as slots, best
    /// first (the sum of each term's rank), ties in manifest order. The work is bounded by the postings of the terms
    /// matched: the best are selected, not all the matches sorted.
    package func matches(
        _ terms: SearchTerms, required: Set<String>, locale: String?, first wanted: Int = .max
    ) -> (total: Int, best: [UInt32]) {
        guard terms.count > 0 else { return (0, []) }
        let asked = localeId(locale)
        // Raw buffers and no closure over mutable state: captured variables cost a dynamic exclusivity check on every
        // access, which perf showed as a third of a search's CPU at 100,000 stickers.
        let best = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: members.count)
        let total = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: members.count)
        defer {
            best.deallocate()
            total.deallocate()
        }
        best.initialize(repeating: .max)
        total.initialize(repeating: 0)
        var candidates: [UInt32] = []
        var first = true
        for number in 0..<terms.count {
            var touched: [UInt32] = []
            if number < terms.words.count {
                // A one-letter word is a prefix only as the last word (the one being typed): as any other, it would
                // walk every term with that letter, up to eight times a query.
                let word = terms.words[number]
                let prefix = number == terms.words.count - 1 || word.unicodeScalars.count > 1
                for (term, exact, typo) in matchedTerms(word, prefix: prefix) {
                    for posting in postings[Int(term)] {
                        let index = Int(posting.slot)
                        if best[index] == .max { touched.append(posting.slot) }
                        best[index] = min(best[index], Self.rank(posting, exact: exact, typo: typo, asked: asked))
                    }
                }
            } else {
                touched = emoji[terms.emoji[number - terms.words.count]] ?? []
                for slot in touched { best[Int(slot)] = 4 }  // an emoji: as an exact keyword
            }
            if first {
                candidates = touched
                for slot in touched { total[Int(slot)] = UInt16(best[Int(slot)]) }
                first = false
            } else {
                candidates.removeAll { best[Int($0)] == .max }
                for slot in candidates { total[Int(slot)] += UInt16(best[Int(slot)]) }
            }
            for slot in touched { best[Int(slot)] = .max }
            if candidates.isEmpty { return (0, []) }
        }
        let mask = mask(of: required)
        if mask == .max { return (0, []) }
        if !required.isEmpty { candidates.removeAll { !isSelected($0, required: required, mask: mask) } }
        // Rank, then place in manifest order, in one key: the `wanted` smallest are selected, then sorted.
        // A slot no group uses any more (`order` .max) has no postings; should one appear, it is left out, not shown.
        var keys = candidates.compactMap {
            order[Int($0)] == .max ? nil : UInt64(total[Int($0)]) << 32 | UInt64(order[Int($0)])
        }
        let found = keys.count
        if wanted < keys.count {
            Self.selectSmallest(&keys, wanted)
            keys.removeLast(keys.count - wanted)
        }
        keys.sort()
        return (found, keys.map { slots[Int($0 & 0xFFFF_FFFF)] })
    }

    /// Moves the `count` smallest of `keys` (distinct) to its front, in no order (Hoare's selection, linear on
    /// average).
    package static func selectSmallest(_ keys: inout [UInt64], _ count: Int) {
        guard count > 0, count < keys.count else { return }
        var (low, high) = (0, keys.count - 1)
        while low < high {
            let pivot = keys[low + (high - low) / 2]
            var (i, j) = (low, high)
            while i <= j {
                while keys[i] < pivot { i += 1 }
                while keys[j] > pivot { j -= 1 }
                if i <= j {
                    keys.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if count - 1 <= j { high = j } else if count - 1 >= i { low = i } else { return }
        }
    }

    /// The terms `word` matches: itself, the terms it begins, and those one edit away.
    private func matchedTerms(_ word: String, prefix: Bool = true) -> [(term: Int32, exact: Bool, typo: Bool)] {
        var matched: [(term: Int32, exact: Bool, typo: Bool)] = []
        let bytes = Array(word.utf8)
        var index = lowerBound(bytes)
        // Bounded: a short prefix of a large catalog begins tens of thousands of terms. The first in byte order are
        // kept (the exact term among them: it sorts first); typing one more letter narrows to the rest.
        while index < sortedTerms.count, matched.count < Self.maxPrefixTerms, case let term = sortedTerms[index],
            terms[Int(term)].starts(with: bytes)
        {
            let exact = terms[Int(term)].count == bytes.count
            guard prefix || exact else { break }  // the exact term sorts first
            matched.append((term, exact, false))
            index += 1
        }
        let scalars = Array(word.unicodeScalars)
        guard scalars.count >= Self.typoMinimum, scalars.count <= Self.typoMaximum else { return matched }
        var seen = Set<Int32>()
        for key in TypoKeys.keys(scalars) {
            var slot = typoLowerBound(key)
            while slot < typoKeys.count, typoKeys[slot] == key {
                let term = typoTerms[slot]
                slot += 1
                guard seen.insert(term).inserted, !terms[Int(term)].starts(with: bytes),
                    TypoKeys.isOneEditApart(
                        scalars, Array(String(decoding: terms[Int(term)], as: UTF8.self).unicodeScalars))
                else { continue }
                matched.append((term, false, true))
            }
        }
        return matched
    }

    /// The first term not before `bytes`.
    package func lowerBound(_ bytes: [UInt8]) -> Int {
        sortedTerms.insertionPoint { terms[Int($0)].lexicographicallyPrecedes(bytes) }
    }

    private func typoLowerBound(_ key: UInt64) -> Int {
        typoKeys.insertionPoint { $0 < key }
    }
}
