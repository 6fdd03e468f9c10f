import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// One bad file blocks nothing else: the rest commits, its sticker keeps its previous picture, and it is fetched later.
@Suite struct FileFailureTests {
    @Test(
        "A file the service cannot give is reported, its sticker keeps its old picture, the others update, and the next sync fetches it"
    )
    func oneBadFile() async throws {
        // Setup: a first sync; then two stickers get new pictures, one of which the service answers 404 for.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        _ = try await StickerSync.testing(service, folder: folder).sync()
        let old = try #require(
            (await StickerSync.testing(service, folder: folder).snapshot)?.groups.first?.stickers.first?.asset.sha256)
        let (broken, fine) = (Data("sticker 0, new".utf8), Data("sticker 1, new".utf8))
        service.replace(sticker: 0, with: broken, served: false)
        service.replace(sticker: 1, with: fine)
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/manifest/changes") == true
                ? MemoryService.refusal(.gone, code: "cursor_expired") : nil
        }
        let sync = StickerSync.testing(service, folder: folder)
        // Action
        let report = try await sync.sync()
        // Check: reported; sticker 0 shows its old picture, sticker 1 its new one, at the new revision.
        let shown = try #require(await sync.snapshot)
        #expect(report.failedFiles.keys.sorted() == [MemoryService.hex(broken)] && report.filesDownloaded == 1)
        if case .refused(404, _, _) = report.failedFiles.values.first {} else { Issue.record("\(report.failedFiles)") }
        #expect(shown.revision == 3 && shown.pendingFiles == 1)
        #expect(
            shown.groups[0].stickers.map(\.asset.sha256) == [
                old, MemoryService.hex(fine), MemoryService.hex(Data("sticker 2".utf8)),
            ])
        #expect(FileManager.default.fileExists(atPath: shown.fileURL(for: shown.groups[0].stickers[0].asset).path))

        // Action: the service has the file now.
        service.serve(broken)
        let retried = try await StickerSync.testing(service, folder: folder).sync()
        // Check: fetched and shown; nothing pending.
        let after = try #require(await StickerSync.testing(service, folder: folder).snapshot)
        #expect(retried.filesDownloaded == 1 && retried.failedFiles.isEmpty && after.pendingFiles == 0)
        #expect(after.groups[0].stickers[0].asset.sha256 == MemoryService.hex(broken))

        // Action: nothing new and nothing pending.
        service.handler = { _, _ in nil }
        let before = service.requests.count
        _ = try await StickerSync.testing(service, folder: folder).sync()
        // Check: the change feed's 304 alone.
        #expect(service.requests.count == before + 1)
    }

    @Test("A new sticker whose file fails is left out until it arrives; a new group with none is left out too")
    func newStickerFails() async throws {
        // Setup: a first sync of a group whose every file fails (a 500: that file's failure, not an outage).
        let service = MemoryService()
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/assets/") == true ? (HTTPResponse(status: .internalServerError), nil) : nil
        }
        let sync = StickerSync.testing(service)
        // Action
        let report = try await sync.sync()
        // Check: all reported; the group is not shown; nothing but the catalog written.
        let held = await sync.snapshot
        #expect(report.failedFiles.count == 3 && held?.groups.isEmpty == true)
        #expect(sync.folder.storedDigests().isEmpty)

        // Action: the files can be had.
        service.handler = { _, _ in nil }
        let arrived = try await sync.sync()
        // Check: fetched and shown.
        let shown = await sync.snapshot
        #expect(arrived.filesDownloaded == 3 && shown?.groups.first?.stickers.count == 3)
    }

    @Test("Losing the network in the middle of a sync ends it, offline, instead of failing each of its files in turn")
    func offlineEnds() async throws {
        // Setup: 400 stickers; the manifest comes, then every image request finds no one listening.
        let service = MemoryService(stickers: 400)
        let sync = StickerSync.testing(FilesOffline(service: service))
        // Action
        let failure = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: offline, after a few requests, nothing committed.
        guard case .unreachable(_, .offline) = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(service.requests.count == 1 && sync.folder.load() == nil)
    }

    @Test(
        "A 403 for an image URL without a signature is that file's failure; it does not read the whole manifest again")
    func unsignedForbidden() async throws {
        // Setup: one image forbidden.
        let service = MemoryService()
        let forbidden = try #require(service.files.keys.sorted().first)
        service.handler = { request, _ in
            request.path == "/v1/assets/\(forbidden).png" ? MemoryService.refusal(.forbidden, code: "forbidden") : nil
        }
        // Action
        let report = try await StickerSync.testing(service).sync()
        // Check
        #expect(report.failedFiles.keys.sorted() == [forbidden] && service.count("/v1/manifest") == 1)
    }

    @Test(
        "follow() fetches a file that failed once its backoff has passed, at the next heartbeat, with no change to wait for"
    )
    func followRetries() async throws {
        // Setup: a sticker whose file is missing; an event stream of heartbeats only.
        let service = MemoryService()
        let late = Data("sticker 0, late".utf8)
        service.replace(sticker: 0, with: late, served: false)
        service.handler = { request, _ in
            guard request.path?.hasPrefix("/v1/events") == true else { return nil }
            return (
                HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]),
                HTTPBody(Heartbeats(), length: .unknown, iterationBehavior: .single)
            )
        }
        let sync = StickerSync.testing(service)
        let following = Task { await sync.follow() }
        defer { following.cancel() }
        try await Self.until { (await sync.snapshot)?.pendingFiles == 1 }
        // Action: the file can be had now.
        service.serve(late)
        // Check: fetched and shown without any change event.
        try await Self.until { (await sync.snapshot)?.pendingFiles == 0 }
        #expect((await sync.snapshot)?.groups.first?.stickers.first?.asset.sha256 == MemoryService.hex(late))
    }

    /// Waits until `condition` holds, for at most 20 seconds.
    static func until(_ condition: () async -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while await !condition() {
            guard ContinuousClock.now < deadline else {
                Issue.record("waited 20 s in vain")
                return
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// `service`, except that image requests find no one listening (a refused connection).
struct FilesOffline: ClientTransport {
    let service: MemoryService
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if request.path?.hasPrefix("/v1/assets/") == true {
            throw StickerClientError.unreachable("connect", reason: .offline)
        }
        return try await service.send(request, body: body, baseURL: baseURL, operationID: operationID)
    }
}

/// A `: heartbeat` comment every 50 ms, without end.
struct Heartbeats: AsyncSequence, Sendable {
    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> ArraySlice<UInt8>? {
            try await Task.sleep(for: .milliseconds(50))
            return ArraySlice(": heartbeat\n\n".utf8)
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
