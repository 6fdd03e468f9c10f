import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// What a hostile or broken network sends never traps, never grows memory without bound, never escapes the folder.
@Suite struct NetworkInputTests {
    @Test(
        "A Retry-After that is not a number of seconds is not one, and never traps",
        arguments: ["nan", "-inf", "-1e20", "1e20", "9223372036854775807999"])
    func retryAfterGarbage(header: String) async throws {
        // Setup: the manifest is busy twice with a garbage Retry-After.
        let service = MemoryService()
        service.handler = { request, number in
            request.path == "/v1/manifest" && number <= 2
                ? MemoryService.refusal(.serviceUnavailable, code: "not_ready", retryAfter: header) : nil
        }
        let clock = FakeClock()
        // Action
        let report = try await StickerSync.testing(service, clock: clock).sync()
        // Check: synced after two waits, each a backoff (under its cap), none believed from the header.
        #expect(report.filesDownloaded == 3 && clock.waits.count == 2)
        #expect(clock.waits.allSatisfy { $0 <= Backoff().maximum })
        #expect(
            Backoff().retryAfter(header) == nil && Backoff().retryAfter("5") == .seconds(5)
                && Backoff().retryAfter("99999") == .seconds(300))
    }

    @Test("An image longer than its manifest says is refused as it arrives, an endless one included")
    func endlessFile() async throws {
        // Setup: every image is an endless stream of bytes.
        let service = MemoryService()
        service.handler = { request, _ in
            guard request.path?.hasPrefix("/v1/assets/") == true else { return nil }
            return (HTTPResponse(status: .ok), HTTPBody(Endless(), length: .unknown, iterationBehavior: .single))
        }
        let sync = StickerSync.testing(service)
        // Action
        let report = try await sync.sync()
        // Check: each refused as too long, none kept, the catalog shows nothing it has no file for.
        #expect(
            report.failedFiles.count == 3
                && report.failedFiles.values.allSatisfy { if case .invalidAnswer = $0 { true } else { false } })
        let held = await sync.snapshot
        #expect(sync.folder.storedDigests().isEmpty && held?.groups.isEmpty == true)
    }

    @Test("An answer that declares more than the client's bound is refused before a byte, naming both lengths")
    func declaredTooLong() async throws {
        // Setup: a manifest that says it is 70 MB (past the 64 MiB bound on JSON), whose bytes must not be read.
        let service = MemoryService()
        service.handler = { request, _ in
            guard request.path == "/v1/manifest" else { return nil }
            var response = HTTPResponse(status: .ok)
            response.headerFields[.contentType] = "application/json"
            return (response, HTTPBody(Unread(), length: .known(70_000_000), iterationBehavior: .single))
        }
        // Action
        let error = await #expect(throws: StickerClientError.self) { try await StickerSync.testing(service).sync() }
        // Check: the error names the answer's length and the client's real bound (it said "longer than 0 bytes").
        guard case .invalidAnswer(let reason) = error else {
            Issue.record("not an invalid answer: \(String(describing: error))")
            return
        }
        #expect(reason == "an answer of 70000000 bytes, past this client's bound of \(64 << 20) bytes", "\(reason)")
    }

    @Test("A digest that is a path is refused before it names a file")
    func digestPath() async throws {
        // Setup: a manifest naming an image '../../escape'.
        let service = MemoryService()
        var group = (service.manifest["groups"] as! [[String: Any]])[0]
        var stickers = group["stickers"] as! [[String: Any]]
        var asset = stickers[0]["asset"] as! [String: Any]
        asset["sha256"] = "../../escape"
        stickers[0]["asset"] = asset
        group["stickers"] = stickers
        service.manifest["groups"] = [group]
        let folder = StickerSync.temporaryFolder()
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: that sticker refused, the others kept.
        if case .invalidAnswer = report.failedFiles["../../escape"] {
        } else {
            Issue.record("expected invalidAnswer, got \(report.failedFiles)")
        }
        #expect(report.filesDownloaded == 3)
        #expect(
            !FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appending(path: "escape").path))
    }

    @Test("An image URL on an IPv6 host is fetched; one that is no URL is refused; neither traps")
    func imageURLs() async throws {
        for (prefix, works) in [("http://[::1]:8080", true), ("http://exa mple", false)] {
            // Setup: absolute image URLs.
            let service = MemoryService(stickers: 1)
            var group = (service.manifest["groups"] as! [[String: Any]])[0]
            var stickers = group["stickers"] as! [[String: Any]]
            for key in ["asset", "thumbnail"] {
                var link = stickers[0][key] as! [String: Any]
                link["url"] = prefix + (link["url"] as! String)
                stickers[0][key] = link
            }
            group["stickers"] = stickers
            service.manifest["groups"] = [group]
            // Action
            var report: StickerSync.Report?
            var failure: (any Error)?
            do { report = try await StickerSync.testing(service).sync() } catch { failure = error }
            // Check
            if works {
                #expect(
                    report?.filesDownloaded == 1 && service.requests.last?.authority == "[::1]:8080",
                    "\(String(describing: failure))")
            } else if case .invalidAnswer = report?.failedFiles.values.first, report?.failedFiles.count == 1 {
            } else {
                Issue.record(
                    "expected the file refused as invalidAnswer, got \(String(describing: report)), \(String(describing: failure))"
                )
            }
        }
    }

    @Test(
        "An image path on the service is taken as it is; a scheme-relative or odd one is parsed, at the origin, never under the base's path"
    )
    func imagePaths() throws {
        // Setup: a service under a path.
        let middleware = ServiceMiddleware(
            credentials: nil, attempts: 1, backoff: Backoff(), sleep: { _ in }, userAgent: "test")
        let service = CatalogService(
            base: URL(string: "http://stickers.test:8080/api/")!, transport: MemoryService(), middleware: middleware)
        // Action
        let plain = try service.request(for: "/v1/assets/abc.png?sig=x")
        let other = try service.request(for: "//cdn.test/a.png")
        let spaced = try service.request(for: "/v1/assets/a b.png")
        // Check
        #expect(
            plain.0.authority == "stickers.test:8080" && plain.0.path == "/v1/assets/abc.png?sig=x"
                && plain.1.absoluteString == "http://stickers.test:8080")
        #expect(
            other.0.authority == "cdn.test" && other.0.path == "/a.png" && other.1.absoluteString == "http://cdn.test")
        #expect(spaced.0.path == "/v1/assets/a%20b.png")
    }

    @Test("A refused, unreachable or malformed image URL leaves its signature out of the error")
    func noSignatureInErrors() async throws {
        // Setup: a service that refuses every image, and one that cannot be reached.
        let middleware = ServiceMiddleware(
            credentials: nil, attempts: 1, backoff: Backoff(), sleep: { _ in }, userAgent: "test")
        let refusing = MemoryService()
        refusing.handler = { _, _ in MemoryService.refusal(.forbidden, code: "forbidden") }
        let services = [
            CatalogService(base: URL(string: "http://stickers.test/")!, transport: refusing, middleware: middleware),
            CatalogService(
                base: URL(string: "http://stickers.test/")!, transport: Failing(base: MemoryService()),
                middleware: middleware),
        ]
        let urls = ["/v1/assets/abc.png?exp=1700000000&sig=SECRET", "http://cdn.test/a b.png?sig=SECRET"]
        for (service, url) in zip(services + [services[0]], urls + ["http://[::1/a.png?sig=SECRET"]) {
            // Action
            do {
                try await service.file(url, bytes: 1024) { _ in }
                Issue.record("\(url) was fetched")
            } catch {
                // Check: neither the error nor its description names the signature.
                let told = "\(error) \((error as? StickerClientError)?.errorDescription ?? "")"
                #expect(!told.contains("SECRET") && !told.contains("sig="), "\(told)")
            }
        }
    }

    @Test(
        "An endless moreComing is cut after maxPages and the whole manifest read instead; a page that goes back is refused"
    )
    func changeFeedBounds() async throws {
        // Setup: a first sync, then a feed that always has more.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        _ = try await StickerSync.testing(service, folder: folder).sync()
        let page: [String: Any] = [
            "revision": 2, "cursor": "c2", "moreComing": true, "groups": [], "removedGroups": [], "removedStickers": [],
            "order": ["g"],
        ]
        let pageAnswer = MemoryService.json(page)
        service.handler = { request, _ in request.path?.hasPrefix("/v1/manifest/changes") == true ? pageAnswer : nil }
        // Action
        let report = try await StickerSync.testing(service, folder: folder) { $0.maxPages = 5 }.sync()
        // Check: five pages, then the manifest.
        #expect(service.count("/v1/manifest/changes") == 5 && report.incremental == false)

        // Setup: a feed from an older revision than the catalog held.
        let older: [String: Any] = [
            "revision": 0, "cursor": "c0", "moreComing": false, "groups": [], "removedGroups": [],
            "removedStickers": [], "order": [],
        ]
        let olderAnswer = MemoryService.json(older)
        service.handler = { request, _ in request.path?.hasPrefix("/v1/manifest/changes") == true ? olderAnswer : nil }
        // Action
        let failure = await #expect(throws: StickerClientError.self) {
            try await StickerSync.testing(service, folder: folder).sync()
        }
        // Check: refused; the catalog kept.
        if case .invalidAnswer = failure {
        } else {
            Issue.record("expected invalidAnswer, got \(String(describing: failure))")
        }
        #expect((await StickerSync.testing(service, folder: folder).snapshot)?.revision == 1)
    }

    @Test("After a 410 the manifest is asked for without the expired catalog's ETag, and the cursor goes escaped")
    func expiredCursor() async throws {
        // Setup: a first sync (ETag "e1"), then the feed answers 410.
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        service.handler = { request, _ in
            request.path == "/v1/manifest" ? MemoryService.json(service.manifest, headers: [.eTag: "\"e1\""]) : nil
        }
        service.manifest["cursor"] = "a+b/c=&d"
        _ = try await StickerSync.testing(service, folder: folder).sync()
        service.handler = { request, _ in
            if request.path?.hasPrefix("/v1/manifest/changes") == true {
                return MemoryService.refusal(.gone, code: "cursor_expired")
            }
            return request.path == "/v1/manifest" && request.headerFields[.ifNoneMatch] != nil
                ? (HTTPResponse(status: .notModified), nil) : nil
        }
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: a whole manifest, asked without If-None-Match; the cursor escaped in the feed's query.
        let feed = try #require(service.requests.first { $0.path?.hasPrefix("/v1/manifest/changes") == true })
        #expect(
            report.incremental == false
                && service.requests.last { $0.path == "/v1/manifest" }?.headerFields[.ifNoneMatch] == nil)
        #expect(feed.path?.contains("since=a%2Bb%2Fc%3D%26d") == true)
    }

    @Test("A catalog.json this version cannot read is a first sync, not a dead folder")
    func unreadableState() async throws {
        // Setup: a torn catalog.json, and one from a newer layout.
        let service = MemoryService()
        for text in [
            "{\"view\": ", #"{"version": 99, "view": "", "manifest": {}, "syncedAt": "2026-01-01T00:00:00Z"}"#,
        ] {
            let folder = StickerSync.temporaryFolder()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: folder.appending(path: "catalog.json"))
            // Action
            let sync = StickerSync.testing(service, folder: folder)
            let report = try await sync.sync()
            // Check
            let kept = sync.folder.load()
            #expect(report.filesDownloaded == 3 && report.incremental == false && kept != nil)
        }
    }
}

/// Bytes without end.
/// A body a test expects never to be read: reading it fails the test.
struct Unread: AsyncSequence, Sendable {
    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> ArraySlice<UInt8>? {
            Issue.record("a body that should have been refused unread was read")
            return nil
        }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}

struct Endless: AsyncSequence, Sendable {
    struct AsyncIterator: AsyncIteratorProtocol {
        mutating func next() async throws -> ArraySlice<UInt8>? { ArraySlice(repeating: 0x41, count: 65536) }
    }
    func makeAsyncIterator() -> AsyncIterator { AsyncIterator() }
}
