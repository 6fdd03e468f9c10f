import CatalogApp
import CatalogCore
import CatalogServices
import CatalogStore
import Foundation
import Logging
import Synchronization
import Testing

/// The hourly counts in PostgreSQL: concurrent upserts, the scores' SQL against its Swift rule, retention, and the
/// flush a stopping process makes.
@Suite struct UsageStoreTests {
    static func usage(_ db: DatabasePool) -> PostgresUsage {
        PostgresUsage(store: PostgresStore(pool: db, revision: CatalogRevision(), logger: TestDatabase.logger))
    }

    @Test func upsertsOfTheSameBucketsAtOnceAddUp() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        try await TestDatabase.withPool(endpoint) { db in
            let usage = Self.usage(db)
            let stickers = (0..<50).map { _ in UUID() }
            let hour = UsageCount.hour(of: Date())
            // Four writers, each adding one to the same 100 buckets (in another order each) 20 times.
            let counts = stickers.flatMap { sticker in
                [UsageAction.sent, .viewed].map {
                    UsageCount(key: .init(hour: hour, action: $0, sticker: sticker), group: "chewy", count: 1)
                }
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for writer in 0..<4 {
                    group.addTask {
                        for round in 0..<20 {
                            try await usage.add((writer + round) % 2 == 0 ? counts : counts.reversed())
                        }
                    }
                }
                try await group.waitForAll()
            }
            #expect(try await db.count("SELECT count(*)::bigint FROM sticker_usage") == 100)
            #expect(try await db.count("SELECT min(count)::bigint FROM sticker_usage") == 80)
            #expect(try await db.count("SELECT max(count)::bigint FROM sticker_usage") == 80)
        }
    }

    @Test func postgresScoresAsTheSwiftRuleDoes() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        try await TestDatabase.withPool(endpoint) { db in
            let usage = Self.usage(db)
            let now = UsageCount.hour(of: Date())
            var generator = SystemRandomNumberGenerator()
            var counts: [UsageCount] = []
            for sticker in (0..<20).map({ _ in UUID() }) {
                for hour in Set((0..<15).map { _ in Int64.random(in: 0...700, using: &generator) }) {
                    counts.append(
                        UsageCount(
                            key: .init(hour: now - hour, action: .sent, sticker: sticker), group: "g",
                            count: .random(in: 1...50, using: &generator)))
                }
            }
            try await usage.add(counts)
            let moment = Date().timeIntervalSince1970 / 3600
            let sql = try await usage.scores()
            let swift = Self.expected(counts.map { ($0.key.sticker, $0.key.hour, $0.count) }, now: moment)
            for window in TrendWindow.allCases {
                #expect(Set(sql[window].keys) == Set(swift[window].keys), "\(window)")
                for (sticker, score) in swift[window] {
                    let other = sql[window][sticker] ?? -1
                    // The two read the clock moments apart: a relative difference of a millionth.
                    #expect(abs(other - score) <= score * 1e-4 + 1e-9, "\(window) \(sticker): \(other) vs \(score)")
                }
            }
        }
    }

    @Test("A send counts half as much a half-life later, in each window; past the day's lookback, only in the week")
    func halfLives() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        try await TestDatabase.withPool(endpoint) { db in
            // Setup: the same count 6 hours apart (the day's half-life), 48 apart (the week's) and 100 hours back.
            let now = UsageCount.hour(of: Date())
            let (recent, sixEarlier, twoDaysEarlier, old) = (UUID(), UUID(), UUID(), UUID())
            try await Self.usage(db).add(
                [(recent, 1), (sixEarlier, 7), (twoDaysEarlier, 49), (old, 100)].map { sticker, hoursAgo in
                    UsageCount(key: .init(hour: now - hoursAgo, action: .sent, sticker: sticker), group: "g", count: 40)
                })
            // Action
            let scores = try await Self.usage(db).scores()
            // Check: ratios do not depend on the minute the scores were read.
            let (day, week) = (scores[.day], scores[.week])
            #expect(abs(try #require(day[sixEarlier]) / #require(day[recent]) - 0.5) < 1e-9)
            #expect(abs(try #require(week[twoDaysEarlier]) / #require(week[recent]) - 0.5) < 1e-9)
            #expect(day[old] == nil && week[old] != nil)
        }
    }

    /// The rule `TrendWindow` states, written again here as the oracle of the store's SQL: each window's sum over its
    /// lookback of sends halved every half-life, their age from the middle of their hour (`now` in hours since 1970).
    static func expected(_ sends: [(sticker: UUID, hour: Int64, count: Int64)], now: Double) -> StickerScores {
        var scores = StickerScores()
        for (sticker, hour, count) in sends {
            for window in TrendWindow.allCases where Double(hour) >= now - Double(window.lookbackHours) {
                let age = max(0, now - (Double(hour) + 0.5))
                let score = Double(count) * exp2(-age / window.halfLifeHours)
                if window == .day {
                    scores.day[sticker, default: 0] += score
                } else {
                    scores.week[sticker, default: 0] += score
                }
            }
        }
        return scores
    }

    @Test func gcForgetsHoursPastTheRetention() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        let (old, kept) = (UUID(), UUID())
        try await TestDatabase.withPool(endpoint) { db in
            let now = UsageCount.hour(of: Date())
            try await Self.usage(db).add([
                UsageCount(key: .init(hour: now - 401 * 24, action: .sent, sticker: old), group: "g", count: 3),
                UsageCount(key: .init(hour: now - 399 * 24, action: .sent, sticker: kept), group: "g", count: 4),
            ])
        }
        let (status, output) = try await StickerdProcess.run(
            ["gc", "--usage-retention-days", "400"], environment: ["DATABASE_URL": endpoint.url])
        #expect(status == 0 && output.contains("Forgot 1 hourly usage counts older than 400 days"), "\(output)")
        let left = try await TestDatabase.withPool(endpoint) { db in
            try await db.strings("SELECT sticker_id::text FROM sticker_usage")
        }
        #expect(left == [kept.uuidString.lowercased()])
    }

    @Test(
        "A replica stopped with SIGTERM writes the counts it holds before it exits",
        .enabled(if: StickerdProcess.available), .hangLimit, arguments: [false, true])
    func sigtermFlushes(whileABodyStalls: Bool) async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        // An hour between flushes: only shutdown can write these. A grace of 10 s: a stalled request body (its deadline
        // is 30 s) outlasts it, and the service group cancels what is still running, the database pool included. (2 s
        // was too short for the flush begun at SIGTERM on a machine busy with the whole suite.)
        let server = try StickerdProcess(
            serve: ["--usage-flush-interval", "3600", "--usage-per-source-hour", "1000", "--shutdown-grace", "10"],
            environment: ["DATABASE_URL": endpoint.url])
        #expect(try await server.waitHealthy())
        let manifest = try await server.get("/v1/manifest")
        let sticker = try #require(manifest.firstMatch(of: /"id":"([0-9A-Fa-f-]{36})"/)?.1)
        let at = ISO8601DateFormatter().string(from: Date())
        let body =
            "{\"events\":["
            + Array(repeating: "{\"sticker\":\"\(sticker)\",\"action\":\"sent\",\"at\":\"\(at)\"}", count: 50)
            .joined(separator: ",") + "]}"
        let post = "POST /v1/usage HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        for _ in 0..<2 {
            let answer = try await RawHTTP.exchange(
                port: server.port,
                Array("\(post)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)".utf8),
                whole: true)
            #expect(answer.hasPrefix("HTTP/1.1 202"), "\(answer)")
        }
        // A client that sends 4 bytes of a 1,000-byte body and no more, held open through shutdown.
        let stalled = try RawSocket(port: server.port)
        if whileABodyStalls {
            stalled.send(Array("\(post)Content-Length: 1000\r\n\r\n{\"ev".utf8))
            try await Task.sleep(for: .milliseconds(200))
        }
        let log = await server.stop(SIGTERM)
        let stored = try await TestDatabase.withPool(endpoint) { db in try await Usage.stored(db, String(sticker)) }
        #expect(stored == 100, "\(log.suffix(3000))")
        withExtendedLifetime(stalled) {}
    }

    @Test func aSourcesBoundHoldsAcrossChunksAndAChunkWrittenTwiceCountsOnce() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        try await TestDatabase.withPool(endpoint) { db in
            let usage = Self.usage(db)
            let (sticker, now) = (UUID(), UsageCount.hour(of: Date()))
            func chunk(_ source: String, uses: Int) -> UsageChunk {
                let key = UsageClaim.Key(source: source, arrived: now, action: .sent, sticker: sticker)
                return UsageChunk(claims: [
                    UsageClaim(key: key, group: "g", hours: Array(repeating: now - 1, count: uses))
                ])
            }
            // One source's uses through two chunks (two replicas, or two flushes): 3 in all, however many were held.
            let first = chunk("203.0.113.9", uses: 2)
            #expect(try await usage.write(first, perSourceHour: 3) == .written(counted: 2))
            #expect(try await usage.write(chunk("203.0.113.9", uses: 3), perSourceHour: 3) == .written(counted: 1))
            #expect(try await usage.write(chunk("u:ana", uses: 3), perSourceHour: 3) == .written(counted: 3))
            // The first chunk again (its COMMIT's answer lost, the flusher retries): found, added nothing.
            #expect(try await usage.write(first, perSourceHour: 3) == .alreadyWritten)
            #expect(try await Usage.stored(db, sticker.uuidString) == 6)
            // What is kept of the sources: a 12-byte digest each, no address, no user.
            #expect(try await db.count("SELECT count(*)::bigint FROM usage_claims WHERE length(claim) = 12") == 2)
            let dump = try await db.strings("SELECT encode(claim, 'escape') FROM usage_claims")
            #expect(!dump.contains { $0.contains("203.0.113.9") || $0.contains("ana") })
        }
    }

    @Test func aFlushWhoseCommitAnswerIsLostCountsOnce() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        try await TestDatabase.withPool(endpoint) { db in
            let tally = UsageTally(perSourceHour: 100)
            let sticker = UUID()
            let key = UsageClaim.Key(source: "s", arrived: UsageCount.hour(of: Date()), action: .sent, sticker: sticker)
            let use: (claim: UsageClaim.Key, hour: Int64, group: String) = (key, key.arrived, "g")
            #expect(tally.add(Array(repeating: use, count: 7)).held == 7)
            // The first write commits, then its answer is lost (the connection drops during COMMIT).
            let repository = LosingAnswers(base: Self.usage(db), losses: 1)
            let flusher = UsageFlusher(
                tally: tally, repository: repository, interval: .seconds(3600), logger: TestDatabase.logger)
            #expect(await flusher.flush() == false)
            #expect(await flusher.flush() == true)  // the same chunk again: found written
            let stored = try await Usage.stored(db, sticker.uuidString)
            #expect(stored == 7)
        }
    }
}

/// A usage store whose first `losses` writes succeed but whose answers are lost: an error after the commit.
private final class LosingAnswers: UsageRepository, Sendable {
    let base: PostgresUsage
    let losses: Mutex<Int>

    init(base: PostgresUsage, losses: Int) {
        self.base = base
        self.losses = Mutex(losses)
    }

    func write(_ chunk: UsageChunk, perSourceHour: Int) async throws -> UsageChunkWrite {
        let written = try await base.write(chunk, perSourceHour: perSourceHour)
        if losses.withLock({ losses in
            defer { losses -= 1 }
            return losses > 0
        }) {
            throw CancellationError()
        }
        return written
    }
    func scores() async throws -> StickerScores { try await base.scores() }
    func stats(_ query: UsageStatsQuery) async throws -> UsageStats { try await base.stats(query) }
    func pruneUsage(olderThan age: Duration) async throws -> Int { try await base.pruneUsage(olderThan: age) }
}
