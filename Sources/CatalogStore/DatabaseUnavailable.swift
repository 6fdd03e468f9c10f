import CatalogCore
import PostgresNIO

extension DatabaseUnavailable {
    /// True for errors that say the server or the connection is gone, rather than that a statement was wrong:
    /// connection failures, and the SQLSTATEs of class 08 (connection exception) and 57P01-57P03 (shutting down,
    /// starting up).
    package static func describes(_ error: any Error) -> Bool {
        if error is DatabaseUnavailable { return true }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported,
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
