import Foundation
import Testing

@testable import StickerCatalogClient

/// Reading the catalog never decodes on the caller's thread: `snapshot` and `snapshots` make it in a task of their
/// own, once however many ask at once; the Messages data source makes one group's stickers at a time and skips a bad
/// one.
@Suite struct SnapshotTests {
    /// Marks the task that asks: a value made in that task (or one that inherits from it) would see it.
    @TaskLocal static var asking = false

    /// A value made slowly, counting how often, and in which context.
    final class Maker: @unchecked Sendable {
        private let lock = NSLock()
        private var made = 0
        private var inAskingTask = false
        var count: Int { lock.withLock { made } }
        var madeInAskingTask: Bool { lock.withLock { inAskingTask } }
        func make() -> Int {
            let asking = SnapshotTests.asking
            Thread.sleep(forTimeInterval: 0.05)
            return lock.withLock {
                made += 1
                inAskingTask = inAskingTask || asking
                return made
            }
        }
    }

    @Test("load() makes the first value in a task of its own, once for ten callers at once")
    func loadOffTheCaller() async {
        // Setup
        let maker = Maker()
        let observed = Observed { maker.make() }
        // Action: ten callers at once, each marked.
        let values = await Self.$asking.withValue(true) {
            await withTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { await observed.load() } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
        }
        // Check
        #expect(values == Array(repeating: 1, count: 10) && maker.count == 1)
        #expect(!maker.madeInAskingTask)
    }

    @Test("stream() returns before the first value is made, then gives it; a value set meanwhile wins")
    func streamDoesNotWait() async {
        // Setup
        let maker = Maker()
        let observed = Observed { maker.make() }
        // Action
        let stream = Self.$asking.withValue(true) { observed.stream() }
        // Check: nothing made yet on this thread; the first value comes, made elsewhere.
        #expect(maker.count == 0 || !maker.madeInAskingTask)
        var reader = stream.makeAsyncIterator()
        #expect(await reader.next() == 1 && !maker.madeInAskingTask)
        // A reader that starts while the value is being made, and a newer value set before it is made.
        let slow = Observed { maker.make() + 100 }
        let late = slow.stream()
        slow.set(7)
        var lateReader = late.makeAsyncIterator()
        #expect(await lateReader.next() == 7)
        try? await Task.sleep(for: .milliseconds(150))
        slow.set(8)
        #expect(await lateReader.next() == 8)
    }

    @Test("StickerSync.snapshot reads the folder's catalog, from disk once")
    func snapshotFromDisk() async throws {
        // Setup
        let folder = try ModelTests.syncedFolder(stickers: 50)
        let sync = StickerSync(service: URL(string: "http://stickers.test")!, folder: folder)
        // Action
        let first = await sync.snapshot
        try FileManager.default.removeItem(at: folder.directory.appending(path: "catalog.json"))
        let second = await sync.snapshot
        // Check
        #expect(first?.groups.first?.stickers.count == 50 && second?.groups.first?.stickers.count == 50)
    }

    @Test("GroupedStickers makes a group's stickers when it is first asked for, once, and skips one that fails")
    func groupedStickers() async throws {
        // Setup: a synced catalog of two groups of three stickers and a locked one; the file of sticker s4 cannot be
        // made into a sticker.
        let service = MemoryService(stickers: 6)
        let group = (service.manifest["groups"] as! [[String: Any]])[0]
        let stickers = group["stickers"] as! [[String: Any]]
        var (first, later) = (group, group)
        (first["id"], first["stickers"]) = ("h", Array(stickers.prefix(3)))
        later["stickers"] = Array(stickers.suffix(3))
        let locked: [String: Any] = [
            "id": "p", "name": "P", "sizeClass": "small", "flags": [], "position": 2, "locked": true,
            "productId": "pro", "stickers": [],
        ]
        service.manifest["groups"] = [first, later, locked]
        let sync = StickerSync.testing(service)
        try await sync.sync()
        let catalog = try #require(await sync.snapshot)
        let made = Counter()
        let grouped = GroupedStickers(catalog) { file, sticker -> String in
            _ = made.next()
            guard sticker.id != "s4" else { throw StickerClientError.corrupt(sha256: "x") }
            return try String(contentsOf: file, encoding: .utf8)
        }
        // Check: the locked group is not shown, nothing made yet.
        #expect(grouped.groups.map(\.id) == ["h", "g"] && made.count == 0)
        // Action: the second group, twice.
        let second = grouped.stickers(inGroupAt: 1)
        let again = grouped.stickers(inGroupAt: 1)
        // Check: its three stickers made once, the bad one skipped and named.
        #expect(second == ["sticker 3", "sticker 5"] && again == second && made.count == 3)
        #expect(Array(grouped.skipped.keys) == ["s4"])
        #expect(grouped.stickers(inGroupAt: 5).isEmpty)
    }
}
