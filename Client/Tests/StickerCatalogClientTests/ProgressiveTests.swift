import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// A first sync fetches what a screen needs first (covers, then group by group), commits its head before the rest of
/// a large catalog, and keeps what arrived when a deadline or an outage cuts it short.
@Suite struct ProgressiveTests {
    /// A service of `groups` groups of `stickers` stickers, each group with a cover and each sticker a thumbnail of
    /// its own.
    static func catalog(groups: Int, stickers: Int) -> MemoryService {
        let service = MemoryService(stickers: 0)
        var list: [[String: Any]] = []
        for group in 0..<groups {
            let cover = Data("cover \(group)".utf8)
            service.serve(cover)
            var members: [[String: Any]] = []
            for index in 0..<stickers {
                let (picture, thumbnail) = (
                    Data("sticker \(group).\(index)".utf8), Data("thumb \(group).\(index)".utf8)
                )
                service.serve(picture)
                service.serve(thumbnail)
                members.append([
                    "id": "s\(group).\(index)", "name": "S", "description": "d", "flags": [], "keywords": [],
                    "emoji": [], "animated": false, "frames": 1, "durationMs": 0, "loops": 0,
                    "asset": MemoryService.link(picture), "thumbnail": MemoryService.link(thumbnail),
                ])
            }
            list.append([
                "id": "g\(group)", "name": "G", "sizeClass": "small", "flags": [], "position": group, "locked": false,
                "productId": NSNull(), "cover": MemoryService.link(cover), "stickers": members,
            ])
        }
        service.manifest["groups"] = list
        return service
    }

    @Test("Files come in the order a screen needs them: every cover, then group by group each thumbnail and picture")
    func order() async throws {
        // Setup: two groups of two, fetched one at a time (no bundles under 32 files).
        let service = Self.catalog(groups: 2, stickers: 2)
        // Action
        try await StickerSync.testing(service) { $0.concurrency = 1 }.sync()
        // Check
        let asked = service.requests.compactMap(\.path).filter { $0.hasPrefix("/v1/assets/") }
        let expected = [
            "cover 0", "cover 1", "thumb 0.0", "sticker 0.0", "thumb 0.1", "sticker 0.1", "thumb 1.0",
            "sticker 1.0", "thumb 1.1", "sticker 1.1",
        ].map { "/v1/assets/\(MemoryService.hex(Data($0.utf8))).png" }
        #expect(asked == expected)
    }

    @Test("An image trickled past the deadline: the sync ends timedOut, and what arrived before it is committed")
    func deadlineKeepsWhatArrived() async throws {
        // Setup: one group of three; the last picture trickles a byte every 50 s; one download at a time.
        let service = Self.catalog(groups: 1, stickers: 3)
        let slow = Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var group = (service.manifest["groups"] as! [[String: Any]])[0]
        var stickers = group["stickers"] as! [[String: Any]]
        stickers[2]["asset"] = MemoryService.link(slow)
        group["stickers"] = stickers
        service.manifest["groups"] = [group]
        let clock = FakeClock()
        service.handler = { request, _ in
            request.path == "/v1/assets/\(MemoryService.hex(slow)).png"
                ? (HTTPResponse(status: .ok), DeadlineTests.trickle(slow, on: clock)) : nil
        }
        let sync = StickerSync.testing(service, clock: clock) { $0.concurrency = 1 }
        // Action
        let failure = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: timed out; the two stickers whose files came are shown, the third pending.
        #expect(failure == .timedOut(after: .seconds(300)))
        let kept = try #require(sync.folder.load())
        #expect(kept.groups.first?.stickers.map(\.id) == ["s0.0", "s0.1"] && kept.pendingFiles == 1)
        #expect((await sync.snapshot)?.groups.first?.stickers.count == 2)
        // The next sync (the trickle gone) fetches the one left, and nothing else.
        service.handler = { _, _ in nil }
        service.serve(slow)
        let report = try await StickerSync.testing(service, folder: sync.folder.directory).sync()
        #expect(report.filesDownloaded == 1 && report.failedFiles.isEmpty)
    }

