import CatalogCore

extension SearchIndex {
    /// The index of nothing, which `patched(to:)` makes the index of a snapshot.
    package static let empty = SearchIndex(
        snapshot: CatalogSnapshot(revision: -1, groups: [], stickers: [:], filters: [:]))

    /// This index made to show `snapshot`: groups whose texts and stickers' version are unchanged keep their postings;
    /// the others (and removed ones) are taken out and changed ones indexed again. Built afresh instead when unused
    /// slots would outnumber used ones, or locale ids run out.
    package func patched(to snapshot: CatalogSnapshot) -> SearchIndex {
        var next = self
        next.snapshot = snapshot
        var kept: [String: GroupEntry] = [:]
        var changed: [StickerGroup] = []
        for group in snapshot.groups {
            // The sticker count too: a version seen again after a rewind may name other rows, and slots past the
            // group's stickers would read out of range.
            if let entry = groups[group.id], let version = snapshot.contentVersions[group.id], entry.version == version,
                entry.name == group.name, entry.localizedNames == group.localizedNames,
                entry.slots.count == snapshot.stickers[group.id]?.count ?? 0
            {
                kept[group.id] = entry
            } else {
                changed.append(group)
            }
        }
        for (id, entry) in groups where kept[id] == nil { next.remove(entry) }
        for locale in snapshot.locales.sorted() where next.localeIds[locale] == nil {
            // Past 254 locales, further ones rank as default texts; when some id is held by a locale no longer in the
            // catalog, a patched index starts over to number them afresh.
            if next.localeIds.count >= 254 {
                if !groups.isEmpty, next.localeIds.keys.contains(where: { !snapshot.locales.contains($0) }) {
                    return Self.empty.patched(to: snapshot)
                }
                break
            }
            next.localeIds[locale] = UInt8(next.localeIds.count + 1)
        }
        let firstNewTerm = next.terms.count
        for group in changed {
            kept[group.id] = next.add(
                group, stickers: snapshot.stickers[group.id] ?? [], version: snapshot.contentVersions[group.id])
        }
        next.groups = kept
        next.index(newTerms: firstNewTerm..<next.terms.count)
        next.arrange()
        if !groups.isEmpty, next.members.count > 1024, next.members.count > 2 * next.slots.count {
            return Self.empty.patched(to: snapshot)
        }
        return next
    }

    /// Takes `entry`'s postings and emoji out; its slots stay unused.
    private mutating func remove(_ entry: GroupEntry) {
        for term in entry.terms { postings[Int(term)].removeAll { entry.slots.contains($0.slot) } }
        for key in entry.emoji {
            emoji[key]?.removeAll { entry.slots.contains($0) }
            if emoji[key]?.isEmpty == true { emoji[key] = nil }
        }
    }

    /// Indexes `group`'s stickers in new slots: names, keywords, its names in every locale, descriptions, emoji.
    private mutating func add(_ group: StickerGroup, stickers: [Sticker], version: Int64?) -> GroupEntry {
        let first = UInt32(members.count)
        members.append(contentsOf: repeatElement(.unused, count: stickers.count))
        var used = Set<Int32>()
        var emojiUsed = Set<String>()
        func post(_ term: String, _ slot: UInt32, _ field: Field, _ locale: UInt8) {
            let id = id(of: term)
            used.insert(id)
            postings[Int(id)].appendUnlessRepeated(Posting(slot: slot, field: field, locale: locale))
        }
        let groupNames =
            [(group.name, Self.defaultLocale)]
            + group.localizedNames.sorted { $0.key < $1.key }.map { ($1, localeIds[$0] ?? Self.defaultLocale) }
        let groupWords = groupNames.map { (SearchText.words($0.0, camelCase: true) + SearchText.compounds($0.0), $0.1) }
        for index in stickers.indices {
            let slot = first + UInt32(index)
            for (position, word) in SearchText.words(stickers[index].name, camelCase: true).enumerated() {
                post(word, slot, position == 0 ? .nameStart : .name, Self.neutralLocale)
            }
            for (position, word) in SearchText.compounds(stickers[index].name).enumerated() {
                post(word, slot, position == 0 ? .nameStart : .name, Self.neutralLocale)
            }
            for keyword in stickers[index].keywords {
                for word in SearchText.words(keyword) { post(word, slot, .keyword, Self.neutralLocale) }
            }
            for (words, locale) in groupWords {
                for word in words { post(word, slot, .groupName, locale) }
            }
            for word in SearchText.words(stickers[index].description) {
                post(word, slot, .description, Self.defaultLocale)
            }
            for (tag, text) in stickers[index].localizedDescriptions {
                for word in SearchText.words(text) {
                    post(word, slot, .description, localeIds[tag] ?? Self.defaultLocale)
                }
            }
            for text in stickers[index].emoji {
                for character in text where SearchText.isEmoji(character) {
                    let key = SearchText.normalizedEmoji(character)
                    if emoji[key]?.last != slot { emoji[key, default: []].append(slot) }
                    emojiUsed.insert(key)
                }
            }
        }
        return GroupEntry(
            name: group.name, localizedNames: group.localizedNames, version: version,
            slots: first..<first + UInt32(stickers.count), terms: Array(used), emoji: Array(emojiUsed))
    }

