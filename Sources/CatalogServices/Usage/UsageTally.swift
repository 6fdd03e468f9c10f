import CatalogCore
import Synchronization

/// Uses held in memory until the next flush, as claims: per source, sticker, action and hour of arrival, at most
/// `perSourceHour` uses (the rest are capped here already; the store caps again across replicas and flushes). Bounded
/// by claims: past `maxClaims` a new claim finds no room until the next flush drains the tally (the recorder counts
/// those uses dropped).
package final class UsageTally: Sendable {
    /// What `add` did with the uses it was given.
    package struct Outcome: Sendable, Equatable {
        package var held = 0
        /// Past their source's bound for the hour.
        package var capped = 0
        /// New claims that found the tally full.
        package var refused = 0

        package init(held: Int = 0, capped: Int = 0, refused: Int = 0) {
            (self.held, self.capped, self.refused) = (held, capped, refused)
        }
    }

    private struct Entry {
        var group: String
        var hours: [Int64]
    }

    package let perSourceHour: Int
    package let maxClaims: Int
    private let claims = Mutex<[UsageClaim.Key: Entry]>([:])

    package init(perSourceHour: Int = 3, maxClaims: Int = 500_000) {
        (self.perSourceHour, self.maxClaims) = (max(1, perSourceHour), maxClaims)
    }

    /// Holds each of `uses` (a claim, the hour the use names, the sticker's group) within its claim's bound.
    package func add(_ uses: [(claim: UsageClaim.Key, hour: Int64, group: String)]) -> Outcome {
        claims.withLock { claims in
            var outcome = Outcome()
            for (key, hour, group) in uses {
                if let count = claims[key]?.hours.count {
                    guard count < perSourceHour else {
                        outcome.capped += 1
                        continue
                    }
                    claims[key]!.hours.append(hour)
                } else if claims.count < maxClaims {
                    claims[key] = Entry(group: group, hours: [hour])
                } else {
                    outcome.refused += 1
                    continue
                }
                outcome.held += 1
            }
            return outcome
        }
    }

    /// Everything held so far, in chunks of at most `chunkSize` claims, and an empty tally behind it.
    package func drain(chunkSize: Int = 5_000) -> [UsageChunk] {
        let taken = claims.withLock { claims in
            defer { claims = [:] }
            return claims
        }
        let all = taken.map { UsageClaim(key: $0.key, group: $0.value.group, hours: $0.value.hours) }
        return stride(from: 0, to: all.count, by: max(1, chunkSize)).map {
            UsageChunk(claims: Array(all[$0..<min($0 + chunkSize, all.count)]))
        }
    }

    /// Claims waiting for the next flush.
    package var pending: Int { claims.withLock { $0.count } }
}
