import Foundation

/// How search reads text: folded (case, accents and width ignored, Unicode-normalised), cut into words and emoji.
/// Plain functions, so the index and every query agree on what a word is.
enum SearchText {
    /// `text` lowercased, without accents, full-width forms narrowed: `Crème` and `ＣＲＥＭＥ` both become `creme`.
    /// ASCII, nearly all of a catalog, takes a fast path without Foundation.
    static func folded(_ text: some StringProtocol) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            return String(decoding: text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
        }
        return String(text).precomposedStringWithCompatibilityMapping
            .folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .lowercased()
    }

    /// The words of `text`, folded: runs of letters and digits. `camelCase` also cuts where a lowercase letter meets
    /// an uppercase one, so the sticker name `ChocolateBar` is found by `bar`.
    static func words(_ text: String, camelCase: Bool = false) -> [String] {
        var words: [String] = []
        var current = ""
        var previousLower = false
        func flush() {
            if !current.isEmpty { words.append(folded(current)) }
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

    /// The emoji of `text`, each without skin tone or variation selector, so 👍🏽 is 👍 and ❤ is ❤️.
    static func emoji(_ text: String) -> [String] {
        text.filter(isEmoji).map { normalizedEmoji($0) }
    }

    /// An emoji as the index keys it: skin tones (U+1F3FB-1F3FF) and variation selectors (U+FE0E, U+FE0F) left out.
    static func normalizedEmoji(_ character: Character) -> String {
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: character.unicodeScalars.filter { !(0x1F3FB...0x1F3FF).contains($0.value) && $0.value != 0xFE0E && $0.value != 0xFE0F })
        return String(scalars)
    }

    /// Whether `character` is an emoji: a scalar shown as emoji by default, or any non-ASCII emoji scalar (❤ without
    /// its variation selector). Digits, `#` and `*` are emoji only in keycap sequences, which carry U+20E3.
    static func isEmoji(_ character: Character) -> Bool {
        character.unicodeScalars.contains { scalar in
            scalar.properties.isEmojiPresentation || (scalar.value > 0x7F && scalar.properties.isEmoji) || scalar.value == 0x20E3
        }
    }

    /// Whether `text` holds a control character (C0, DEL, C1): refused in queries.
    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
