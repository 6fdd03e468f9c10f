/// PostgreSQL cannot be reached (down, restarting, or not answering in time); HTTP answers 503 with `Retry-After`.
package struct DatabaseUnavailable: Error, CustomStringConvertible {
    package init(reason: String) { self.reason = reason }

    package let reason: String

    package var description: String { "The database is unavailable: \(reason)" }
}
