import CatalogCore

/// A search as a client asks it: the text, the manifest's view (filter, flags, size, scale, format, locale, what the
/// user unlocks), and the page. All validated: what reaches the index is bounded.
package struct SearchRequest: Hashable, Sendable {
    package static let maxCharacters = 100
    package static let maxTerms = 8
    package static let defaultLimit = 20
    package static let maxLimit = 100

    /// The query as asked, trimmed: the answer echoes it.
    package var text: String
    package var terms: SearchTerms
    package var view: ManifestQuery
    package var limit: Int
    /// Results before this page.
    package var offset: Int

    /// Parses `q`, `limit`, `cursor` and the manifest's view parameters, refusing any malformed one with
    /// `invalidParameter`.
    package init(parameters: [String: String]) throws(CatalogError) {
        text = try Self.text(parameters["q"])
        terms = SearchTerms(text, limit: Self.maxTerms)
        // A lone combining mark, punctuation: nothing to look up, and as a prefix it would match every term.
        guard terms.count > 0 else {
            throw .invalidParameter(name: "q", rule: "must hold a word or an emoji (this one folds to nothing)")
        }
        var viewParameters = parameters
        viewParameters["q"] = nil
        view = try ManifestQuery(parameters: viewParameters)
        (limit, offset) = try SearchCursor.page(parameters, defaultLimit: Self.defaultLimit, maxLimit: Self.maxLimit)
    }

    /// `q` trimmed, refused when missing, blank (spaces, or `+`: a form's encoding of them), longer than
    /// `maxCharacters` (code points, as JSON Schema's `maxLength` counts) or holding a control character. Words and emoji past `maxTerms` are not searched: no query costs more
    /// than eight lookups.
    package static func text(_ raw: String?) throws(CatalogError) -> String {
        guard let raw else { throw .invalidParameter(name: "q", rule: "is required") }
        guard !SearchText.hasControl(raw) else {
            throw .invalidParameter(name: "q", rule: "must not contain control characters")
        }
        guard raw.unicodeScalars.count <= maxCharacters else {
            throw .invalidParameter(name: "q", rule: "must be at most \(maxCharacters) characters")
        }
        // Unicode White_Space, as JSON Schema's `\s` reads it (Foundation's set also trims U+200B, which the pattern
        // allows).
        let scalars = raw.unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars.lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) } ?? start
        let text = String(scalars[start..<max(start, end)])
        guard text.unicodeScalars.contains(where: { $0 != "+" && !$0.properties.isWhitespace }) else {
            throw .invalidParameter(name: "q", rule: "must not be empty")
        }
        return text
    }
}

/// The opaque cursor of the next page: `o` and the offset. Clients pass it back and read nothing into it; its form is
/// simple enough for openapi.yaml's pattern to say exactly which cursors exist.
package enum SearchCursor {
    package static let maxOffset = 999_999

    package static func encode(offset: Int) -> String { "o\(offset)" }

    /// `limit` (`defaultLimit` when absent) and the offset `cursor` names (0 when absent), each refused when malformed.
    package static func page(
        _ parameters: [String: String], defaultLimit: Int, maxLimit: Int
    ) throws(CatalogError) -> (limit: Int, offset: Int) {
        var limit = defaultLimit
        if let value = parameters["limit"] {
            guard let number = Int(value), (1...maxLimit).contains(number) else {
                throw .invalidParameter(name: "limit", rule: "must be a whole number from 1 to \(maxLimit)")
            }
            limit = number
        }
        guard let cursor = parameters["cursor"] else { return (limit, 0) }
        guard let offset = offset(cursor) else {
            throw .invalidParameter(name: "cursor", rule: "must be a cursor a previous answer gave")
        }
        return (limit, offset)
    }

    /// The offset in `cursor`, nil unless it is one `encode` makes.
    package static func offset(_ cursor: String) -> Int? {
        guard cursor.utf8.count <= 7, cursor.first == "o", let offset = Int(cursor.dropFirst()),
            (1...maxOffset).contains(offset),
            encode(offset: offset) == cursor
        else { return nil }
        return offset
    }
}
