import Foundation

/// Hourly usage counts: added to from every replica's memory, read back as trending scores and as an admin's stats.
package protocol UsageRepository: Sendable {
    /// Adds `counts` to what is stored (a bucket already there grows by them), all or none.
    func add(_ counts: [UsageCount]) async throws
    /// Each sticker's decayed send score per window, as of now.
    func scores() async throws -> StickerScores
    /// Counts per sticker (or group) and day for `query`'s page.
    func stats(_ query: UsageStatsQuery) async throws -> UsageStats
    /// Forgets counts of hours that ended more than `age` ago; the buckets removed.
    func pruneUsage(olderThan age: Duration) async throws -> Int
}
