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

    @Test("A token provider that fails ends the request at once as credentialsUnavailable, asked once, never retried")
    func providerFails() async throws {
        // Setup: the app cannot give a token (its sign-in expired).
        struct SignedOut: Error {}
        let service = MemoryService()
        let asked = Times()
        let credentials = Credentials { _ in
            asked.add(.zero)
            throw SignedOut()
        }
        let sync = StickerSync.testing(service, credentials: credentials)
        // Action
        let failure = await #expect(throws: StickerClientError.self) { try await sync.sync() }
        // Check: its own case, keeping the cause; no request was sent and the provider was not asked again.
        guard case .credentialsUnavailable(let underlying) = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(underlying.error is SignedOut && asked.all.count == 1 && service.requests.isEmpty)
    }

    @Test("Requests at once, against a service that takes only a fresh token, refresh it once")
    func concurrentRefresh() async throws {
        // Setup: every request signed with the stale token is refused; the app hands out the stale one until asked
        // to refresh, then the fresh one.
        let service = MemoryService()
        service.handler = { request, _ in
            let signed = request.path?.hasPrefix("/v1/assets") != true
            return signed && request.headerFields[.authorization] != "Bearer fresh"
                ? MemoryService.refusal(.unauthorized, code: "invalid_token") : nil
        }
        let refreshes = Times()
        let credentials = Credentials { refresh in
            guard refresh else { return refreshes.all.isEmpty ? "stale" : "fresh" }
            // A refresh takes a while (a round trip to the app's sign-in service): the other request's 401 comes
            // while it runs.
            try await Task.sleep(for: .milliseconds(300))
            refreshes.add(.zero)
            return "fresh"
        }
        // Two folders, one sign-in: an app syncing its catalog while another part of it asks the service (the memory
        // service has no search route, so a second sync stands in for it).
        let (first, second) = (
            StickerSync.testing(service, credentials: credentials),
            StickerSync.testing(service, credentials: credentials)
        )
        // Action
        async let one = first.sync()
        async let two = second.sync()
        _ = try await (one, two)
        // Check
        #expect(refreshes.all.count == 1, "\(refreshes.all.count) refreshes")
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