    /// The id of `term`, a new one the first time it is seen.
    private mutating func id(of term: String) -> Int32 {
        let bytes = Array(term.utf8)
        if let id = termIds[bytes] { return id }
        let id = Int32(terms.count)
        termIds[bytes] = id
        terms.append(bytes)
        postings.append([])
        return id
    }

    /// Merges terms `new` into the byte order and the typo keys (each sorted once, then merged in one pass).
    private mutating func index(newTerms new: Range<Int>) {
        guard !new.isEmpty else { return }
        let added = new.map(Int32.init).sorted { terms[Int($0)].lexicographicallyPrecedes(terms[Int($1)]) }
        sortedTerms = Self.merge(sortedTerms, added) { terms[Int($0)].lexicographicallyPrecedes(terms[Int($1)]) }
        var pairs: [(UInt64, Int32)] = []
        for id in added {
            let scalars = Array(String(decoding: terms[Int(id)], as: UTF8.self).unicodeScalars)
            guard (Self.typoMinimum - 1...Self.typoMaximum).contains(scalars.count),
                scalars.contains(where: { $0.properties.isAlphabetic })
            else { continue }
            for key in TypoKeys.keys(scalars) { pairs.append((key, id)) }
        }
        pairs.sort { $0.0 < $1.0 }
        let merged = Self.merge(Array(zip(typoKeys, typoTerms)), pairs) { $0.0 < $1.0 }
        (typoKeys, typoTerms) = (merged.map(\.0), merged.map(\.1))
    }

    /// Manifest order for this snapshot: each visible sticker's slot in order, each slot's place and sticker, and the
    /// flag bits of each (the catalog's flags, when there are at most 64).
    private mutating func arrange() {
        order = [UInt32](repeating: .max, count: members.count)
        for slot in members.indices { members[slot] = .unused }
        slots.removeAll(keepingCapacity: true)
        for (groupIndex, group) in snapshot.groups.enumerated() {
            guard let entry = groups[group.id] else { continue }
            for (index, slot) in entry.slots.enumerated() {
                members[Int(slot)] = Member(group: Int32(groupIndex), sticker: Int32(index))
                order[Int(slot)] = UInt32(slots.count)
                slots.append(slot)
            }
        }
        var flags = Set(snapshot.groups.flatMap(\.flags))
        for list in snapshot.stickers.values { for sticker in list { flags.formUnion(sticker.flags) } }
        // At most 63, so no mask is all ones: `mask(of:)` says "no sticker has these flags" with `.max`.
        guard flags.count <= 63 else {
            (flagBits, flagMasks) = ([:], nil)
            return
        }
        flagBits = Dictionary(uniqueKeysWithValues: flags.sorted().enumerated().map { ($1, $0) })
        var masks = [UInt64](repeating: 0, count: members.count)
        for slot in slots {
            let member = members[Int(slot)]
            let group = snapshot.groups[Int(member.group)]
            let sticker = snapshot.stickers[group.id]![Int(member.sticker)]
            masks[Int(slot)] = (group.flags + sticker.flags).reduce(0) { $0 | 1 << UInt64(flagBits[$1]!) }
        }
        flagMasks = masks
    }

    /// Two sorted arrays as one.
    private static func merge<T>(_ a: [T], _ b: [T], _ before: (T, T) -> Bool) -> [T] {
        guard !a.isEmpty else { return b }
        guard !b.isEmpty else { return a }
        var merged: [T] = []
        merged.reserveCapacity(a.count + b.count)
        var (i, j) = (0, 0)
        while i < a.count, j < b.count {
            if before(b[j], a[i]) {
                merged.append(b[j])
                j += 1
            } else {
                merged.append(a[i])
                i += 1
            }
        }
        merged.append(contentsOf: a[i...])
        merged.append(contentsOf: b[j...])
        return merged
    }
}

extension Array where Element == SearchIndex.Posting {
    /// Appends `posting` unless the last one says the same (a word twice in one text).
    fileprivate mutating func appendUnlessRepeated(_ posting: Element) {
        if let last, last.slot == posting.slot, last.field == posting.field, last.locale == posting.locale { return }
        append(posting)
    }
}
