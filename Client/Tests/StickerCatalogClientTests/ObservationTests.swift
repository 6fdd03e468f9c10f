import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// What an app observes: the catalog in memory, its changes as a sequence, the status and a sync's progress.
@Suite struct ObservationTests {
    @Test("snapshots starts with the catalog held and delivers each one a sync commits; snapshot reads from memory")
    func snapshots() async throws {
        // Setup: one sync done, a reader of snapshots.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        _ = try await StickerSync.testing(service, folder: folder).sync()
        let sync = StickerSync.testing(service, folder: folder)
        var reader = sync.snapshots.makeAsyncIterator()
        let first = await reader.next()
        service.replace(sticker: 0, with: Data("new".utf8))
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/manifest/changes") == true
                ? MemoryService.refusal(.gone, code: "cursor_expired") : nil
        }
        // Action
        try await sync.sync()
        let second = await reader.next()
        // Check: revision 1 from disk, then 2; the in-memory snapshot survives catalog.json going away.
        #expect(first??.revision == 1 && second??.revision == 2)
        try FileManager.default.removeItem(at: folder.appending(path: "catalog.json"))
        #expect((await sync.snapshot)?.revision == 2)
    }

    @Test("A snapshot held in memory is read again when another process (an app's extension) synced the folder")
    func anotherProcess() async throws {
        // Setup: the app has synced and holds revision 1; the extension syncs revision 2 into the same folder.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        let app = StickerSync.testing(service, folder: folder)
        try await app.sync()
        #expect((await app.snapshot)?.revision == 1)
        service.replace(sticker: 0, with: Data("new".utf8))
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/manifest/changes") == true
                ? MemoryService.refusal(.gone, code: "cursor_expired") : nil
        }
        try await StickerSync.testing(service, folder: folder).sync()
        service.handler = { _, _ in nil }
        // Action: the app's next sync finds nothing new.
        let report = try await app.sync()
        // Check: its snapshot is the extension's revision.
        let held = await app.snapshot
        #expect(report.revision == 2 && held?.revision == 2)
    }

    @Test("status is not synced, then up to date at the revision, then offline with the error while the catalog stays")
    func status() async throws {
        // Setup
        let service = MemoryService()
        let sync = StickerSync.testing(service)
        if case .notSynced = sync.status {} else { Issue.record("\(sync.status)") }
        // Action
        try await sync.sync()
        // Check
        if case .upToDate(1, _, 0) = sync.status {} else { Issue.record("\(sync.status)") }

        // Action: the service fails.
        service.handler = { _, _ in MemoryService.refusal(.internalServerError, code: "internal") }
        await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check
        if case .offline(let error as StickerClientError, _) = sync.status, case .refused(500, _, _) = error {
        } else {
            Issue.record("\(sync.status)")
        }
        #expect((await sync.snapshot)?.revision == 1)
    }

    @Test("Progress counts files and bytes from none to all")
    func progress() async throws {
        // Setup
        let service = MemoryService(stickers: 4)
        let sync = StickerSync.testing(service)
        let assets = Array(
            try #require(try await sync.service.manifest(CatalogView(), etag: nil).wholeValue).assets.values)
        let seen = Seen()
        // Action
        let downloads = await sync.downloads
        let counter = ProgressCounter(downloads.start(assets), every: .zero) { seen.add($0) }
        let outcome = try await downloads.run(assets, counter: counter)
        // Check: the start, each file's bytes and its end (no interval), the end whole.
        let total = assets.reduce(0) { $0 + $1.bytes }
        #expect(seen.all.first == SyncProgress(files: 0, totalFiles: 4, bytes: 0, totalBytes: total))
        #expect(
            seen.all.last == SyncProgress(files: 4, totalFiles: 4, bytes: total, totalBytes: total)
                && outcome.bytes == total)
        #expect(seen.all.count == 9 && seen.all.last?.fraction == 1)
    }

    @Test("A view is sent as typed: size, scale, format, flags in order and the locale's language and region")
    func view() async throws {
        // Setup
        let service = MemoryService()
        let view = CatalogView(
            filter: "chocoholic", flags: ["b", "a"], locale: Locale(identifier: "pt_BR"), size: .small, scale: .x2,
            format: .png)
        // Action
        try await StickerSync.testing(service, view: view).sync()
        // Check
        let query = try #require(service.requests.first { $0.path?.hasPrefix("/v1/manifest?") == true }?.path)
        for part in ["filter=chocoholic", "size=small", "scale=2", "format=png", "locale=pt-BR"] {
            #expect(query.contains(part), "\(query)")
        }
        #expect(query.contains("flags=a%2Cb") || query.contains("flags=a,b"), "\(query)")
        #expect(CatalogView(locale: Locale(identifier: "en_US_POSIX")).language == "en-US")
    }
}

#if canImport(Observation)
    extension ObservationTests {
        @available(macOS 14, iOS 17, *)
        @MainActor
        @Test("The SwiftUI model shows the catalog its follow() syncs, on the main actor, and stops when cancelled")
        func model() async throws {
            // Setup: a service with no event stream (404), so follow() syncs, fails and waits, again and again.
            let service = MemoryService()
            let sync = StickerSync(
                service: URL(string: "http://stickers.test")!,
                folder: LocalCatalog(directory: StickerSync.temporaryFolder()),
                transport: service, sleep: { _ in try await Task.sleep(for: .milliseconds(20)) })
            let model = StickerCatalogModel(sync: sync)
            #expect(model.catalog == nil)
            // Action
            let following = Task { await model.follow() }
            let deadline = ContinuousClock.now + .seconds(20)
            while model.catalog == nil, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            following.cancel()
            await following.value
            // Check: the catalog arrived; follow() returned once cancelled.
            #expect(model.catalog?.revision == 1 && model.catalog?.groups.first?.stickers.count == 3)
        }
    }
#endif

/// Values seen by a callback, in order.
final class Seen: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [SyncProgress] = []
    func add(_ value: SyncProgress) { lock.withLock { values.append(value) } }
    var all: [SyncProgress] { lock.withLock { values } }
}

extension CatalogService.Fresh {
    var wholeValue: Value? { if case .value(let value, _) = self { value } else { nil } }
}
