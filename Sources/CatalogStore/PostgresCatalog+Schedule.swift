import CatalogCore
import Foundation
import PostgresNIO

/// `snapshot(at:)` (in PostgresCatalog+Reading.swift) previews what a schedule will show.
extension PostgresCatalog: CatalogSchedule {}
