/// A query as search reads it: its folded words and its normalised emoji, each required; at most `limit` of them,
/// words first.
struct SearchTerms: Hashable, Sendable {
    let words: [String]
    let emoji: [String]

    init(_ text: String, limit: Int = .max) {
        var seen = Set<String>()
        words = Array(SearchText.words(text).filter { seen.insert($0).inserted }.prefix(limit))
        emoji = Array(SearchText.emoji(text).filter { seen.insert($0).inserted }.prefix(limit - words.count))
    }

    var count: Int { words.count + emoji.count }
}

extension SearchIndex {
    /// How well one term matched one posting; lower is better. Exact keyword or emoji, then a name's first word (the
    /// name's prefix), then the rest of names (group names too) and keywords' prefixes, then descriptions; within each, a
    /// misspelt match after a true one, and a text in another locale than the one asked after the rest.
    static func rank(_ posting: Posting, exact: Bool, typo: Bool, asked: UInt8) -> UInt8 {
        let tier: UInt8 = switch posting.field {
        case .keyword: exact ? 0 : 2
        case .nameStart: 1
        case .name, .groupName: 2
        case .description: 3
        }
        let otherLocale = posting.locale != neutralLocale && posting.locale != asked
        return tier * 4 + (typo ? 2 : 0) + (otherLocale ? 1 : 0)
    }

    /// The stickers that match every word (as itself, as a prefix, or one edit away when it has `typoMinimum` letters)
    /// and every emoji of `terms` and carry the `required` flags: slots, best first (the sum of each term's rank), ties
    /// in manifest order. The work is bounded by the postings of the terms matched, and a pass over the catalog's order
    /// only when most of it matched.
    func matches(_ terms: SearchTerms, required: Set<String>, locale: String?) -> [UInt32] {
        guard terms.count > 0 else { return [] }
        let asked = localeId(locale)
        // Raw buffers and no closure over mutable state: captured variables cost a dynamic exclusivity check on every
        // access, which perf showed as a third of a search's CPU at 100,000 stickers.
        let best = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: members.count)
        let total = UnsafeMutableBufferPointer<UInt16>.allocate(capacity: members.count)
        defer { best.deallocate(); total.deallocate() }
        best.initialize(repeating: .max)
        total.initialize(repeating: 0)
        var candidates: [UInt32] = []
        var first = true
        for number in 0..<terms.count {
            var touched: [UInt32] = []
            if number < terms.words.count {
                for (term, exact, typo) in matchedTerms(terms.words[number]) {
                    for posting in postings[Int(term)] {
                        let index = Int(posting.slot)
                        if best[index] == .max { touched.append(posting.slot) }
                        best[index] = min(best[index], Self.rank(posting, exact: exact, typo: typo, asked: asked))
                    }
                }
            } else {
                touched = emoji[terms.emoji[number - terms.words.count]] ?? []
                for slot in touched { best[Int(slot)] = 0 }
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
            if candidates.isEmpty { return [] }
        }
        let mask = mask(of: required)
        if mask == .max { return [] }
        if !required.isEmpty { candidates.removeAll { !isSelected($0, required: required, mask: mask) } }
        return ordered(candidates, UnsafeBufferPointer(total))
    }

    /// The terms `word` matches: itself, the terms it begins, and those one edit away.
    private func matchedTerms(_ word: String) -> [(term: Int32, exact: Bool, typo: Bool)] {
        var matched: [(term: Int32, exact: Bool, typo: Bool)] = []
        let bytes = Array(word.utf8)
        var index = lowerBound(bytes)
        while index < sortedTerms.count, case let term = sortedTerms[index], terms[Int(term)].starts(with: bytes) {
            matched.append((term, terms[Int(term)].count == bytes.count, false))
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
                      TypoKeys.isOneEditApart(scalars, Array(String(decoding: terms[Int(term)], as: UTF8.self).unicodeScalars)) else { continue }
                matched.append((term, false, true))
            }
        }
        return matched
    }

    /// Slots sorted by total rank, then manifest order: bucketed by rank, from a pass over the manifest order when most
    /// of the catalog matched (cheaper than sorting), else from the candidates sorted by their place.
    private func ordered(_ candidates: [UInt32], _ total: UnsafeBufferPointer<UInt16>) -> [UInt32] {
        guard let worst = candidates.lazy.map({ total[Int($0)] }).max() else { return [] }
        var buckets = [[UInt32]](repeating: [], count: Int(worst) + 1)
        if candidates.count > slots.count / 8 {
            var matched = [Bool](repeating: false, count: members.count)
            for slot in candidates { matched[Int(slot)] = true }
            for slot in slots where matched[Int(slot)] { buckets[Int(total[Int(slot)])].append(slot) }
        } else {
            for slot in candidates.sorted(by: { order[Int($0)] < order[Int($1)] }) where order[Int(slot)] != .max {
                buckets[Int(total[Int(slot)])].append(slot)
            }
        }
        return Array(buckets.joined())
    }

    /// The first term not before `bytes`.
    func lowerBound(_ bytes: [UInt8]) -> Int {
        sortedTerms.insertionPoint { terms[Int($0)].lexicographicallyPrecedes(bytes) }
    }

    private func typoLowerBound(_ key: UInt64) -> Int {
        typoKeys.insertionPoint { $0 < key }
    }
}
