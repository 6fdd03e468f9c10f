import Foundation
import Testing

@testable import StickerCatalogClient

/// The library mode: installed groups kept whole and in sync at the cost of what changed, groups browsed in a cache
/// that never passes its budget and never takes an installed group's files, groups that leave the view reported, and
/// two processes sharing one folder.
@Suite struct LibraryTests {
    /// The image files in `folder`'s `files/`.
    static func files(_ library: StickerLibrary) -> Set<String> {
        library.folder.fileNames().filter { !$0.hasPrefix(".") }
    }

    @Test func anInstalledGroupIsKeptWholeAndAChangeCostsThreeRequests() async throws {
        let service = LibraryService(groups: 20, stickers: 5)
        let library = StickerLibrary.testing(service)
        for id in ["g1", "g2", "g3", "g4", "g5"] { try await library.install(group: id) }
        #expect(library.installed.map(\.id) == ["g1", "g2", "g3", "g4", "g5"])
        // Five stickers, a picture and a thumbnail each (the cover is the first thumbnail).
        #expect(Self.files(library).count == 5 * 10)
        for sticker in library.installed.flatMap(\.group.stickers) {
            #expect(library.fileURL(for: sticker.asset) != nil && library.fileURL(for: sticker.thumbnail) != nil)
        }
        // Nothing changed: one request, a 304 once a sync has stated the versions.
        try await library.sync()
        service.reset()
        #expect(try await library.sync() == StickerLibrary.Report())
        #expect(service.requests.count == 1 && service.notModified == 1)
        // One sticker of an installed group: the revalidation, the group, its one new picture.
        service.change("g3")
        service.reset()
        let report = try await library.sync()
        #expect(report.changedGroups == ["g3"] && report.filesDownloaded == 1 && report.filesRemoved == 1)
        #expect(service.requests.count == 3, "\(service.requests)")
        #expect(Self.files(library).count == 5 * 10)
    }

    @Test func aChangeToAGroupNotInstalledCostsOneRequestAndNoImage() async throws {
        let service = LibraryService(groups: 20, stickers: 5)
        let library = StickerLibrary.testing(service)
        try await library.install(group: "g1")
        try await library.sync()
        service.change("g7")
        service.reset()
        #expect(try await library.sync() == StickerLibrary.Report())
        #expect(service.requests.count == 1 && service.count("/v1/assets") == 0 && service.notModified == 1)
    }

    @Test func aGroupLeavingTheViewOrRefundedLeavesTheInstalledSetAndIsReported() async throws {
        let service = LibraryService(groups: 6, stickers: 3)
        let library = StickerLibrary.testing(service)
        for id in ["g0", "g1", "g2"] { try await library.install(group: id) }
        service.hide("g0")
        service.lock("g2")
        let report = try await library.sync()
        #expect(Set(report.removedGroups) == ["g0", "g2"] && report.filesRemoved == 12)
        #expect(library.installed.map(\.id) == ["g1"] && Self.files(library).count == 6)
        // A locked group browses by cover and installs after the purchase, not before.
        do {
            try await library.install(group: "g2")
            Issue.record("a locked group installed")
        } catch StickerClientError.refused(403, let code, _) {
            #expect(code == "group_locked")
        }
    }

    @Test func browsing200GroupsNeverPassesTheBudgetNorEvictsAnInstalledGroup() async throws {
        let service = LibraryService(groups: 200, stickers: 5, bytes: 1_000)
        let library = StickerLibrary.testing(service) { $0.cacheBudget = 12_000 }
        try await library.install(group: "g0")
        try await library.install(group: "g150")
        let installedFiles = Self.files(library)
        let first = try await library.index(limit: 200)
        #expect(first.groups.count == 200 && library.cachedBytes <= 12_000)
        for index in 0..<200 {
            let group = try await library.preview(group: "g\(index)")
            #expect(library.cachedBytes <= 12_000, "after g\(index): \(library.cachedBytes)")
            // The group just previewed shows: its thumbnails are in (installed, or cached within the budget).
            #expect(group.stickers.allSatisfy { library.fileURL(for: $0.thumbnail) != nil }, "g\(index)")
        }
        #expect(installedFiles.isSubset(of: Self.files(library)))
        _ = try await library.index(limit: 200)
        #expect(library.cachedBytes <= 12_000)
    }

    @Test func twoProcessesSharingAFolderKeepBothInstalls() async throws {
        let service = LibraryService(groups: 10, stickers: 4)
        let folder = StickerSync.temporaryFolder()
        // Two libraries on one folder take its lock through their own descriptors, as an app and its extension do.
        let app = StickerLibrary.testing(service, folder: folder)
        let extensionLibrary = StickerLibrary.testing(service, folder: folder)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<5 {
                group.addTask { try await app.install(group: "g\(index)") }
                group.addTask { try await extensionLibrary.install(group: "g\(index + 5)") }
            }
            try await group.waitForAll()
        }
        #expect(Set(app.installed.map(\.id)) == Set((0..<10).map { "g\($0)" }))
        #expect(Self.files(app).count == 10 * 8)
        // One uninstalls; the other's groups keep every file.
        try await extensionLibrary.uninstall(group: "g5")
        #expect(app.installed.count == 9 && Self.files(app).count == 9 * 8)
        for sticker in app.installed.flatMap(\.group.stickers) {
            #expect(app.fileURL(for: sticker.asset) != nil)
        }
    }

    @Test func aGroupUninstalledByAnotherProcessDuringASyncIsNotBroughtBack() async throws {
        let service = LibraryService(groups: 4, stickers: 2)
        let folder = StickerSync.temporaryFolder()
        let app = StickerLibrary.testing(service, folder: folder)
        let extensionLibrary = StickerLibrary.testing(service, folder: folder)
        let kept = try await app.install(group: "g1")
        try await app.install(group: "g2")
        // The app's sync fetched g1 at a new version; the extension uninstalls g1 before the app keeps it.
        try await extensionLibrary.uninstall(group: "g1")
        _ = try await app.keep([(kept.group, "newer")], installing: false)
        #expect(app.installed.map(\.id) == ["g2"])
        #expect(Self.files(app).count == 4)
    }
}
