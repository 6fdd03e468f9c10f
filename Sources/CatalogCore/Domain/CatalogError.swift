/// What the catalog refuses, in its own terms; HTTP alone turns these into problems (`Problem+Catalog.swift`).
package enum CatalogError: Error, Sendable, Equatable {
    /// `what` names the missing thing, such as "Group 'chewy'".
    case notFound(String)
    /// The change collides with what is stored (a taken id, say).
    case conflict(String)
    /// Fields that break a rule, each named.
    case invalid([FieldIssue])
    /// Schedule moments that cannot be (unparseable, out of range, an end not after its start), each named.
    case invalidSchedule([FieldIssue])
    /// A manifest filter the catalog does not define.
    case unknownFilter(String)
    /// A malformed query parameter and the rule it breaks.
    case invalidParameter(name: String, rule: String)
    /// A malformed request header and the rule it breaks (the same problem code as a parameter: they say one thing).
    case invalidHeader(name: String, rule: String)
    /// A change-feed cursor this catalog can no longer answer from (history pruned, another view, a filter redefined).
    case cursorExpired(String)
    /// An answer too large to make for every request (a whole manifest of a very large catalog), and what to ask for
    /// instead.
    case tooLarge(String)

    package static func invalid(_ field: String, _ message: String) -> CatalogError {
        .invalid([FieldIssue(field: field, message: message)])
    }
}

/// One bad field of a request and what is wrong with it.
package struct FieldIssue: Codable, Sendable, Equatable {
    package var field: String
    package var message: String

    package init(field: String, message: String) {
        self.field = field
        self.message = message
    }
}
