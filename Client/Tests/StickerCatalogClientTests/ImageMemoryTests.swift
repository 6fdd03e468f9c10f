import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// An image goes to disk as it arrives, whatever its size: memory does not grow with what a manifest states.
@Suite struct ImageMemoryTests {
    /// A body that sends the first half of `data`, then waits (up to 5 s) until a download's temporary file in `files`
    /// holds that half, then sends the rest; `streamed` says whether it saw the half on disk before the end.
    final class HalfOnDisk: @unchecked Sendable {
        private let lock = NSLock()
        private var seen = false
        var streamed: Bool { lock.withLock { seen } }

        func body(_ data: Data, before: Data = Data(), files: URL) -> HTTPBody {
            let (stream, continuation) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
            let half = data.count / 2
            Task {
                continuation.yield(ArraySlice(before + data.prefix(half)))
                for _ in 0..<500 where !Self.partHolds(half, in: files) {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                lock.withLock { seen = Self.partHolds(half, in: files) }
                continuation.yield(ArraySlice(data.dropFirst(half)))
                continuation.finish()
            }
            return HTTPBody(stream, length: .unknown, iterationBehavior: .single)
        }

        /// Whether a temporary `.part` file in `files` holds at least `bytes`.
        static func partHolds(_ bytes: Int, in files: URL) -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: files.path)) ?? []
            return names.contains { name in
                let size = try? FileManager.default.attributesOfItem(atPath: files.appending(path: name).path)[.size]
                return name.hasSuffix(".part") && ((size as? Int) ?? 0) >= bytes
            }
        }
    }

    /// 256 KiB that do not repeat.
    static let large = Data((0..<(256 << 10)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })

    @Test("A single image is written to disk as it arrives, not collected in memory first")
    func singleStreams() async throws {
        // Setup: one sticker whose picture is 256 KiB, sent in two halves.
        let service = MemoryService(stickers: 1)
        service.replace(sticker: 0, with: Self.large)
        let folder = StickerSync.temporaryFolder()
        let probe = HalfOnDisk()
        service.handler = { request, _ in
            request.path?.hasSuffix(".png") == true
                ? (HTTPResponse(status: .ok), probe.body(Self.large, files: folder.appending(path: "files"))) : nil
        }
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check
        #expect(report.filesDownloaded == 1 && report.failedFiles.isEmpty)
        #expect(probe.streamed, "the first half was not on disk before the second was sent")
    }

    @Test("An image in a bundle is written to disk as its frame arrives")
    func bundleStreams() async throws {
        // Setup: 40 stickers, one of them 256 KiB; the bundle's frames in display order (the order asked), the large
        // image's frame sent in two halves.
        let service = MemoryService(stickers: 40)
        service.replace(sticker: 0, with: Self.large)
        let folder = StickerSync.temporaryFolder()
        let probe = HalfOnDisk()
        let stickers = (service.manifest["groups"] as! [[String: Any]])[0]["stickers"] as! [[String: Any]]
        let named = stickers.map { ($0["asset"] as! [String: Any])["sha256"] as! String }
        let files = service.files
        service.handler = { request, _ in
            guard request.path == "/v1/assets/bundle" else { return nil }
            var before = Data()
            for digest in named {
                let file = files[digest]!
                before.append(0)
                withUnsafeBytes(of: UInt32(file.count).bigEndian) { before.append(contentsOf: $0) }
                if file == Self.large { break }
                before.append(file)
            }
            let after = named.drop { files[$0] != Self.large }.dropFirst()
            var rest = Data()
            for digest in after {
                rest.append(0)
                withUnsafeBytes(of: UInt32(files[digest]!.count).bigEndian) { rest.append(contentsOf: $0) }
                rest.append(files[digest]!)
            }
            return (
                HTTPResponse(status: .ok, headerFields: [.contentType: "application/vnd.stickercatalog.bundle"]),
                probe.body(Self.large + rest, before: before, files: folder.appending(path: "files"))
            )
        }
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: every file from the bundle, none alone.
        #expect(report.filesDownloaded == 40 && report.failedFiles.isEmpty)
        let alone = service.requests.filter { $0.path?.hasSuffix(".png") == true }.count
        #expect(alone == 0)
        #expect(probe.streamed, "the large image's first half was not on disk before the rest was sent")
    }

    @Test("An image a manifest states past SyncOptions.largestImage is refused unfetched; the others are kept")
    func capped() async throws {
        // Setup: sticker 0's picture said to be 64 MiB.
        let service = MemoryService(stickers: 3)
        var manifest = service.manifest
        var group = (manifest["groups"] as! [[String: Any]])[0]
        var stickers = group["stickers"] as! [[String: Any]]
        var link = stickers[0]["asset"] as! [String: Any]
        link["bytes"] = 64 << 20
        (stickers[0]["asset"], stickers[0]["thumbnail"]) = (link, link)
        group["stickers"] = stickers
        manifest["groups"] = [group]
        service.manifest = manifest
        let digest = link["sha256"] as! String
        // Action
        let report = try await StickerSync.testing(service).sync()
        // Check
        #expect(report.filesDownloaded == 2)
        guard case .invalidAnswer? = report.failedFiles[digest] else {
            Issue.record("\(String(describing: report.failedFiles[digest]))")
            return
        }
        #expect(service.count("/v1/assets/\(digest).png") == 0)
    }

    @Test("Progress counts bytes within a file as they arrive, in status and in Foundation.Progress alike")
    func progressWithinFiles() async throws {
        // Setup: one 512 KiB picture sent in two halves; between them, what the sync says is recorded.
        let service = MemoryService(stickers: 1)
        let image = Self.large + Self.large.reversed()
        service.replace(sticker: 0, with: image)
        let clock = FakeClock()
        let sync = StickerSync.testing(service, clock: clock)
        let middle = Middle()
        service.handler = { request, _ in
            guard request.path?.hasSuffix(".png") == true else { return nil }
            let (stream, continuation) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
            Task {
                continuation.yield(ArraySlice(image.prefix(image.count / 2)))
                for _ in 0..<500 where sync.progress.completedUnitCount < image.count / 2 {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                middle.record(sync.status, sync.progress.completedUnitCount, sync.progress.totalUnitCount)
                continuation.yield(ArraySlice(image.dropFirst(image.count / 2)))
                continuation.finish()
            }
            return (HTTPResponse(status: .ok), HTTPBody(stream, length: .unknown, iterationBehavior: .single))
        }
        // Action
        _ = try await sync.sync()
        // Check: halfway through the file, half its bytes and no file done; at the end, all.
        let (status, completed, total) = try #require(middle.seen)
        #expect(
            status == .syncing(SyncProgress(files: 0, totalFiles: 1, bytes: image.count / 2, totalBytes: image.count)))
        #expect(completed == image.count / 2 && total == image.count)
        #expect(sync.progress.completedUnitCount == image.count && sync.progress.fractionCompleted == 1)
    }

    /// What the sync said halfway through a file.
    final class Middle: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (SyncStatus, Int64, Int64)?
        var seen: (SyncStatus, Int64, Int64)? { lock.withLock { value } }
        func record(_ status: SyncStatus, _ completed: Int64, _ total: Int64) {
            lock.withLock { value = (status, completed, total) }
        }
    }

    @Test("Foundation.Progress follows a sync that fetched by one with nothing to fetch, without trapping")
    func progressAfterProgress() {
        // Setup
        let progress = Progress(totalUnitCount: 0)
        // Action: a sync that fetched 100 bytes, then one with nothing to fetch, then one of 50 (Foundation on Linux
        // trapped on the second: a total set under what was done).
        progress.show(SyncProgress(files: 1, totalFiles: 1, bytes: 100, totalBytes: 100))
        progress.show(SyncProgress())
        let nothing = progress.fractionCompleted
        progress.show(SyncProgress(files: 0, totalFiles: 1, bytes: 25, totalBytes: 50))
        // Check
        #expect(nothing == 1 && progress.fractionCompleted == 0.5)
    }
}
