import Foundation

/// Uses of one sticker in one hour by one action: all that is kept of usage. The group is the one the sticker was in
/// when counted, so a group's counts survive its stickers moving or going.
package struct UsageCount: Sendable, Hashable {
    package struct Key: Sendable, Hashable, Comparable {
        /// Whole hours since 1970 (UTC).
        package var hour: Int64
        package var action: UsageAction
        package var sticker: UUID

        package init(hour: Int64, action: UsageAction, sticker: UUID) {
            (self.hour, self.action, self.sticker) = (hour, action, sticker)
        }

        /// The order rows are written in: two replicas upserting the same buckets lock them in one order, so neither
        /// waits on the other in a cycle.
        package static func < (lhs: Key, rhs: Key) -> Bool {
            let (left, right) = (lhs.sticker.halves, rhs.sticker.halves)
            return (lhs.hour, lhs.action, left.0, left.1) < (rhs.hour, rhs.action, right.0, right.1)
        }
    }

    package var key: Key
    package var group: String
    package var count: Int64

    package init(key: Key, group: String, count: Int64) {
        (self.key, self.group, self.count) = (key, group, count)
    }

    /// The hour `date` falls in.
    package static func hour(of date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / 3600).rounded(.down))
    }
}

extension UUID {
    /// The 16 bytes as two big-endian numbers: byte order, as PostgreSQL orders uuids.
    var halves: (UInt64, UInt64) {
        withUnsafeBytes(of: uuid) { raw in
            (
                UInt64(bigEndian: raw.loadUnaligned(as: UInt64.self)),
                UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            )
        }
    }
}

/// How far back trending looks and how fast it forgets: an hour's sends count half as much `halfLife` hours later,
/// their age taken from the middle of the hour (the store's SQL applies it; `UsageStoreTests` checks it).
package enum TrendWindow: String, CaseIterable, Sendable, Hashable {
    case day, week

    package var halfLifeHours: Double { self == .day ? 6 : 48 }
    /// Sends older than this are not read: at eight half-lives they weigh under half a percent.
    package var lookbackHours: Int64 { self == .day ? 72 : 672 }
}
