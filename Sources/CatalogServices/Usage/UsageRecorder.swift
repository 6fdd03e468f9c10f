import CatalogCore
import Foundation

/// Takes a client's batch of usage events into the tally: those naming a visible sticker, at a moment within the last
/// 48 hours (or at most the skew ahead), within the sender's allowance a minute, and within its bound per sticker,
/// action and hour (`UsageTally`, then the store across replicas). The rest are ignored or dropped silently: the
/// client's answer is the same either way, so it learns nothing of what exists.
///
/// The sender is its user when signed in, else its address: many users behind one carrier-grade NAT address each
/// count when signed in; anonymous ones share their address's allowance and bound (docs/usage.md says why).
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

    /// Holds what may be counted of `events` from `address` (or `user`, when signed in); how many were held.
    @discardableResult
    package func record(_ events: [UsageEvent], address: ClientAddress, user: String?) async throws -> Int {
        let directory = try await directories.current()
        let now = clock.now()
        let (oldest, latest) = (now.addingTimeInterval(-Self.maxAge), now.addingTimeInterval(Self.maxSkew))
        let source = user.map { "u:" + $0 } ?? address.description
        let arrived = UsageCount.hour(of: now)
        var uses: [(claim: UsageClaim.Key, hour: Int64, group: String)] = []
        uses.reserveCapacity(events.count)
        for event in events where event.at >= oldest && event.at <= latest {
            guard let place = directory.places[event.sticker] else { continue }
            let claim = UsageClaim.Key(source: source, arrived: arrived, action: event.action, sticker: event.sticker)
            uses.append((claim, UsageCount.hour(of: event.at), directory.snapshot.groups[Int(place.group)].id))
        }
        let ignored = events.count - uses.count
        let allowed = (user == nil ? perAddress : perUser).take(uses.count, for: source)
        let outcome = tally.add(Array(uses.prefix(allowed)))
        metrics.events(counted: outcome.held, ignored: ignored, dropped: uses.count - outcome.held)
        return outcome.held
    }
}
