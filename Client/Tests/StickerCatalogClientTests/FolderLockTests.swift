import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// The folder's lock is held only while a sync commits, is waited for a bounded time on the sync's clock, and a
/// commit respects what another process did meanwhile.
@Suite struct FolderLockTests {
    /// Holds `folder`'s lock as another process would (a separate open file description: `flock` conflicts).
    final class OutsideLock: @unchecked Sendable {
        private let fd: Int32
        init(_ folder: URL) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            fd = open(folder.appending(path: ".lock").path, O_RDWR | O_CREAT, 0o644)
            #expect(fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
        }
        func release() { close(fd) }
    }

    /// `body`, or a failure after `seconds` of real time (the code before this change waited for the lock forever). A
    /// bound on a hang, not a speed: the waits it covers are on the fake clock, and a busy machine may take seconds.
    static func within<T: Sendable>(_ seconds: Int, _ body: @escaping @Sendable () async throws -> T) async throws -> T
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else {
                throw StickerClientError.invalidAnswer("no answer within \(seconds) s")
            }
            return value
        }
    }

    @Test("A lock held from outside for good: the files are fetched, then sync() ends as busy within lockWait")
    func busy() async throws {
        // Setup
        let folder = StickerSync.temporaryFolder()
        let outside = try OutsideLock(folder)
        defer { outside.release() }
        let clock = FakeClock()
        let sync = StickerSync.testing(MemoryService(), clock: clock, folder: folder)
        // Action
        let failure = await #expect(throws: StickerClientError.self) {
            try await Self.within(30) { try await sync.sync() }
        }
        // Check: busy, after at most lockWait (5 s) and one step of fake time; the files kept, nothing committed.
        #expect(failure == .busy)
        #expect(clock.now <= .milliseconds(5020), "waited \(clock.now)")
        #expect(sync.folder.storedDigests().count == 3 && sync.folder.load() == nil)
    }

    @Test("A lock let go while a sync waits for it: the sync commits")
    func waitsThenCommits() async throws {
        // Setup: the outside lock goes at the sync's third wait.
        let folder = StickerSync.temporaryFolder()
        let outside = try OutsideLock(folder)
        let waits = Counter()
        let sync = StickerSync(
            service: URL(string: "http://stickers.test")!, folder: LocalCatalog(directory: folder),
            transport: MemoryService(),
            sleep: { _ in if waits.next() == 3 { outside.release() } })
        // Action
        let report = try await Self.within(30) { try await sync.sync() }
        // Check
        #expect(report.filesDownloaded == 3 && sync.folder.load()?.groups.first?.stickers.count == 3)
    }

    @Test("A newer catalog another process committed while this sync downloaded is kept, not overwritten")
    func newerCommitKept() async throws {
        // Setup: X syncs revision 1 and its images wait until Y, on the same folder, has committed revision 2.
        let folder = StickerSync.temporaryFolder()
        let older = MemoryService()
        let newer = MemoryService()
        newer.replace(sticker: 0, with: Data("newer picture".utf8))
        let gate = Gate()
        let files = older.files
        older.handler = { request, _ in
            guard let path = request.path, path.hasSuffix(".png"),
                let file = files[String(path.dropFirst("/v1/assets/".count).dropLast(4))]
            else { return nil }
            let (body, continuation) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
            Task {
                while !gate.isOpen { try? await Task.sleep(for: .milliseconds(5)) }
                continuation.yield(ArraySlice(file))
                continuation.finish()
            }
            return (HTTPResponse(status: .ok), HTTPBody(body, length: .unknown, iterationBehavior: .single))
        }
        let x = StickerSync.testing(older, folder: folder) { $0.concurrency = 1 }
        let y = StickerSync.testing(newer, folder: folder)
        // Action
        let first = Task { try await x.sync() }
        try await Task.sleep(for: .milliseconds(50))
        let second = try await Self.within(30) { try await y.sync() }
        gate.open()
        let report = try await Self.within(30) { try await first.value }
        // Check: Y's revision 2 stays; X says so.
        #expect(second.revision == 2 && report.revision == 2)
        #expect((await StickerSync.testing(newer, folder: folder).snapshot)?.revision == 2)
    }

    @Test("A file another process purged while a sync ran is pending at its commit, not shown as if on disk")
    func purgedMeanwhile() async throws {
        // Setup: a synced folder; then one of its files goes, as another process's purge would take it.
        let service = MemoryService()
        let sync = StickerSync.testing(service)
        _ = try await sync.sync()
        let state = try #require(sync.folder.state())
        let gone = try #require(state.manifest.groups.first?.stickers.first?.asset)
        unlink(sync.folder.fileURL(for: gone).path)
        // Action
        _ = try await sync.commit(state.manifest, failed: [], etag: nil)
        // Check: pending, so the next sync fetches it; its sticker held back meanwhile.
        #expect(sync.folder.bookmark()?.pending == 1)
        #expect((await sync.snapshot)?.groups.first?.stickers.count == 2)
    }
}

/// Shut until opened.
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var opened = false
    var isOpen: Bool { lock.withLock { opened } }
    func open() { lock.withLock { opened = true } }
}
