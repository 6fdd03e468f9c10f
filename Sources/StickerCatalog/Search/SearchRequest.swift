import Foundation

/// A search as a client asks it: the text, the manifest's view (filter, flags, size, scale, format, locale, what the
/// user unlocks), and the page. All validated: what reaches the index is bounded.
struct SearchRequest: Hashable, Sendable {
    static let maxCharacters = 100
    static let maxTerms = 8
    static let defaultLimit = 20
    static let maxLimit = 100

    /// The query as asked, trimmed: the answer echoes it.
    var text: String
    var terms: SearchTerms
    var view: ManifestQuery
    var limit: Int
    /// Results before this page.
    var offset: Int

    /// Parses `q`, `limit`, `cursor` and the manifest's view parameters, refusing any malformed one with
    /// `invalidParameter`.
    init(parameters: [String: String]) throws(CatalogError) {
        text = try Self.text(parameters["q"])
        terms = SearchTerms(text)
        guard terms.count > 0 else { throw .invalidParameter(name: "q", rule: "must contain a word or an emoji") }
        guard terms.count <= Self.maxTerms else { throw .invalidParameter(name: "q", rule: "must have at most \(Self.maxTerms) words and emoji") }
        var viewParameters = parameters
        viewParameters["q"] = nil
        view = try ManifestQuery(parameters: viewParameters)
        limit = Self.defaultLimit
        if let value = parameters["limit"] {
            guard let number = Int(value), (1...Self.maxLimit).contains(number) else {
                throw .invalidParameter(name: "limit", rule: "must be a whole number from 1 to \(Self.maxLimit)")
            }
            limit = number
        }
        offset = 0
        if let cursor = parameters["cursor"] {
            guard let value = SearchCursor.offset(cursor) else { throw .invalidParameter(name: "cursor", rule: "must be a cursor a search answer gave") }
            offset = value
        }
    }

    /// `q` trimmed, refused when missing, blank, longer than `maxCharacters` or holding a control character.
    static func text(_ raw: String?) throws(CatalogError) -> String {
        guard let raw else { throw .invalidParameter(name: "q", rule: "is required") }
        guard !SearchText.hasControl(raw) else { throw .invalidParameter(name: "q", rule: "must not contain control characters") }
        let text = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { throw .invalidParameter(name: "q", rule: "must not be empty") }
        guard text.count <= maxCharacters else { throw .invalidParameter(name: "q", rule: "must be at most \(maxCharacters) characters") }
        return text
    }
}

/// The opaque cursor of the next page: `s` and the offset, base64url, so clients pass it back and read nothing into it.
enum SearchCursor {
    static func encode(offset: Int) -> String {
        Data("s\(offset)".utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The offset in `cursor`, nil unless it is one `encode` made (at most a million results in).
    static func offset(_ cursor: String) -> Int? {
        guard cursor.utf8.count <= 16, cursor.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8), text.first == "s",
              let offset = Int(text.dropFirst()), offset > 0, offset <= 1_000_000, encode(offset: offset) == cursor else { return nil }
        return offset
    }
}
