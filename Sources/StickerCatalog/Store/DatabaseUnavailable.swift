import PostgresNIO

/// PostgreSQL cannot be reached (down, restarting, or not answering in time); HTTP answers 503 with `Retry-After`.
public struct DatabaseUnavailable: Error, CustomStringConvertible {
    public let reason: String

    public var description: String { "The database is unavailable: \(reason)" }

    /// True for errors that say the server or the connection is gone, rather than that a statement was wrong:
    /// connection failures, and the SQLSTATEs of class 08 (connection exception) and 57P01-57P03 (shutting down,
    /// starting up).
    static func describes(_ error: any Error) -> Bool {
        if error is DatabaseUnavailable { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed, .sslUnsupported,
             .failedToAddSSLHandler:
            return true
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
        default:
            return false
        }
    }
}
