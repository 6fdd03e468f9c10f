import Foundation
import Synchronization

/// The next moment a schedule makes something appear or leave, as this replica last learned it (within a second).
package final class NextBoundary: Sendable {
    private let moment = Mutex<Date?>(nil)

    package init() {}

    package func set(_ next: Date?) { moment.withLock { $0 = next } }

    package var value: Date? { moment.withLock { $0 } }
}