    @Test(
        "A slow first sync of 1,100 images commits after its first 512, then after the rest; a fast one once",
        arguments: [true, false])
    func checkpoint(slow: Bool) async throws {
        // Setup: 1,100 stickers, 1,100 files, in bundles; the head takes checkpointAfter, or no time.
        let service = MemoryService(stickers: 1100)
        let flushes = DurableTests.Flushes()
        let sync = StickerSync.testing(service) { $0.checkpointAfter = slow ? .zero : .seconds(3600) }
        // Action
        let report = try await Durable.$observer.withValue({ flushes.add($0) }) { try await sync.sync() }
        // Check: two commits, or one; the catalog whole at the end.
        #expect(flushes.all.filter { $0 == .full("catalog.json") }.count == (slow ? 2 : 1))
        #expect(report.filesDownloaded == 1100 && sync.folder.load()?.groups.first?.stickers.count == 1100)
    }

    @Test("Progress is reported at most every interval, apart from the first and last, and never passes the total")
    func throttled() {
        // Setup: a clock that moves only when told.
        let reports = Reports()
        let clock = ManualClock()
        let counter = ProgressCounter(
            SyncProgress(totalFiles: 1000, totalBytes: 1000), now: { clock.now }, report: { reports.add($0) })
        // Action: 999 files at one instant, then the last one 100 ms later.
        for _ in 0..<999 {
            counter.add(bytes: 1)
            counter.fileDone()
        }
        clock.advance(.milliseconds(100))
        counter.add(bytes: 1)
        counter.fileDone()
        // Check: the start, the byte past the interval, and the last file.
        #expect(reports.all.count <= 3 && reports.all.last?.files == 1000 && reports.all.last?.bytes == 1000)
    }

    @Test("A bundle cut in the middle of an image: progress never passes its total, and ends at it")
    func bundleCut() async throws {
        // Setup: 40 files; the bundle's answer cut 4 bytes into an image (the missing ones fetched alone after);
        // every report kept (no interval).
        let service = MemoryService(stickers: 40)
        service.tamper = { frames in
            // Past 20 whole frames (a status byte, a 4-byte length, the bytes), and 4 bytes into the 21st image.
            var offset = frames.startIndex
            for _ in 0..<20 {
                let length = frames[(offset + 1)..<(offset + 5)].reduce(0) { $0 << 8 | Int($1) }
                offset += 5 + length
            }
            return frames.prefix(offset - frames.startIndex + 5 + 4)
        }
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: JSONSerialization.data(withJSONObject: service.manifest))
        let downloads = await StickerSync.testing(service).downloads
        let reports = Reports()
        let counter = ProgressCounter(
            downloads.start(manifest.downloadOrder), every: .zero, report: { reports.add($0) })
        // Action
        let outcome = try await downloads.run(manifest.downloadOrder, counter: counter)
        counter.finish()
        // Check
        #expect(outcome.failed.isEmpty && service.requests.contains { $0.path?.hasSuffix(".png") == true })
        #expect(reports.all.allSatisfy { $0.bytes <= $0.totalBytes }, "\(reports.all.map(\.bytes).max() ?? 0)")
        #expect(reports.all.last.map { $0.bytes == $0.totalBytes && $0.files == 40 } == true)
    }
}

/// Progress reports, in order.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: [SyncProgress] = []
    var all: [SyncProgress] { lock.withLock { seen } }
    func add(_ progress: SyncProgress) { lock.withLock { seen.append(progress) } }
}

/// A continuous clock's instant that moves only when told.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var instant = ContinuousClock.now
    var now: ContinuousClock.Instant { lock.withLock { instant } }
    func advance(_ duration: Duration) { lock.withLock { instant += duration } }
}
