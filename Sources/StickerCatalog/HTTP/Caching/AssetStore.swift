import NIOCore
import Synchronization

/// Image bytes by SHA-256, kept in memory after the first read in an LRU bounded by bytes: they never change, so the
/// cache never goes stale. Concurrent misses for one digest share one database read; unknown digests are remembered
/// (a bounded number of them) until the catalog revision moves, so probing for them costs no SQL.
final class AssetStore: Sendable {
    private struct State {
        var bytes: ByteLRU<String, ByteBuffer>
        /// Digests found missing, with the revision at which they were looked up.
        var missing: ByteLRU<String, Int64>
    }

    private enum Lookup {
        case hit(ByteBuffer)
        case missing
        case unknown
    }

    let reader: any CatalogReader
    let revision: CatalogRevision
    private let state: Mutex<State>
    private let reads = SingleFlight<String, ByteBuffer?>()

    init(reader: any CatalogReader, revision: CatalogRevision, capacity: Int = 64 << 20, missingEntries: Int = 4096) {
        self.reader = reader
        self.revision = revision
        state = Mutex(State(bytes: ByteLRU(capacity: capacity), missing: ByteLRU(capacity: missingEntries)))
    }

    /// The image, or nil when no asset has that digest.
    func bytes(sha256: String) async throws -> ByteBuffer? {
        let current = revision.current
        switch lookup(sha256, revision: current) {
        case .hit(let buffer): return buffer
        case .missing: return nil
        case .unknown: break
        }
        return try await reads.run(sha256) { [self] in
            if case .hit(let buffer) = lookup(sha256, revision: current) { return buffer }
            let buffer = try await reader.assetBytes(sha256: sha256).map { ByteBuffer(bytes: $0) }
            keep(buffer, for: sha256, revision: current)
            return buffer
        }
    }

    // The lock is taken only in these synchronous helpers, never across an await.

    private func lookup(_ sha256: String, revision: Int64) -> Lookup {
        state.withLock { state in
            if let buffer = state.bytes.value(for: sha256) { return .hit(buffer) }
            if let seen = state.missing.peek(sha256), seen >= revision { return .missing }
            return .unknown
        }
    }

    private func keep(_ buffer: ByteBuffer?, for sha256: String, revision: Int64) {
        state.withLock { state in
            if let buffer {
                state.bytes.insert(buffer, for: sha256, cost: buffer.readableBytes)
                state.missing.remove(sha256)
            } else {
                state.missing.insert(revision, for: sha256, cost: 1)
            }
        }
    }

    /// Bytes the cached images take.
    var cachedBytes: Int { state.withLock { $0.bytes.totalCost } }
}
