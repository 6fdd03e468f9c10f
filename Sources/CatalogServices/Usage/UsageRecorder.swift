import CatalogCore
import Foundation

/// Takes a client's batch of usage events into the tally: those naming a visible sticker, at a moment within the last
/// 48 hours (or at most the skew ahead), and within the sender's allowance (its address's, and its user's when signed
/// in). The rest are ignored or dropped silently: the client's answer is the same either way, so it learns nothing of
/// what exists. Only counts are kept; who sent them goes no further than the allowance's bucket.
package final class UsageRecorder: Sendable {
    package static let maxAge: TimeInterval = 48 * 3600
    package static let maxSkew: TimeInterval = 300

    package let directories: StickerDirectories
    package let tally: UsageTally
    package let perAddress: UsageAllowance
    package let perUser: UsageAllowance
    package let clock: any ScheduleClock
    package let metrics: UsageMetrics

    package init(
        directories: StickerDirectories, tally: UsageTally, perAddress: UsageAllowance, perUser: UsageAllowance,
        clock: any ScheduleClock = SystemScheduleClock(), metrics: UsageMetrics = .none
    ) {
        (self.directories, self.tally, self.perAddress, self.perUser) = (directories, tally, perAddress, perUser)
        (self.clock, self.metrics) = (clock, metrics)
    }

    /// Counts what may be counted of `events` from `address` (and `user`); how many were counted.
    @discardableResult
    package func record(_ events: [UsageEvent], address: ClientAddress, user: String?) async throws -> Int {
        let directory = try await directories.current()
        let now = clock.now()
        let oldest = now.addingTimeInterval(-Self.maxAge)
        let latest = now.addingTimeInterval(Self.maxSkew)
        var uses: [(key: UsageCount.Key, group: String)] = []
        uses.reserveCapacity(events.count)
        for event in events where event.at >= oldest && event.at <= latest {
            guard let place = directory.places[event.sticker] else { continue }
            let group = directory.snapshot.groups[Int(place.group)].id
            uses.append(
                (
                    UsageCount.Key(hour: UsageCount.hour(of: event.at), action: event.action, sticker: event.sticker),
                    group
                ))
        }
        let ignored = events.count - uses.count
        var allowed = perAddress.take(uses.count, for: address.description)
        if let user { allowed = perUser.take(allowed, for: user) }
        let refused = tally.add(Array(uses.prefix(allowed)))
        metrics.events(counted: allowed - refused, ignored: ignored, dropped: uses.count - allowed + refused)
        return allowed - refused
    }
}
