import CatalogStore
import Synchronization
import TestSupport
import Testing

/// `/metrics` used to count the quarantine on the primary at every scrape; the tally counts at most once a minute and
/// follows this replica's own quarantines and prunings in between.
@Suite struct QuarantineTallyTests {
    @Test func scrapesWithinAMinuteCountOnceAndFollowLocalChanges() async throws {
        // Setup
        let clock = FakeClock()
        let tally = QuarantineTally(recount: .seconds(60), now: { clock.now })
        let counts = Mutex(0)
        let stored = Mutex(5)
        let count: @Sendable () async throws -> Int = {
            counts.withLock { $0 += 1 }
            return stored.withLock { $0 }
        }
        // Action: ten scrapes, a quarantine and a pruning of two in between.
        var seen: [Int] = []
        for scrape in 0..<10 {
            if scrape == 3 { tally.adjust(by: 1) }
            if scrape == 6 { tally.adjust(by: -2) }
            seen.append(try await tally.size(count: count))
            clock.advance(.seconds(1))
        }
        // Check: one count; the local changes show at once.
        #expect(counts.withLock { $0 } == 1)
        #expect(seen == [5, 5, 5, 6, 6, 6, 4, 4, 4, 4])
        // A minute on, other replicas' work is counted in.
        stored.withLock { $0 = 42 }
        clock.advance(.seconds(60))
        #expect(try await tally.size(count: count) == 42 && counts.withLock { $0 } == 2)
    }
}
