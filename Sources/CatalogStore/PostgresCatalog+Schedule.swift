import CatalogCore
import Foundation
import PostgresNIO

extension PostgresCatalog: CatalogSchedule {
    /// The advisory lock `apply_schedule` holds exclusively and every catalog write shares ("SCHR").
    package static let scheduleLock: Int64 = 0x5343_4852
}
