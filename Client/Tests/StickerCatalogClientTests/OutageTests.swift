import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// A service (or its CDN) that answers 503 or 429 ends a sync in a few requests, not one wait per file.
@Suite struct OutageTests {
    /// A service whose images and bundles are all refused with `status` and `Retry-After: retryAfter`.
    static func refusingImages(_ status: HTTPResponse.Status, retryAfter: String, stickers: Int = 100) -> MemoryService
    {
        let service = MemoryService(stickers: stickers)
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/assets/") == true
                ? MemoryService.refusal(status, code: "unavailable", retryAfter: retryAfter) : nil
        }
        return service
    }

    @Test("Every image and bundle answered 503 Retry-After: 300 ends a 100-sticker sync as unavailable at once")
    func cdnDown() async throws {
        // Setup
        let service = Self.refusingImages(.serviceUnavailable, retryAfter: "300")
        let clock = FakeClock()
        let sync = StickerSync.testing(service, clock: clock)
        // Action
        let error = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: the manifest and one try of each bundle in flight; nothing waited in the sync.
        #expect(error == .unavailable(status: 503, code: "unavailable", retryAfter: .seconds(300)))
        #expect(service.requests.count <= 5, "\(service.requests.count) requests")
        #expect(clock.now == .zero, "waited \(clock.now)")
        #expect(sync.folder.load() == nil)
        guard case .offline(let shown, _) = sync.status else {
            Issue.record("status \(sync.status)")
            return
        }
        #expect(shown as? StickerClientError == error)
    }

    @Test("A short Retry-After is waited the usual number of times per request, then the sync ends")
    func shortRetryAfter() async throws {
        // Setup: 429 on every image and bundle, asking for a second.
        let service = Self.refusingImages(.tooManyRequests, retryAfter: "1")
        let clock = FakeClock()
        let sync = StickerSync.testing(service, clock: clock) { $0.concurrency = 2 }
        // Action
        let error = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: 5 tries of the one bundle in flight (concurrency 2 runs one), a second apart; then the end.
        #expect(error == .unavailable(status: 429, code: "unavailable", retryAfter: .seconds(1)))
        let assets = service.requests.filter { $0.path?.hasPrefix("/v1/assets/") == true }.count
        #expect(assets == 5 && clock.now == .seconds(4), "\(assets) requests, \(clock.now) waited")
    }

    @Test("Files kept before an outage stay; the next sync fetches only the others")
    func resumeAfterOutage() async throws {
        // Setup: single files, the first 10 served, then the CDN is down.
        let service = MemoryService(stickers: 40)
        service.bundles = false
        let served = Counter()
        service.handler = { request, _ in
            guard request.path?.hasSuffix(".png") == true, served.next() > 10 else { return nil }
            return MemoryService.refusal(.serviceUnavailable, code: "unavailable", retryAfter: "120")
        }
        let folder = StickerSync.temporaryFolder()
        let first = StickerSync.testing(service, folder: folder) { $0.concurrency = 1 }
        await #expect(throws: StickerClientError.self) { try await first.sync() }
        // What arrived is shown: the first ten stickers (each one file, its picture and thumbnail alike).
        #expect(first.folder.load()?.groups.first?.stickers.count == 10)
        service.handler = { _, _ in nil }
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check
        #expect(report.filesDownloaded == 30 && report.failedFiles.isEmpty)
        #expect(StickerSync.testing(service, folder: folder).folder.load()?.groups.first?.stickers.count == 40)
    }
}

/// A count shared by a handler's calls.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    /// The count so far.
    var count: Int { lock.withLock { value } }

    /// One more; the new count.
    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
