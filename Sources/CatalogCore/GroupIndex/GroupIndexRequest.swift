import Foundation

/// What a client asks of the group index beyond its view (`ManifestQuery`): a name query, a page size and where the
/// walk stands.
package struct GroupIndexRequest: Sendable, Hashable {
    /// The name query, folded (`fold`); nil lists every group.
    package var q: String?
    package var limit: Int
    package var cursor: GroupCursor?
    /// Only these groups (`ids`): how a client that keeps some groups learns, in one request, which of them changed.
    package var ids: Set<String>?

    package static let defaultLimit = 100
    /// The most groups `ids` names.
    package static let maxIds = 100
    package static let maxLimit = 500
    /// Longer name queries (in Unicode code points, as JSON Schema counts) are refused: no group name is longer.
    package static let maxQueryLength = 100

    package init(q: String? = nil, limit: Int = GroupIndexRequest.defaultLimit, cursor: GroupCursor? = nil) {
        (self.q, self.limit, self.cursor) = (q.map(Self.fold), limit, cursor)
    }

    /// Parses `q`, `limit` and `cursor`, refusing any malformed value (`invalidParameter`) and a cursor that does not
    /// verify under `key` (`cursorExpired`).
    package init(parameters: [String: String], key: CursorKey) throws(CatalogError) {
        self.init()
        if let q = parameters["q"], !q.isEmpty {
            guard q.unicodeScalars.count <= Self.maxQueryLength,
                !q.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
            else {
                throw .invalidParameter(
                    name: "q", rule: "must be at most \(Self.maxQueryLength) characters without a control character")
            }
            let folded = Self.fold(q)
            self.q = folded.isEmpty ? nil : folded
        }
        let page = try GroupCursor.page(parameters, kind: GroupCursor.groups, maxLimit: Self.maxLimit, key: key)
        (limit, cursor) = (page.limit ?? limit, page.cursor)
        if let text = parameters["ids"] {
            let ids = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard (1...Self.maxIds).contains(ids.count), ids.allSatisfy(Validate.isSlug) else {
                throw .invalidParameter(name: "ids", rule: "must be 1 to \(Self.maxIds) group ids, split by commas")
            }
            self.ids = Set(ids)
        }
    }

    /// Whether the request lists group `id`.
    package func includes(_ id: String) -> Bool { ids?.contains(id) ?? true }

    /// Whether a group named `names` (its name in the view's language, its default name, its id) matches the query.
    package func matches(_ names: [String]) -> Bool {
        guard let q else { return true }
        return names.contains { Self.fold($0).contains(q) }
    }

    /// Text as the name query compares it: lowercase, without accents, trimmed.
    package static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
            .trimmingCharacters(in: .whitespaces)
    }
}
