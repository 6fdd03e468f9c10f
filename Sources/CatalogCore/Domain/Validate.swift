/// Field rules shared by the admin API and the manifest query.
/// Plain byte checks, not regular expressions: the manifest query runs them on every request.
/// Lengths count Unicode code points, as PostgreSQL's `char_length` does, so a value Swift accepts is one the
/// database's CHECK constraints accept too.
package enum Validate {
    package static let maxListItems = 20
    package static let maxDescription = 150
    package static let maxName = 100
    /// A group's description: a line or two under its name in a browse list.
    package static let maxGroupDescription = 300
    /// Positions are PostgreSQL `integer`s; larger values are refused before any SQL.
    package static let maxPosition = Int(Int32.max)

    /// A URL-safe slug: lowercase letters, digits and inner dashes, 1 to 64 characters.
    package static func isSlug(_ s: String) -> Bool {
        let bytes = s.utf8
        return (1...64).contains(bytes.count) && bytes.first != dash && bytes.last != dash
            && bytes.allSatisfy { isLower($0) || isDigit($0) || $0 == dash }
    }

    /// A flag: one lowercase word (letters, digits, `-`, `_`) starting with a letter, at most 32 characters.
    package static func isFlag(_ s: String) -> Bool {
        let bytes = s.utf8
        guard let first = bytes.first, bytes.count <= 32 else { return false }
        return isLower(first) && bytes.allSatisfy { isLower($0) || isDigit($0) || $0 == dash || $0 == underscore }
    }

    /// An App Store product id: 1 to 100 letters, digits, dots, dashes or underscores.
    package static func isProductId(_ s: String) -> Bool {
        (1...100).contains(s.utf8.count)
            && s.utf8.allSatisfy {
                isLetter($0) || isDigit($0) || $0 == dash || $0 == underscore || $0 == UInt8(ascii: ".")
            }
    }

    /// Text of 1 to `maxLength` code points, with at least one visible character and no control characters
    /// (PostgreSQL cannot store U+0000 in text, and a label has no use for the others).
    package static func isText(_ s: String, maxLength: Int) -> Bool {
        var count = 0
        var visible = false
        for scalar in s.unicodeScalars {
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { return false }
            if !scalar.properties.isWhitespace { visible = true }
            count += 1
            if count > maxLength { return false }
        }
        return visible
    }

    /// A single emoji character.
    package static func isEmoji(_ s: String) -> Bool {
        s.count == 1
            && s.unicodeScalars.contains {
                $0.properties.isEmojiPresentation || ($0.properties.isEmoji && $0.value > 0xFF)
            }
    }

    private static let dash = UInt8(ascii: "-")
    private static let underscore = UInt8(ascii: "_")
    private static func isLower(_ b: UInt8) -> Bool { (97...122).contains(b) }
    private static func isLetter(_ b: UInt8) -> Bool { isLower(b) || (65...90).contains(b) }
    private static func isDigit(_ b: UInt8) -> Bool { (48...57).contains(b) }
}
