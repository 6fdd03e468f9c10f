/// Collects field issues so one answer can name every bad field.
package struct FieldErrors: Sendable {
    package private(set) var issues: [FieldIssue] = []

    package init() {}

    package mutating func check(_ ok: Bool, _ field: String, _ message: String) {
        if !ok { issues.append(FieldIssue(field: field, message: message)) }
    }

    package mutating func text(_ value: String, _ field: String, maxLength: Int) {
        check(
            Validate.isText(value, maxLength: maxLength), field,
            value.isEmpty ? "is required" : "must be 1 to \(maxLength) characters with no control characters")
    }

    package mutating func name(_ value: String, field: String = "name") {
        text(value, field, maxLength: Validate.maxName)
    }

    package mutating func flags(_ values: [String], field: String = "flags") {
        check(
            values.count <= Validate.maxListItems && values.allSatisfy(Validate.isFlag), field,
            "must be at most \(Validate.maxListItems) lowercase words")
    }

    /// Keys must be language tags (they are stored in canonical form, see `canonicalKeys`); values are texts.
    package mutating func localizations(_ values: [String: String], field: String, maxLength: Int) {
        check(
            values.keys.allSatisfy { LocaleTag.canonical($0) != nil }, field,
            "keys must be language tags such as fr or pt-BR")
        check(
            Set(values.keys.compactMap(LocaleTag.canonical)).count == values.count, field,
            "keys must name each language tag once (pt_BR and pt-BR are the same tag)")
        check(
            values.values.allSatisfy { Validate.isText($0, maxLength: maxLength) }, field,
            "values must be 1 to \(maxLength) characters with no control characters")
    }

    /// A group's description: empty (none), or text of at most `Validate.maxGroupDescription`; so are its translations.
    package mutating func groupDescription(_ value: String?, _ translations: [String: String]?) {
        if let value, !value.isEmpty { text(value, "description", maxLength: Validate.maxGroupDescription) }
        localizations(translations ?? [:], field: "localizedDescriptions", maxLength: Validate.maxGroupDescription)
    }

    package mutating func position(_ value: Int?) {
        guard let value else { return }
        check(
            (0...Validate.maxPosition).contains(value), "position",
            "must be an integer from 0 to \(Validate.maxPosition)")
    }

    /// An App Store product id: reverse-DNS-like, 1 to 100 characters.
    package mutating func productId(_ value: String?) {
        guard let value else { return }
        check(Validate.isProductId(value), "productId", "must be 1 to 100 letters, digits, dots, dashes or underscores")
    }

    /// Throws `CatalogError.invalid` naming every recorded field.
    /// Bad schedule moments, kept apart: alone, they are a malformed request rather than a field's content.
    package var scheduleIssues: [FieldIssue] = []

    /// Every bad field, as `invalid`; only schedule moments wrong, as `invalidSchedule`.
    package func throwIfAny() throws(CatalogError) {
        if !issues.isEmpty { throw .invalid(issues + scheduleIssues) }
        if !scheduleIssues.isEmpty { throw .invalidSchedule(scheduleIssues) }
    }
}

extension Dictionary where Key == String, Value == String {
    /// The same texts under canonical language tags (call after validation).
    package var canonicalKeys: [String: String] {
        Dictionary(map { (LocaleTag.canonical($0.key) ?? $0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}
