/// BCP 47 language tags as the catalog stores and matches them: `fr`, `pt-BR`, `zh-Hant-TW`.
package enum LocaleTag {
    /// The canonical form (`pt_br` and `PT-br` become `pt-BR`), or nil when `tag` is not a language of 2-3 letters
    /// followed by at most two subtags of 2-8 letters or digits.
    package static func canonical(_ tag: String) -> String? {
        let parts = tag.utf8.split(omittingEmptySubsequences: false) {
            $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_")
        }
        guard let language = parts.first, (1...3).contains(parts.count), (2...3).contains(language.count),
            language.allSatisfy(isLetter)
        else { return nil }
        var canonical = lowercased(language)
        for subtag in parts.dropFirst() {
            guard (2...8).contains(subtag.count), subtag.allSatisfy({ isLetter($0) || isDigit($0) }) else { return nil }
            canonical += "-"
            if subtag.count == 4, subtag.allSatisfy(isLetter) {
                canonical += lowercased(subtag).capitalizedFirst  // a script: Hant
            } else if subtag.count == 2, subtag.allSatisfy(isLetter) {
                canonical += lowercased(subtag).uppercased()  // a region: BR
            } else {
                canonical += lowercased(subtag)  // a numeric region (419) or a variant
            }
        }
        return canonical
    }

    /// The language subtag of a canonical tag: `pt` for `pt-BR`.
    package static func language(of tag: String) -> Substring {
        tag.prefix { $0 != "-" }
    }

    /// A canonical tag and each shorter prefix, longest first (RFC 4647 lookup): zh-Hant-TW, zh-Hant, zh.
    package static func lookupChain(_ tag: String) -> [String] {
        var chain = [tag]
        var rest = Substring(tag)
        while let dash = rest.lastIndex(of: "-") {
            rest = rest[..<dash]
            chain.append(String(rest))
        }
        return chain
    }

    private static func isLetter(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) }
    private static func isDigit(_ b: UInt8) -> Bool { (48...57).contains(b) }
    private static func lowercased(_ bytes: Substring.UTF8View.SubSequence) -> String {
        String(decoding: bytes.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}

extension String {
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
