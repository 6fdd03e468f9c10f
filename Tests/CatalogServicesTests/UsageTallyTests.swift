import CatalogCore
import CatalogServices
import Foundation
import Testing

/// The tally and the allowance, in memory: bounds, refills, draining and restoring.
@Suite struct UsageTallyTests {
    @Test func theTallySumsPerBucketAndRefusesNewBucketsPastItsBound() {
        let tally = UsageTally(maxBuckets: 2)
        let (a, b, c) = (UUID(), UUID(), UUID())
        let key = { (sticker: UUID) in UsageCount.Key(hour: 7, action: .sent, sticker: sticker) }
        #expect(tally.add([(key(a), "g"), (key(a), "g"), (key(b), "g"), (key(c), "g")]) == 1)
        #expect(tally.add([(key(a), "g")]) == 0)  // an existing bucket always grows
        let drained = tally.drain().sorted { $0.count > $1.count }
        #expect(drained.map(\.count) == [3, 1] && drained.map(\.key.sticker) == [a, b])
        #expect(tally.pending == 0 && tally.drain().isEmpty)
        // A failed flush puts its counts back, added to what came meanwhile.
        _ = tally.add([(key(a), "g")])
        #expect(tally.restore(drained) == 0)
        #expect(tally.drain().first { $0.key.sticker == a }?.count == 4)
    }

    @Test func anAllowanceGivesAMinutesWorthThenRefillsAtItsRate() {
        let allowance = UsageAllowance(perMinute: 60, maxSources: 2)
        let start = ContinuousClock.now
        #expect(allowance.take(100, for: "a", now: start) == 60)
        #expect(allowance.take(10, for: "a", now: start) == 0)
        #expect(allowance.take(10, for: "a", now: start + .seconds(5)) == 5)  // one a second
        #expect(allowance.take(10, for: "b", now: start) == 10)  // another source, its own bucket
        // A third source while both are busy gets nothing; once one has refilled, it is forgotten and room is made.
        #expect(allowance.take(10, for: "c", now: start + .seconds(10)) == 0)
        #expect(allowance.take(10, for: "c", now: start + .seconds(70)) == 10)
        #expect(allowance.sources <= 2)
    }

    @Test func keysSortAsPostgreSQLOrdersThem() {
        let low = UUID(uuidString: "00000000-0000-0000-0000-0000000000ff")!
        let high = UUID(uuidString: "ff000000-0000-0000-0000-000000000000")!
        let keys = [
            UsageCount.Key(hour: 2, action: .sent, sticker: low), .init(hour: 1, action: .viewed, sticker: low),
            .init(hour: 1, action: .sent, sticker: high), .init(hour: 1, action: .sent, sticker: low),
        ]
        #expect(keys.sorted() == [keys[3], keys[2], keys[1], keys[0]])
    }
}
