import Foundation

/// Hourly usage counts: added to from every replica's memory, read back as trending scores and as an admin's stats.
package protocol UsageRepository: Sendable {
    /// Adds `chunk`'s uses to what is stored, in one transaction: of each claim's, as many as its source may still add
    /// in that hour (`perSourceHour`, less what other flushes counted for it). Once only: a chunk whose id was written
    /// is `.alreadyWritten`.
    func write(_ chunk: UsageChunk, perSourceHour: Int) async throws -> UsageChunkWrite
    /// Each sticker's decayed send score per window, as of now.
    func scores() async throws -> StickerScores
    /// Counts per sticker (or group) and day for `query`'s page.
    func stats(_ query: UsageStatsQuery) async throws -> UsageStats
    /// Forgets counts of hours that ended more than `age` ago; the buckets removed.
    func pruneUsage(olderThan age: Duration) async throws -> Int
}
