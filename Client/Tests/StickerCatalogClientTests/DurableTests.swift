import Foundation
import Testing

@testable import StickerCatalogClient

/// The state a sync commits is flushed the strongest way the platform has: `F_FULLFSYNC` on Apple platforms.
@Suite struct DurableTests {
    /// What was flushed, and how.
    final class Flushes: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [(Durable.Method, String)] = []
        var all: [(Durable.Method, String)] { lock.withLock { seen } }
        func add(_ method: Durable.Method, _ what: String) { lock.withLock { seen.append((method, what)) } }
    }

    @Test("catalog.json, cursor.json and the folders naming them are flushed with F_FULLFSYNC on Apple platforms")
    func stateIsFlushed() async throws {
        // Setup
        let flushes = Flushes()
        let sync = StickerSync.testing(MemoryService())
        // Action
        try await Durable.$observer.withValue({ flushes.add($0, $1) }) { _ = try await sync.sync() }
        // Check: every part of the commit, each the platform's strongest way (this runs on Linux in CI, where that is
        // fsync; on macOS it checks F_FULLFSYNC).
        #if canImport(Darwin)
            let strongest = Durable.Method.fullFsync
        #else
            let strongest = Durable.Method.fsync
        #endif
        let flushed = Set(flushes.all.map(\.1))
        let folder = sync.folder.directory.lastPathComponent + "/"
        #expect(flushed.isSuperset(of: ["catalog.json", "cursor.json", "files/", folder]), "\(flushed)")
        #expect(flushes.all.allSatisfy { $0.0 == strongest })
    }
}
