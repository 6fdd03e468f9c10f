import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// Cancelling a sync stops it at once and keeps nothing.
@Suite struct CancelTests {
    @Test("Cancelling sync() stops its downloads, keeps no file and throws CancellationError within 100 ms")
    func cancel() async throws {
        // The best of five tries, spread over a second and more: parallel tests can hold this machine's two cooperative
        // threads for a moment, and a sync that does not stop takes ten seconds (a trickle's next byte) on every try.
        // Bundles first, then single files (a service without bundles).
        for bundles in [true, false] {
            try await cancel(bundles: bundles)
        }
    }

    func cancel(bundles: Bool) async throws {
        var fastest = Duration.seconds(60)
        for _ in 0..<5 {
            // Setup: 400 stickers whose files (and bundles) trickle a byte every ten seconds.
            let service = MemoryService(stickers: 400)
            service.bundles = bundles
            service.handler = { request, _ in
                if request.path == "/v1/assets/bundle", !bundles { return nil }
                guard request.path?.hasPrefix("/v1/assets/") == true else { return nil }
                return (HTTPResponse(status: .ok), HTTPBody(Trickle(), length: .unknown, iterationBehavior: .single))
            }
            let assets = { service.requests.filter { $0.path?.hasPrefix("/v1/assets/") == true }.count }
            let sync = StickerSync.testing(service)
            let running = Task { try await sync.sync() }
            let deadline = ContinuousClock.now + .seconds(20)
            // Bundles: 400 files in two, both asked at once (half the eight connections); else eight files at once.
            while assets() < (bundles ? 2 : 8) {
                guard ContinuousClock.now < deadline else {
                    Issue.record("the downloads never started")
                    running.cancel()
                    return
                }
                try await Task.sleep(for: .milliseconds(5))
            }
            // Action
            let start = ContinuousClock.now
            running.cancel()
            let result = await running.result
            fastest = min(fastest, ContinuousClock.now - start)
            let fetched = assets()
            try await Task.sleep(for: .milliseconds(250))
            // Check: CancellationError, no request after, nothing on disk, the status as before.
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(assets() == fetched && fetched <= 16)
            let files = (try? FileManager.default.contentsOfDirectory(atPath: sync.folder.filesDirectory.path)) ?? []
            #expect(files.isEmpty && sync.folder.load() == nil)
            if case .notSynced = sync.status {} else { Issue.record("status \(sync.status)") }
        }
        #expect(fastest < .milliseconds(100), "cancelling took \(fastest) at best (bundles: \(bundles))")
    }
}

extension CancelTests {
    @Test("A cancelled call that joined a sync stops waiting at once; the sync goes on for the call still waiting")
    func cancelledJoiner() async throws {
        // Setup: files that take 300 ms each; two calls, the second joining the first's sync.
        let service = MemoryService()
        let files = service.files
        service.handler = { request, _ in
            guard let path = request.path, path.hasPrefix("/v1/assets/"),
                let file = files[String(path.dropFirst("/v1/assets/".count).dropLast(4))]
            else { return nil }
            return (
                HTTPResponse(status: .ok), HTTPBody(Slow(bytes: file), length: .unknown, iterationBehavior: .single)
            )
        }
        let sync = StickerSync.testing(service)
        let first = Task { try await sync.sync() }
        try await Task.sleep(for: .milliseconds(50))
        let second = Task { try await sync.sync() }
        try await Task.sleep(for: .milliseconds(50))
        // Action
        first.cancel()
        let cancelled = await first.result
        let report = try await second.value
        // Check: the first threw, the second got the whole sync, made once.
        #expect(throws: CancellationError.self) { try cancelled.get() }
        #expect(report.filesDownloaded == 3 && service.count("/v1/manifest") == 1)
    }
}

/// A body that arrives whole after 300 ms.
struct Slow: AsyncSequence, Sendable {
    let bytes: Data
    struct AsyncIterator: AsyncIteratorProtocol {
        var bytes: Data?
        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let bytes else { return nil }
            self.bytes = nil
            try await Task.sleep(for: .milliseconds(300))
            return ArraySlice(bytes)
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(bytes: bytes) }
}

/// A body that sends a byte every ten seconds.
struct Trickle: AsyncSequence, Sendable {
    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> ArraySlice<UInt8>? {
            try await Task.sleep(for: .seconds(10))
            return [0]
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
