import Foundation
import PostgresNIO

extension PostgresCatalog: CatalogSchedule {
    /// `apply_schedule` (sql/0013_schedules.sql): flips what `moment` makes visible or hidden, once whichever replica
    /// asks first, and names the next boundary.
    public func applySchedule(at moment: Date) async throws -> Date? {
        try await transaction("BEGIN") { connection in
            try await connection.first("SELECT apply_schedule(\(moment))", as: Date?.self, logger: logger) ?? nil
        }
    }
}
