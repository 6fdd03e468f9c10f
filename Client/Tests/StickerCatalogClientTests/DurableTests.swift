import Foundation
import Testing

@testable import StickerCatalogClient

/// A commit makes what it names durable with one barrier, not one flush per image: the images first (one `syncfs` on
/// Linux; on Apple platforms each handed to the drive, then one `F_FULLFSYNC` of their folder), then `catalog.json`,
/// `cursor.json` and the folder, each flushed fully. A sync of 40 images asks for as few flushes as one of 3.
@Suite struct DurableTests {
    /// What was flushed, in order.
    final class Flushes: @unchecked Sendable {
        private let lock = NSLock()
        private var seen: [Durable.Flush] = []
        var all: [Durable.Flush] { lock.withLock { seen } }
        func add(_ flush: Durable.Flush) { lock.withLock { seen.append(flush) } }
    }

    @Test(
        "A first sync of 40 images: one barrier for them, before catalog.json; no flush per image", arguments: [3, 40])
    func oneBarrier(stickers: Int) async throws {
        // Setup
        let flushes = Flushes()
        let sync = StickerSync.testing(MemoryService(stickers: stickers))
        // Action
        try await Durable.$observer.withValue({ flushes.add($0) }) { _ = try await sync.sync() }
        // Check: the barrier, then the catalog and its bookmark, then their folder, each flushed fully once.
        let folder = sync.folder.directory.lastPathComponent + "/"
        let commit = flushes.all.filter { $0 != .handOver }
        #expect(
            commit == [.barrier("files/"), .full("catalog.json"), .full(folder), .full("cursor.json"), .full(folder)])
        // Images are handed to the drive one by one only where that flushes no cache (Apple platforms).
        let handedOver = flushes.all.filter { $0 == .handOver }.count
        #if canImport(Darwin)
            #expect(handedOver == stickers)
        #else
            #expect(handedOver == 0)
        #endif
    }

    @Test("A file under its final name that no catalog names is believed only when its bytes match its digest")
    func unconfirmedFileVerified() async throws {
        // Setup: a sync killed before its barrier (or a power lost) left sticker 1's file with the right size, wrong
        // bytes; sticker 2's file whole.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        let files = folder.appending(path: "files")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        let (torn, whole) = (Data("sticker 1".utf8), Data("sticker 2".utf8))
        try Data(repeating: 0, count: torn.count).write(to: files.appending(path: "\(MemoryService.hex(torn)).png"))
        try whole.write(to: files.appending(path: "\(MemoryService.hex(whole)).png"))
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: the torn file fetched again and kept whole; the whole one kept as it was.
        #expect(report.filesDownloaded == 2 && report.failedFiles.isEmpty)
        #expect(try Data(contentsOf: files.appending(path: "\(MemoryService.hex(torn)).png")) == torn)
        #expect(!service.requests.contains { $0.path == "/v1/assets/\(MemoryService.hex(whole)).png" })
    }
}

extension DurableTests {
    @Test("A sync reads catalog.json again only when another process committed since it last did")
    func catalogReadOnlyWhenChanged() async throws {
        // Setup: a first sync; then catalog.json made unreadable behind its back (its bookmark unchanged), and a change
        // on the service.
        let service = MemoryService()
        let sync = StickerSync.testing(service)
        try await sync.sync()
        let catalog = sync.folder.directory.appending(path: "catalog.json")
        try Data("{".utf8).write(to: catalog)
        service.replace(sticker: 0, with: Data("new".utf8))
        let page: [String: Any] = [
            "revision": 2, "cursor": "c2", "moreComing": false,
            "groups": service.manifest["groups"] as! [[String: Any]], "removedGroups": [], "removedStickers": [],
            "order": ["g"],
        ]
        let answer = MemoryService.json(page)
        service.handler = { request, _ in request.path?.hasPrefix("/v1/manifest/changes") == true ? answer : nil }
        // Action
        let report = try await sync.sync()
        // Check: the change page applied to the state held in memory (decoding the file would have found no catalog,
        // and read the whole manifest instead); the file is whole again.
        #expect(report.incremental && report.filesDownloaded == 1 && service.count("/v1/manifest") == 1)
        #expect(sync.folder.load()?.revision == 2)
        // Another process's commit (a new bookmark) is read from disk: one that did not make it decodes it.
        try Data("{".utf8).write(to: catalog)
        let other = try await StickerSync.testing(service, folder: sync.folder.directory).sync()
        #expect(!other.incremental && service.count("/v1/manifest") == 2)
    }
}
