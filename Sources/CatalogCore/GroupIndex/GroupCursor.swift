import Foundation

/// Where a walk through the group index stands: the catalog point the walk began at, the place in that point's order
/// of the last group sent, and that group's id. Opaque to clients (base64url of a small JSON object and its tag,
/// `CursorKey`), signed because answering a forged one costs a page build; it grants nothing (who sees what is judged
/// afresh on every page).
package struct GroupCursor: Codable, Sendable, Hashable {
    /// What the cursor pages through, so that no change cursor and no sticker cursor is read as one.
    package var kind: String
    /// The revision and stamp of the snapshot whose order the walk follows.
    package var revision: Int64
    package var stamp: Int64
    /// The place of the last item sent in that order, and its id (for a replica that no longer holds the order).
    package var index: Int
    package var after: String

    package static let groups = "groups"
    package static let stickers = "stickers"

    package init(kind: String = GroupCursor.groups, revision: Int64, stamp: Int64, index: Int, after: String) {
        (self.kind, self.revision, self.stamp, self.index, self.after) = (kind, revision, stamp, index, after)
    }

    /// The cursor as handed out, signed with `key`.
    package func encoded(with key: CursorKey) -> String {
        key.seal(text: Array((try? JSONEncoder.catalog.encode(self)) ?? Data()))
    }

    /// Parses a cursor of `kind`: `invalidParameter` for text no cursor could be, `cursorExpired` for one that does
    /// not verify under `key` or is of another kind (the client starts the walk again). The tag is checked before the
    /// JSON is read.
    package init(encoded: String, kind: String, key: CursorKey) throws(CatalogError) {
        try ChangeCursor.checkForm(encoded, parameter: "cursor")
        guard let json = key.open(text: encoded),
            let cursor = try? JSONDecoder().decode(Self.self, from: Data(json)),
            cursor.kind == kind, cursor.revision >= 0, cursor.index >= 0,
            Validate.isSlug(cursor.after)
                || UUID(uuidString: cursor.after) != nil
        else {
            throw .cursorExpired(
                "This cursor cannot be read (corrupted, not signed by this service, or from another version of it); start again from the first page."
            )
        }
        self = cursor
    }

    /// A page's `limit` (1 to `maxLimit`) and `cursor` of `kind` from query `parameters`, nil where absent:
    /// `invalidParameter` for a malformed one, `cursorExpired` for a cursor that does not verify.
    package static func page(
        _ parameters: [String: String], kind: String, maxLimit: Int, key: CursorKey
    ) throws(CatalogError) -> (limit: Int?, cursor: GroupCursor?) {
        var limit: Int?
        if let text = parameters["limit"] {
            guard let value = Int(text), (1...maxLimit).contains(value) else {
                throw .invalidParameter(name: "limit", rule: "must be a whole number from 1 to \(maxLimit)")
            }
            limit = value
        }
        return (
            limit,
            try parameters["cursor"].map { cursor throws(CatalogError) in
                try GroupCursor(encoded: cursor, kind: kind, key: key)
            }
        )
    }
}
