import Foundation

/// Field rules shared by the admin API and the manifest query.
public enum Validate {
    public static let maxListItems = 20
    public static let maxDescription = 150

    /// A URL-safe slug: lowercase letters, digits and inner dashes, 1 to 64 characters.
    public static func isSlug(_ s: String) -> Bool {
        s.range(of: #"^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$"#, options: .regularExpression) != nil
    }

    /// A flag: one lowercase word (letters, digits, `-`, `_`), at most 32 characters.
    public static func isFlag(_ s: String) -> Bool {
        s.range(of: #"^[a-z][a-z0-9_-]{0,31}$"#, options: .regularExpression) != nil
    }

    /// A BCP 47-style language tag such as `fr`, `pt-BR` or `zh-Hant-TW`.
    public static func isLocale(_ s: String) -> Bool {
        s.range(of: #"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,2}$"#, options: .regularExpression) != nil
    }

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
