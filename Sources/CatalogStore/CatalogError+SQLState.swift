import CatalogCore
import PostgresNIO

extension CatalogError {
    /// The one place where PostgreSQL's refusals become catalog errors: the SQLSTATE classes a client's data can
    /// cause, 22 (data exception) and 23 (integrity constraint violation). Validation runs first, so these are races
    /// between admins or rules only the database can check; the answer names the field, never PostgreSQL's DETAIL
    /// text (which can quote stored values). Anything else is not the client's doing and stays an error (a 500).
    package init?(refusal error: PSQLError) {
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return nil }
        let field = Self.field(constraint: error.serverInfo?[.constraintName], column: error.serverInfo?[.columnName])
        switch state {
        case "23505":
            self = .conflict(
                field == "id" ? "Something with this id already exists." : "The \(field) is already taken.")
        case "23503": self = .invalid(field, "refers to something that does not exist (any more)")
        case "23514" where field == "unpublishAt":
            self = .invalidSchedule([FieldIssue(field: field, message: "must be later than publishAt")])
        case let state where state.hasPrefix("23"): self = .invalid(field, "breaks a rule of the catalog")
        case let state where state.hasPrefix("22"): self = .invalid(field, "holds a value the database cannot store")
        default: return nil
        }
    }

    /// The API field a constraint or column stands for: `stickers_description_check` is `description`.
    package static func field(constraint: String?, column: String?) -> String {
        let known = [
            "sticker_groups_pkey": "id", "filters_pkey": "name", "sticker_groups_cover_fk": "coverStickerId",
            "stickers_group_id_fkey": "groupId", "stickers_asset_sha256_fkey": "file",
            "sticker_groups_schedule_check": "unpublishAt", "stickers_schedule_check": "unpublishAt",
        ]
        if let constraint, let field = known[constraint] { return field }
        let raw =
            column ?? constraint.map { name in
                var name = Substring(name)
                for table in ["sticker_groups_", "stickers_", "filters_", "assets_"] where name.hasPrefix(table) {
                    name = name.dropFirst(table.count)
                }
                for suffix in ["_check", "_key", "_unique", "_fkey"] where name.hasSuffix(suffix) {
                    name = name.dropLast(suffix.count)
                }
                return String(name)
            } ?? "request"
        let words = raw.split(separator: "_")
        return (words.first.map(String.init) ?? "request")
            + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}
