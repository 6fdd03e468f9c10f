import NIOCore
import Synchronization

/// Image bytes by SHA-256, kept in memory after the first read: they never change, so the cache never goes stale.
final class AssetStore: Sendable {
    private struct State {
        var bytes: [String: ByteBuffer] = [:]
        var order: [String] = []
        var total = 0
    }

    let reader: any CatalogReader
    /// Memory the cache may hold; the oldest entries leave first.
    let capacity: Int
    private let state = Mutex(State())

    init(reader: any CatalogReader, capacity: Int = 64 * 1024 * 1024) {
        self.reader = reader
        self.capacity = capacity
    }

    /// The image, or nil when no asset has that digest.
    func bytes(sha256: String) async throws -> ByteBuffer? {
        if let hit = cached(sha256) { return hit }
        guard let stored = try await reader.assetBytes(sha256: sha256) else { return nil }
        let buffer = ByteBuffer(bytes: stored)
        keep(buffer, as: sha256)
        return buffer
    }

    // The lock is taken only in these synchronous helpers, never across an await.

    private func cached(_ sha256: String) -> ByteBuffer? {
        state.withLock { $0.bytes[sha256] }
    }

    private func keep(_ buffer: ByteBuffer, as sha256: String) {
        state.withLock { state in
            guard state.bytes[sha256] == nil else { return }
            while state.total + buffer.readableBytes > capacity, !state.order.isEmpty {
                let oldest = state.order.removeFirst()
                state.total -= state.bytes.removeValue(forKey: oldest)?.readableBytes ?? 0
            }
            state.bytes[sha256] = buffer
            state.order.append(sha256)
            state.total += buffer.readableBytes
        }
    }
}
