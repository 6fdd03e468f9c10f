import Foundation
import Testing

@testable import StickerCatalogClient

/// The library's SwiftUI model: the index page by page, installs with their progress, refusals as `error`.
@Suite struct LibraryModelTests {
    #if canImport(Observation)
        @available(macOS 14, iOS 17, *)
        @MainActor
        @Test func theIndexLoadsPageByPageAndAnInstallShowsItsProgress() async throws {
            let service = LibraryService(groups: 5, stickers: 4, bytes: 2_000)
            service.lock("g4")
            let model = StickerLibraryModel(library: StickerLibrary.testing(service))
            #expect(model.groups.isEmpty && model.installed.isEmpty && model.hasMore)
            // The service in memory answers every group in one page: the model then knows there is no more.
            await model.loadMore(limit: 2)
            #expect(model.groups.map(\.id) == ["g0", "g1", "g2", "g3", "g4"] && !model.hasMore)
            var seen: [Double] = []
            let watching = Task { @MainActor in
                while !Task.isCancelled {
                    if let fraction = model.installing["g2"], seen.last != fraction { seen.append(fraction) }
                    await Task.yield()
                }
            }
            await model.install("g2")
            watching.cancel()
            #expect(model.installed.map(\.id) == ["g2"] && model.installing.isEmpty && model.error == nil)
            #expect(seen.first == 0, "\(seen)")
            await model.install("g4")
            #expect(model.error == .refused(status: 403, code: "group_locked", detail: "g4 needs com.example.premium"))
            #expect(model.installed.map(\.id) == ["g2"])
            await model.uninstall("g2")
            #expect(model.installed.isEmpty && model.error == nil)
        }
    #endif
}
