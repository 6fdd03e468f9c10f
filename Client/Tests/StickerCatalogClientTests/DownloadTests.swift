import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// Files are kept only whole and checked; a sync that dies leaves the old catalog and the next one resumes.
@Suite struct DownloadTests {
    @Test("A corrupt download is discarded and fetched again; one corrupt every time is reported and not shown")
    func corrupt() async throws {
        // Setup: every image arrives reversed the first time; in a second service, always.
        let flaky = MemoryService()
        let broken = MemoryService()
        for (service, always) in [(flaky, false), (broken, true)] {
            let files = service.files
            service.handler = { request, number in
                guard let path = request.path, path.hasPrefix("/v1/assets/"), always || number == 1,
                    let file = files[String(path.dropFirst("/v1/assets/".count).dropLast(4))]
                else { return nil }
                return (HTTPResponse(status: .ok), HTTPBody(Data(file.reversed())))
            }
        }
        let kept = StickerSync.testing(flaky)
        let failing = StickerSync.testing(broken)
        // Action
        let report = try await kept.sync()
        let failed = try await failing.sync()
        // Check
        #expect(
            report.filesDownloaded == 3
                && flaky.requests.filter { $0.path?.hasPrefix("/v1/assets/") == true }.count == 6)
        #expect(
            failed.failedFiles.count == 3
                && failed.failedFiles.values.allSatisfy { if case .corrupt = $0 { true } else { false } })
        #expect(failing.folder.load()?.groups.isEmpty == true && failing.folder.load()?.pendingFiles == 3)
    }

    @Test("Files a sync could not fetch are fetched by the next one, and only they")
    func resume() async throws {
        // Setup: from the third image request on, every one fails as a dropped connection would.
        let service = MemoryService(stickers: 5)
        service.handler = { request, _ in
            request.path?.hasPrefix("/v1/assets/") == true
                && service.requests.filter({ $0.path?.hasPrefix("/v1/assets/") == true }).count > 2
                ? (HTTPResponse(status: .internalServerError), nil) : nil
        }
        let folder = StickerSync.temporaryFolder()
        let dying = StickerSync.testing(service, folder: folder) { $0.concurrency = 1 }
        let first = try await dying.sync()
        #expect(first.filesDownloaded == 2 && first.failedFiles.count == 3)
        service.handler = { _, _ in nil }
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: two kept before, three fetched now.
        #expect(report.filesDownloaded == 3)
    }
}
