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
    /// first (the sum of each term's rank), ties by `popularity` (a rank by slot, 0 the most sent) and then in manifest
    /// order. The work is bounded by the postings of the terms matched: the best are selected, not all the matches
    /// sorted.
    package func matches(
        _ terms: SearchTerms, required: Set<String>, locale: String?, first wanted: Int = .max,
        popularity: [UInt16]? = nil, hiding hidden: [Int32] = []
    ) -> (total: Int, best: [UInt32]) {
        guard terms.count > 0 else { return (0, []) }
        var scratch = MatchScratch(slots: members.count)
        defer { scratch.deallocate() }
        for number in 0..<terms.count {
            let touched: Int
            if number < terms.words.count {
                // A one-letter word is a prefix only as the last word (the one being typed): as any other, it would
                // walk every term with that letter, up to eight times a query.
                let word = terms.words[number]
                let prefix = number == terms.words.count - 1 || word.unicodeScalars.count > 1
                touched = rankPostings(of: matchedTerms(word, prefix: prefix), asked: localeId(locale), in: &scratch)
            } else {
                let slots = emoji[terms.emoji[number - terms.words.count]] ?? []
                scratch.reserveTouched(slots.count)
                for (place, slot) in slots.enumerated() {
                    scratch.best[Int(slot)] = 4  // an emoji: as an exact keyword
                    scratch.touched[place] = slot
                }
                touched = slots.count
            }
            if number == 0 { scratch.startCandidates(touched) } else { scratch.keepCandidates() }
            scratch.resetBest(touched)
            if scratch.candidateCount == 0 { return (0, []) }
        }
        let mask = mask(of: required)
        if mask == .max { return (0, []) }
        var candidates = Array(scratch.candidates.prefix(scratch.candidateCount))
        if !required.isEmpty { candidates.removeAll { !isSelected($0, required: required, mask: mask) } }
        // Restricted groups outside the caller's audience: not in the results, nor in their total.
        if !hidden.isEmpty { candidates.removeAll { hidden.contains(members[Int($0)].group) } }
        return best(of: candidates, totals: scratch.total, first: wanted, popularity: popularity)
    }

    /// Ranks every posting of `matched` into `scratch.best` (each slot's best rank for this word) and lists each slot
    /// touched once in `scratch.touched`; how many it touched. Branch-free: which slot comes next and whether it was
    /// seen is not predictable, and the mispredictions were a fifth of a search's CPU at 100,000 stickers.
    private func rankPostings(
        of matched: [(term: Int32, exact: Bool, typo: Bool)], asked: UInt8, in scratch: inout MatchScratch
    ) -> Int {
        scratch.reserveTouched(matched.reduce(0) { $0 + postings[Int($1.term)].count })
        let (best, touched) = (scratch.best, scratch.touched)
        var count = 0
        for (term, exact, typo) in matched {
            let ranks = Self.ranks(exact: exact, typo: typo)
            for posting in postings[Int(term)] {
                let index = Int(posting.slot)
                let old = best[index]
                touched[count] = posting.slot
                count &+= old == .max ? 1 : 0
                let other: UInt8 = posting.locale != Self.neutralLocale && posting.locale != asked ? 1 : 0
                best[index] = min(old, ranks[Int(posting.field.rawValue)] &+ other)
            }
        }
        return count
    }

    /// `rank` of a posting in each field, in the locale asked (one more in another), by `Field.rawValue`.
    private static func ranks(exact: Bool, typo: Bool) -> SIMD8<UInt8> {
        var ranks = SIMD8<UInt8>(repeating: .max)
        for field in [Field.keyword, .nameStart, .name, .groupName, .description] {
            ranks[Int(field.rawValue)] = rank(
                Posting(slot: 0, field: field, locale: neutralLocale), exact: exact, typo: typo, asked: neutralLocale)
        }
        return ranks
    }

    /// The `wanted` best of `candidates` by their totals, best first, ties by popularity then in manifest order; and how
    /// many there are. A slot no group uses any more (`order` .max) has no postings; should one appear, it is left
    /// out, not shown.
    private func best(
        of candidates: [UInt32], totals: UnsafeMutableBufferPointer<UInt16>, first wanted: Int, popularity: [UInt16]?
    ) -> (total: Int, best: [UInt32]) {
        // Rank, popularity, then place in manifest order, in one key: the `wanted` smallest are selected, then sorted.
        // A total is at most eight terms' ranks (under 200) and a place under 2^32.
        let popular = popularity?.count == members.count ? popularity : nil
        var keys = [UInt64](unsafeUninitializedCapacity: candidates.count) { keys, count in
            for slot in candidates {
                let place = order[Int(slot)]
                let rank = UInt64(popular?[Int(slot)] ?? .max)
                keys[count] = UInt64(totals[Int(slot)]) << 48 | rank << 32 | UInt64(place)
                count &+= place == .max ? 0 : 1
            }
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
    package func matchedTerms(_ word: String, prefix: Bool = true) -> [(term: Int32, exact: Bool, typo: Bool)] {
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
