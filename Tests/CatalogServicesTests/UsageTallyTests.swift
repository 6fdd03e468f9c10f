import CatalogCore
import CatalogServices
import Foundation
import Testing

/// The tally and the allowance, in memory: a source's bound per sticker and hour, the tally's bound, draining in chunks,
/// a sliding window per source that cannot be filled.
@Suite struct UsageTallyTests {
    static func use(
        _ source: String, _ sticker: UUID, arrived: Int64 = 100, hour: Int64 = 99
    ) -> (
        claim: UsageClaim.Key, hour: Int64, group: String
    ) {
        (UsageClaim.Key(source: source, arrived: arrived, action: .sent, sticker: sticker), hour, "g")
    }

    @Test func aSourceAddsAtMostItsBoundPerStickerAndHourWhateverItSends() {
        let tally = UsageTally(perSourceHour: 3)
        let (a, b) = (UUID(), UUID())
        // 13 batches of 100 sends of one sticker from one address: 3 held.
        let held = (0..<13).map { _ in tally.add(Array(repeating: Self.use("203.0.113.9", a), count: 100)).held }
        #expect(held.reduce(0, +) == 3 && held.first == 3)
        // Another sticker, another source, the next hour: each its own bound.
        #expect(tally.add([Self.use("203.0.113.9", b), Self.use("198.51.100.1", a)]).held == 2)
        #expect(tally.add(Array(repeating: Self.use("203.0.113.9", a, arrived: 101), count: 5)).held == 3)
        let claims = tally.drain().flatMap(\.claims)
        #expect(claims.count == 4 && claims.reduce(0) { $0 + $1.hours.count } == 8)
        #expect(tally.pending == 0 && tally.drain().isEmpty)
    }

    @Test func aFullTallyRefusesNewClaimsAndDrainsInChunks() {
        let tally = UsageTally(perSourceHour: 2, maxClaims: 3)
        let stickers = (0..<4).map { _ in UUID() }
        let outcome = tally.add(stickers.map { Self.use("s", $0) } + [Self.use("s", stickers[0])])
        #expect(outcome == .init(held: 4, capped: 0, refused: 1))
        let chunks = tally.drain(chunkSize: 2)
        #expect(chunks.map(\.claims.count) == [2, 1] && chunks.map(\.uses).reduce(0, +) == 4)
        #expect(Set(chunks.map(\.id)).count == 2)
    }

    @Test func anAllowanceGivesAMinutesWorthThenSlidesOn() {
        let start = ContinuousClock.now
        let allowance = UsageAllowance(perMinute: 60, now: start)
        #expect(allowance.take(100, for: "a", now: start) == 60)
        #expect(allowance.take(10, for: "a", now: start + .seconds(30)) == 0)
        #expect(allowance.take(10, for: "b", now: start) == 10)  // another source, its own count
        // A minute on, half of last minute's 60 still weighs on "a" after 30 s of the new one.
        #expect(allowance.take(100, for: "a", now: start + .seconds(90)) == 30)
        #expect(allowance.take(100, for: "a", now: start + .seconds(200)) == 60)  // two minutes idle: afresh
    }

    @Test func aHundredThousandSourcesDoNotTurnCountingOffForTheNext() {
        let start = ContinuousClock.now
        let allowance = UsageAllowance(perMinute: 1200, maxSources: 100_000, now: start)
        for source in 0..<100_000 { _ = allowance.take(100, for: "10.\(source)", now: start) }
        // The 100,001st source in the same minute: a new generation starts early, and it gets its whole allowance.
        #expect(allowance.take(100, for: "192.0.2.1", now: start + .seconds(1)) == 100)
        // A source of the full generation is still remembered: its 100 still weigh.
        #expect(allowance.take(1200, for: "10.7", now: start + .seconds(1)) == 1100)
        #expect(allowance.sources <= 200_000)
    }
}
