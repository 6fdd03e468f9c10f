import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing
@testable import StickerCatalogClient

/// Files are kept only whole and checked; a sync that dies leaves the old catalog and the next one resumes.
@Suite struct DownloadTests {
    @Test("A corrupt download is discarded and fetched again; one corrupt every time fails the sync and commits nothing")
    func corrupt() async throws {
        // Setup: every image arrives reversed the first time; in a second service, always.
        let flaky = MemoryService(), broken = MemoryService()
        for (service, always) in [(flaky, false), (broken, true)] {
            let files = service.files
            service.handler = { request, number in
                guard let path = request.path, path.hasPrefix("/v1/assets/"), always || number == 1,
                      let file = files[String(path.dropFirst("/v1/assets/".count).dropLast(4))] else { return nil }
                return (HTTPResponse(status: .ok), HTTPBody(Data(file.reversed())))
            }
        }
        let kept = StickerSync.testing(flaky), failing = StickerSync.testing(broken)
        // Action
        let report = try await kept.sync()
        let failure = await #expect(throws: StickerClientError.self) { try await failing.sync() }
        // Check
        #expect(report.filesDownloaded == 3 && flaky.requests.filter { $0.path?.hasPrefix("/v1/assets/") == true }.count == 6)
        if case .corrupt = failure {} else { Issue.record("expected corrupt, got \(String(describing: failure))") }
        #expect(try failing.catalog.load() == nil)
    }

    @Test("A sync that dies halfway keeps the old catalog, and the next fetches only what is missing")
    func resume() async throws {
        // Setup: the third image request fails as a dropped connection would, on every try.
        let service = MemoryService(stickers: 5)
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/assets/") == true && service.requests.filter({ $0.path?.hasPrefix("/v1/assets/") == true }).count > 2
                ? (HTTPResponse(status: .internalServerError), nil) : nil
        }
        let folder = StickerSync.temporaryFolder()
        let dying = StickerSync.testing(service, folder: folder) { $0.concurrency = 1 }
        await #expect(throws: (any Error).self) { try await dying.sync() }
        #expect(try dying.catalog.load() == nil)
        service.handler = { _, _ in nil }
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: two kept before, three fetched now.
        #expect(report.filesDownloaded == 3)
    }
}
