import Foundation

/// One source's uses of one sticker by one action, in the hour they arrived: what the per-source bound is kept on.
/// A source adds at most a few such uses an hour (`UsageClaim.Key` across every replica), so one client, however much
/// it posts, moves a count by a handful. `hours` are the hours the uses name (an app may report a send late), at most
/// the bound's worth; the store counts the first ones the bound still allows.
package struct UsageClaim: Sendable, Hashable {
    package struct Key: Sendable, Hashable {
        /// A client address (`addr:` and the address, an IPv6 /64 for IPv6) or a signed-in user (`user:` and the id).
        /// Held in memory and sent to the store, which keeps only a salted digest of it for two hours.
        package var source: String
        /// Whole hours since 1970 (UTC) when the uses arrived.
        package var arrived: Int64
        package var action: UsageAction
        package var sticker: UUID

        package init(source: String, arrived: Int64, action: UsageAction, sticker: UUID) {
            (self.source, self.arrived, self.action, self.sticker) = (source, arrived, action, sticker)
        }
    }

    package var key: Key
    /// The group the sticker was in when counted.
    package var group: String
    /// The hours the uses name, in the order they came.
    package var hours: [Int64]

    package init(key: Key, group: String, hours: [Int64]) {
        (self.key, self.group, self.hours) = (key, group, hours)
    }
}

/// Claims written together, in one transaction, under one id: a retry of a chunk already written (its COMMIT's answer
/// lost) adds nothing.
package struct UsageChunk: Sendable, Identifiable {
    package var id: UUID
    package var claims: [UsageClaim]

    package init(id: UUID = UUID(), claims: [UsageClaim]) { (self.id, self.claims) = (id, claims) }

    /// Uses the chunk holds.
    package var uses: Int { claims.reduce(0) { $0 + $1.hours.count } }
}

/// What writing a chunk did: the uses counted (the rest were past their sources' bound, held by other replicas or
/// earlier flushes), or nothing, as the chunk had been written before.
package enum UsageChunkWrite: Sendable, Equatable {
    case written(counted: Int)
    case alreadyWritten
}
