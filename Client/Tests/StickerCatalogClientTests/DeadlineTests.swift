import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// A sync ends at its deadline, on the injected clock, whatever a server trickles.
@Suite struct DeadlineTests {
    /// A body that sends one byte of `data` every 50 s of `clock`'s time, until it is sent or no one reads.
    static func trickle(_ data: Data, on clock: FakeClock) -> HTTPBody {
        let (stream, continuation) = AsyncStream.makeStream(of: ArraySlice<UInt8>.self)
        Task {
            for byte in data {
                guard case .enqueued = continuation.yield([byte]) else { return }
                try? await clock.sleep(.seconds(50))
            }
            continuation.finish()
        }
        return HTTPBody(stream, length: .unknown, iterationBehavior: .single)
    }

    @Test("An image trickled a byte every 50 s ends a first sync at its deadline as timedOut; the others stay kept")
    func trickledImage() async throws {
        // Setup: three stickers, the first 2,000 bytes sent a byte at a time; one download at a time, in display order.
        let service = MemoryService(stickers: 3)
        let slow = Data((0..<2000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        service.replace(sticker: 0, with: slow)
        let clock = FakeClock()
        service.handler = { request, _ in
            request.path == "/v1/assets/\(MemoryService.hex(slow)).png"
                ? (HTTPResponse(status: .ok), Self.trickle(slow, on: clock)) : nil
        }
        let sync = StickerSync.testing(service, clock: clock) { $0.concurrency = 1 }
        // Action
        let failure = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: ended within the deadline and one trickle step; nothing committed, as no sticker arrived whole (the
        // first file never did, and the others wait behind it).
        #expect(failure == .timedOut(after: .seconds(300)))
        #expect(clock.now <= .seconds(350), "ended at \(clock.now)")
        #expect(sync.folder.load() == nil && sync.folder.storedDigests().isEmpty)
        guard case .offline(let shown, _) = sync.status else {
            Issue.record("status \(sync.status)")
            return
        }
        #expect(shown as? StickerClientError == failure)
    }

    @Test("A wait between tries that would pass the deadline is not waited; a synced folder gets the shorter deadline")
    func retryPastDeadline() async throws {
        // Setup: a synced folder; then the change feed answers 503 asking for 25 s, past a 20 s deadline at the 1st.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        _ = try await StickerSync.testing(service, folder: folder).sync()
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/manifest/changes") == true
                ? MemoryService.refusal(.serviceUnavailable, code: "unavailable", retryAfter: "25") : nil
        }
        let clock = FakeClock()
        let sync = StickerSync.testing(service, clock: clock, folder: folder) {
            ($0.deadline, $0.firstSyncDeadline) = (.seconds(20), .seconds(600))
        }
        // Action
        let failure = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: one request, no wait.
        #expect(failure == .timedOut(after: .seconds(20)))
        #expect(service.count("/v1/manifest/changes") == 1 && clock.now == .zero)
    }
}
