import Foundation

/// Field rules shared by the admin API and the manifest query.
/// Plain byte checks, not regular expressions: the manifest query runs them on every request.
public enum Validate {
    public static let maxListItems = 20
    public static let maxDescription = 150

    /// A URL-safe slug: lowercase letters, digits and inner dashes, 1 to 64 characters.
    public static func isSlug(_ s: String) -> Bool {
        let bytes = s.utf8
        return (1...64).contains(bytes.count) && bytes.first != dash && bytes.last != dash
            && bytes.allSatisfy { isLower($0) || isDigit($0) || $0 == dash }
    }

    /// A flag: one lowercase word (letters, digits, `-`, `_`), at most 32 characters.
    public static func isFlag(_ s: String) -> Bool {
        let bytes = s.utf8
        return (1...32).contains(bytes.count) && isLower(bytes.first!)
            && bytes.allSatisfy { isLower($0) || isDigit($0) || $0 == dash || $0 == underscore }
    }

    /// A BCP 47-style language tag such as `fr`, `pt-BR` or `zh-Hant-TW`.
    public static func isLocale(_ s: String) -> Bool {
        let parts = s.utf8.split(separator: dash, omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: underscore, omittingEmptySubsequences: false) }
        guard let language = parts.first, (1...3).contains(parts.count), (2...3).contains(language.count),
              language.allSatisfy(isLetter) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { isLetter($0) || isDigit($0) } }
    }

    /// An App Store product id: 1 to 100 letters, digits, dots, dashes or underscores.
    public static func isProductId(_ s: String) -> Bool {
        (1...100).contains(s.utf8.count)
            && s.utf8.allSatisfy { isLetter($0) || isDigit($0) || $0 == dash || $0 == underscore || $0 == UInt8(ascii: ".") }
    }

    private static let dash = UInt8(ascii: "-")
    private static let underscore = UInt8(ascii: "_")
    private static func isLower(_ b: UInt8) -> Bool { (97...122).contains(b) }
    private static func isLetter(_ b: UInt8) -> Bool { isLower(b) || (65...90).contains(b) }
    private static func isDigit(_ b: UInt8) -> Bool { (48...57).contains(b) }

    /// A single emoji character.
    public static func isEmoji(_ s: String) -> Bool {
        s.count == 1 && s.unicodeScalars.contains { $0.properties.isEmojiPresentation || ($0.properties.isEmoji && $0.value > 0xFF) }
    }
}

/// Collects field errors so one answer can name every bad field.
public struct FieldErrors: Sendable {
    public private(set) var errors: [Problem.FieldError] = []

    public init() {}

    public mutating func check(_ ok: Bool, _ field: String, _ message: String) {
        if !ok { errors.append(.init(field: field, message: message)) }
    }

    public mutating func name(_ value: String, field: String = "name") {
        check(!value.trimmingCharacters(in: .whitespaces).isEmpty && value.count <= 100, field, "must be 1 to 100 characters")
    }

    public mutating func flags(_ values: [String], field: String = "flags") {
        check(values.count <= Validate.maxListItems && values.allSatisfy(Validate.isFlag), field,
              "must be at most \(Validate.maxListItems) lowercase words")
    }

    public mutating func localizations(_ values: [String: String], field: String, maxLength: Int) {
        check(values.keys.allSatisfy(Validate.isLocale), field, "keys must be language tags such as fr or pt-BR")
        check(values.values.allSatisfy { !$0.isEmpty && $0.count <= maxLength }, field, "values must be 1 to \(maxLength) characters")
    }

    /// Throws `validation_failed` naming every recorded field.
    public func throwIfAny() throws(Problem) {
        if !errors.isEmpty { throw Problem.validationFailed(errors) }
    }
}
