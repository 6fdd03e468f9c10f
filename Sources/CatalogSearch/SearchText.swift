import Foundation

/// How search reads text: folded (case, accents and width ignored, Unicode-normalised), cut into words and emoji.
/// Plain functions, so the index and every query agree on what a word is.
package enum SearchText {
    /// `text` lowercased, without accents, full-width forms narrowed: `Crème` and `ＣＲＥＭＥ` both become `creme`.
    /// ASCII, nearly all of a catalog, takes a fast path without Foundation.
    package static func folded(_ text: some StringProtocol) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        }
        return String(text).precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
    }

    /// The words of `text`, folded: runs of letters and digits. `camelCase` also cuts where a lowercase letter meets
    /// an uppercase one, so the sticker name `ChocolateBar` is found by `bar`.
    package static func words(_ text: String, camelCase: Bool = false) -> [String] {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text, camelCase: camelCase) }
        var words: [String] = []
        var current = ""
        var previousLower = false
        func flush() {
            // A lone combining mark can count as a letter and fold to nothing: an empty word would prefix every term.
            if !current.isEmpty, case let word = folded(current), !word.isEmpty { words.append(word) }
            current = ""
        }
        for character in text {
            guard character.isLetter || character.isNumber, !isEmoji(character) else {
                flush()
                previousLower = false
                continue
            }
            if camelCase, previousLower, character.isUppercase { flush() }
            current.append(character)
            previousLower = character.isLowercase
        }
        flush()
        return words
    }

    /// The words of a name that `words(_:camelCase:)` cuts in parts, whole (`chocolatebar` for `ChocolateBar`), so a
    /// name typed as one word is found too.
    package static func compounds(_ text: String) -> [String] {
        let parts = Set(words(text, camelCase: true))
        return words(text).filter { !parts.contains($0) }
    }

    /// `words` for ASCII text, byte by byte: nearly every text of a catalog, read once per revision for the index.
    private static func asciiWords(_ text: String, camelCase: Bool) -> [String] {
        var words: [String] = []
        var current: [UInt8] = []
        var previousLower = false
        for byte in text.utf8 {
            let upper = (65...90).contains(byte)
            let lower = (97...122).contains(byte)
            let digit = (48...57).contains(byte)
            guard upper || lower || digit else {
                if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
                current.removeAll(keepingCapacity: true)
                previousLower = false
                continue
            }
            if camelCase, previousLower, upper, !current.isEmpty {
                words.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            }
            current.append(upper ? byte + 32 : byte)
            previousLower = lower
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }

    /// The emoji of `text`, each without skin tone or variation selector, so 👍🏽 is 👍 and ❤ is ❤️.
    package static func emoji(_ text: String) -> [String] {
        text.filter(isEmoji).map { normalizedEmoji($0) }
    }

    /// An emoji as the index keys it: skin tones (U+1F3FB-1F3FF) and variation selectors (U+FE0E, U+FE0F) left out.
    package static func normalizedEmoji(_ character: Character) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(
            contentsOf: character.unicodeScalars.filter {
                !(0x1F3FB...0x1F3FF).contains($0.value) && $0.value != 0xFE0E && $0.value != 0xFE0F
            })
        return String(scalars)
    }

    /// Whether `character` is an emoji: a scalar shown as emoji by default, or any non-ASCII emoji scalar (❤ without
    /// its variation selector). Digits, `#` and `*` are emoji only in keycap sequences, which carry U+20E3.
    package static func isEmoji(_ character: Character) -> Bool {
        character.unicodeScalars.contains { scalar in
            scalar.properties.isEmojiPresentation || (scalar.value > 0x7F && scalar.properties.isEmoji)
                || scalar.value == 0x20E3
        }
    }

    /// Whether `text` holds a control character (C0, DEL, C1): refused in queries.
    package static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
