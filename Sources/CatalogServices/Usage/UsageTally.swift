import CatalogCore
import Synchronization

/// Events summed in memory until the next flush: a count per sticker, hour and action (the group beside it). Bounded
/// by buckets, not events: at most every visible sticker times the hours an event may name (48 plus the skew) times
/// three actions, and never more than `maxBuckets`; past it new buckets are refused (the recorder counts them dropped).
package final class UsageTally: Sendable {
    private struct Bucket {
        var group: String
        var count: Int64
    }

    package let maxBuckets: Int
    private let buckets = Mutex<[UsageCount.Key: Bucket]>([:])

    package init(maxBuckets: Int = 1_000_000) { self.maxBuckets = maxBuckets }

    /// Adds one use of each of `uses`; how many found no room.
    package func add(_ uses: [(key: UsageCount.Key, group: String)]) -> Int {
        buckets.withLock { buckets in
            var refused = 0
            for (key, group) in uses {
                if buckets[key] != nil {
                    buckets[key]!.count += 1
                } else if buckets.count < maxBuckets {
                    buckets[key] = Bucket(group: group, count: 1)
                } else {
                    refused += 1
                }
            }
            return refused
        }
    }

    /// Everything summed so far, and an empty tally behind it.
    package func drain() -> [UsageCount] {
        let taken = buckets.withLock { buckets in
            defer { buckets = [:] }
            return buckets
        }
        return taken.map { UsageCount(key: $0.key, group: $0.value.group, count: $0.value.count) }
    }

    /// Puts back counts a flush could not write, to go with the next one (what finds no room is lost; how many).
    @discardableResult
    package func restore(_ counts: [UsageCount]) -> Int {
        buckets.withLock { buckets in
            var lost = 0
            for count in counts {
                if buckets[count.key] != nil {
                    buckets[count.key]!.count += count.count
                } else if buckets.count < maxBuckets {
                    buckets[count.key] = Bucket(group: count.group, count: count.count)
                } else {
                    lost += 1
                }
            }
            return lost
        }
    }

    /// Buckets waiting for the next flush.
    package var pending: Int { buckets.withLock { $0.count } }
}
