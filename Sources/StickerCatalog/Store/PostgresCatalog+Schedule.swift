import Foundation
import PostgresNIO

extension PostgresCatalog: CatalogSchedule {
    /// The advisory lock `apply_schedule` holds exclusively and every catalog write shares ("SCHR").
    static let scheduleLock: Int64 = 0x5343_4852

    /// `apply_schedule` (sql/0013_schedules.sql): flips what `moment` makes visible or hidden, once whichever replica
    /// asks first, and names the next boundary.
    public func applySchedule(at moment: Date, maxLead: TimeInterval?) async throws -> Date? {
        let lead = maxLead.map { "\($0) seconds" }
        return try await transaction("BEGIN") { connection in
            try await connection.first("SELECT apply_schedule(\(moment), \(lead)::interval)", as: Date?.self, logger: logger) ?? nil
        }
    }
}
