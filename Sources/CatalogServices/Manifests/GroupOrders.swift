import CatalogCore
import Synchronization

/// The order of the groups at each recent catalog point, so that a walk through the group index that began at one
/// point goes on in its order after the catalog changed (`GroupIndexPage.build`). Cheap: 2,000 groups are some 40 KB
/// of ids. Bounded in bytes, least recently used first out; keyed by revision and stamp, so an order of a history a
/// rewind took away is never found.
package final class GroupOrders: Sendable {
    private struct Point: Hashable {
        let revision: Int64
        let stamp: Int64
    }

    private let orders: Mutex<ByteLRU<Point, [String]>>

    package init(capacity: Int = 4 << 20) {
        orders = Mutex(ByteLRU(capacity: capacity))
    }

    /// Keeps the order of `snapshot`'s groups.
    package func keep(_ snapshot: CatalogSnapshot) {
        let ids = snapshot.groups.map(\.id)
        let cost = ids.reduce(64) { $0 + 16 + max(0, $1.utf8.count - 15) }
        orders.withLock { $0.insert(ids, for: Point(revision: snapshot.revision, stamp: snapshot.stamp), cost: cost) }
    }

    /// The order kept for the point a cursor names, if any.
    package func order(revision: Int64, stamp: Int64) -> [String]? {
        orders.withLock { $0.value(for: Point(revision: revision, stamp: stamp)) }
    }
}
