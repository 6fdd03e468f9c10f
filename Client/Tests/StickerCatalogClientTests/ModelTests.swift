import Foundation
import Testing

@testable import StickerCatalogClient

/// The SwiftUI models block the main actor for no decode: creating one reads nothing from disk (the catalog held in
/// memory stays unmade until a task of its own makes it), and the catalog arrives after. How long the main actor is
/// held is a benchmark's figure (`scripts/bench.sh client`), not a test's.
@Suite struct ModelTests {
    /// A folder holding a synced catalog of `stickers` stickers, written directly (no sync).
    static func syncedFolder(stickers: Int) throws -> LocalCatalog {
        let service = MemoryService(stickers: stickers)
        let manifest = try JSONDecoder().decode(
            Manifest.self, from: JSONSerialization.data(withJSONObject: service.manifest))
        let folder = LocalCatalog(directory: StickerSync.temporaryFolder())
        try folder.save(.init(view: CatalogView().key, manifest: manifest, syncedAt: Date()))
        return folder
    }

    /// Waits on the main actor, in real time, until `condition` holds, at most 20 s: whether it did (a test that waits
    /// for good hangs the suite instead of failing).
    @MainActor
    static func eventually(_ condition: @MainActor () -> Bool) async -> Bool {
        let end = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < end else { return false }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return true
    }

    #if canImport(Observation)
        @available(macOS 14, iOS 17, *)
        @MainActor
        @Test("At 10,000 stickers creating the model reads nothing on the main actor; the catalog arrives after")
        func mainActorStaysFree() async throws {
            // Setup: a sync that holds nothing in memory yet.
            let folder = try Self.syncedFolder(stickers: 10_000)
            let sync = StickerSync(service: URL(string: "http://stickers.test")!, folder: folder)
            // Action
            let model = StickerCatalogModel(sync: sync)
            // Check: nothing was made while the model was (a decode on the main actor would have left it held); the
            // catalog comes after, made elsewhere.
            #expect(sync.heldSnapshot == nil && model.catalog == nil)
            #expect(await Self.eventually { model.catalog != nil })
            #expect(model.catalog?.groups.first?.stickers.count == 10_000)
        }
    #endif

    #if canImport(Combine)
        // Combine, and so ObservableObject, exists on Apple platforms only: CI (Linux) builds neither this model nor
        // this test; on macOS it checks the iOS 16 model as the one above checks the iOS 17 one.
        @MainActor
        @Test("The iOS 16 model (ObservableObject) reads nothing on the main actor and shows the catalog")
        func observableObject() async throws {
            // Setup
            let folder = try Self.syncedFolder(stickers: 10_000)
            let sync = StickerSync(service: URL(string: "http://stickers.test")!, folder: folder)
            // Action
            let model = StickerCatalogObject(sync: sync)
            // Check
            #expect(sync.heldSnapshot == nil && model.catalog == nil)
            #expect(await Self.eventually { model.catalog != nil })
            #expect(model.catalog?.groups.first?.stickers.count == 10_000)
        }
    #endif

    #if canImport(Observation)
        @available(macOS 14, iOS 17, *)
        @MainActor
        @Test("The SwiftUI model records as its sync does")
        func model() async throws {
            // Setup
            let folder = StickerSync.temporaryFolder()
            let model = StickerCatalogModel(
                sync: Usage.sync(UsageService(), folder: folder, sleep: Usage.noTimer(FakeClock())))
            let sticker = UUID().uuidString.lowercased()
            // Action
            model.record(.tapped, sticker: sticker)
            // Check
            #expect(await Usage.eventually { Usage.queue(folder).events().map(\.sticker) == [sticker] })
            withExtendedLifetime(model) {}
        }
    #endif
}
