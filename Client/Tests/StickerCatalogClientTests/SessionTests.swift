import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// One sync at a time per folder, a token refreshed once, an event stream bounded per event.
@Suite struct SessionTests {
    @Test("Overlapping syncs of one folder join the running one")
    func overlapping() async throws {
        // Setup
        let service = MemoryService()
        let sync = StickerSync.testing(service)
        // Action
        async let first = sync.sync()
        async let second = sync.sync()
        let reports = try await [first, second]
        // Check: one manifest read, one set of files.
        #expect(service.count("/v1/manifest") == 1 && reports.map(\.revision) == [1, 1])
    }

    @Test("A sync with nothing new asks the change feed once and reads and writes nothing else")
    func nothingNew() async throws {
        // Setup: a first sync.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        _ = try await StickerSync.testing(service, folder: folder).sync()
        let catalog = folder.appending(path: "catalog.json")
        let before = try FileManager.default.attributesOfItem(atPath: catalog.path)[.modificationDate] as? Date
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 0)], ofItemAtPath: catalog.path)
        let requests = service.requests.count
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: one request (the feed's 304), catalog.json untouched.
        let after = try FileManager.default.attributesOfItem(atPath: catalog.path)[.modificationDate] as? Date
        #expect(before != nil && after == Date(timeIntervalSince1970: 0))
        #expect(
            service.requests.count == requests + 1 && report.revision == 1 && !report.changed
                && report.filesDownloaded == 0)
    }

    @Test("An expired token is refreshed once, after the first 401, and not again")
    func refreshOnce() async throws {
        // Setup: the service takes only the new token.
        let service = MemoryService()
        service.handler = { request, _ in
            request.path == "/v1/manifest" && request.headerFields[.authorization] != "Bearer new"
                ? MemoryService.refusal(.unauthorized, code: "invalid_token") : nil
        }
        let refreshes = Times()
        let credentials = Credentials { refresh in
            if refresh { refreshes.add(.zero) }
            return refresh ? "new" : "old"
        }
        let sync = StickerSync.testing(service, credentials: credentials)
        // Action
        let report = try await sync.sync()
        // Check
        #expect(report.filesDownloaded == 3 && refreshes.all.count == 1 && service.count("/v1/manifest") == 2)
    }

    @Test("An event that never ends is refused past its bound, a line at a time")
    func endlessEvent() async throws {
        // Setup: `data: x` lines without end, never a blank line.
        let service = MemoryService()
        service.handler = { request, _ in
            guard request.path?.hasPrefix("/v1/events") == true else { return nil }
            return (
                HTTPResponse(status: .ok, headerFields: [.contentType: "text/event-stream"]),
                HTTPBody(DataLines(), length: .unknown, iterationBehavior: .single)
            )
        }
        let sync = StickerSync.testing(service)
        // Action
        let events = try await sync.service.events(CatalogView(), from: nil)
        let failure = await #expect(throws: StickerClientError.self) { for try await _ in events {} }
        // Check
        if case .invalidAnswer(let reason) = failure {
            #expect(reason.contains("event longer"))
        } else {
            Issue.record("\(String(describing: failure))")
        }
    }
}

/// `data: x` lines without end.
struct DataLines: AsyncSequence, Sendable {
    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> ArraySlice<UInt8>? {
            ArraySlice(Array(String(repeating: "data: x\r\n", count: 4096).utf8))
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
