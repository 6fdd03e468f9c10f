import CatalogCore
import NIOCore
import Synchronization

/// Image bytes by SHA-256, kept in memory after the first read in an LRU bounded by bytes: they never change, so the
/// cache never goes stale. Concurrent misses for one digest share one database read; unknown digests are remembered
/// (a bounded number of them) until the catalog revision moves, so probing for them costs no SQL.
package final class AssetStore: Sendable {
    private struct State {
        package var bytes: ByteLRU<AssetDigest, CachedAsset>
        /// Digests found missing, with the moment at which they were looked up.
        package var missing: ByteLRU<AssetDigest, Moment>
    }

    /// A revision of one history: after a rewind that climbs back to the same number, what was missing at it in the
    /// lost history may be stored in the new one (the epoch tells them apart).
    private struct Moment: Equatable {
        let epoch: Int
        let revision: Int64
    }

    private var now: Moment { Moment(epoch: revision.epoch, revision: revision.current) }

    private enum Lookup {
        case hit(CachedAsset)
        case missing
        case unknown
    }

    package let reader: any CatalogReader
    package let revision: CatalogRevision
    private let state: Mutex<State>
    private let reads = SingleFlight<AssetDigest, CachedAsset?>()
    private let counters: CacheCounters

    package init(
        reader: any CatalogReader, revision: CatalogRevision, capacity: Int = 64 << 20, missingEntries: Int = 4096,
        counters: CacheCounters = .none
    ) {
        self.counters = counters
        self.reader = reader
        self.revision = revision
        state = Mutex(State(bytes: ByteLRU(capacity: capacity), missing: ByteLRU(capacity: missingEntries)))
    }

    /// The image, or nil when no asset has that digest.
    package func asset(_ digest: AssetDigest) async throws -> CachedAsset? {
        let current = now
        switch lookup(digest, revision: current) {
        case .hit(let asset):
            counters.hit()
            return asset
        case .missing:
            counters.hit()
            return nil
        case .unknown: break
        }
        return try await reads.run(digest) { [self] in
            if case .hit(let asset) = lookup(digest, revision: current) { return asset }
            let sha256 = digest.hex
            counters.miss()
            let asset = try await reader.assetBytes(sha256: sha256).map {
                CachedAsset(sha256: sha256, bytes: ByteBuffer(bytes: $0))
            }
            keep(asset, for: digest, revision: current)
            return asset
        }
    }

    /// Learns, in one question, which of `digests` are not stored, remembering them as missing (until the revision
    /// moves), so that asking for each of them next costs no SQL: a bundle of 256 random digests was 256 reads one after
    /// another, none of which the memo held.
    package func learnMissing(_ digests: [AssetDigest]) async throws {
        let current = now
        let unknown = Array(
            Set(digests.filter { if case .unknown = lookup($0, revision: current) { true } else { false } }))
        guard unknown.count > 1 else { return }
        counters.miss()
        let stored = try await reader.storedAssets(among: unknown.map(\.hex))
        for digest in unknown where !stored.contains(digest.hex) { keep(nil, for: digest, revision: current) }
    }

    // The lock is taken only in these synchronous helpers, never across an await.

    private func lookup(_ digest: AssetDigest, revision: Moment) -> Lookup {
        state.withLock { state in
            if let asset = state.bytes.value(for: digest) { return .hit(asset) }
            if let seen = state.missing.peek(digest), seen == revision { return .missing }
            return .unknown
        }
    }

    private func keep(_ asset: CachedAsset?, for digest: AssetDigest, revision: Moment) {
        state.withLock { state in
            if let asset {
                state.bytes.insert(asset, for: digest, cost: asset.bytes.readableBytes + 256)
                state.missing.remove(digest)
            } else {
                state.missing.insert(revision, for: digest, cost: 1)
            }
        }
    }

    /// Bytes the cached images take.
    package var cachedBytes: Int { state.withLock { $0.bytes.totalCost } }
}
