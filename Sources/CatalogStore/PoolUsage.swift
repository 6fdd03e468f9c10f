import Synchronization

/// Connections in use and callers waiting for one, for `/metrics`. Each caller's wait and use are counted once,
/// whichever comes first of getting a connection and giving up.
package final class PoolUsage: Sendable {
    private let counts = Mutex<(inUse: Int, waiting: Int)>((0, 0))

    /// One caller: 0 waiting, 1 holding a connection, 2 done.
    package final class Ticket: Sendable {
        fileprivate let stage = Mutex(0)
    }

    package var current: (inUse: Int, waiting: Int) { counts.withLock { $0 } }

    package func waiting() -> Ticket {
        counts.withLock { $0.waiting += 1 }
        return Ticket()
    }

    package func acquired(_ ticket: Ticket) {
        ticket.stage.withLock { stage in
            guard stage == 0 else { return }
            stage = 1
            counts.withLock {
                $0.waiting -= 1
                $0.inUse += 1
            }
        }
    }

    package func finished(_ ticket: Ticket) {
        ticket.stage.withLock { stage in
            switch stage {
            case 0: counts.withLock { $0.waiting -= 1 }
            case 1: counts.withLock { $0.inUse -= 1 }
            default: break
            }
            stage = 2
        }
    }
}
