import Foundation
import Testing

@testable import StickerCatalogClient

/// The SwiftUI models block the main actor for no decode: at 10,000 stickers, creating one and receiving its first
/// catalog each take under 5 ms of the main actor.
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

    /// The longest the main actor was busy with other work while `body` ran on it, as a probe on the main actor saw:
    /// the largest gap between two of its turns.
    @MainActor
    static func longestBlock(_ body: @MainActor () async throws -> Void) async rethrows -> Duration {
        let probe = Probe()
        let probing = Task { @MainActor in
            var last = ContinuousClock.now
            while !probe.done {
                await Task.yield()
                let now = ContinuousClock.now
                probe.longest = max(probe.longest, now - last)
                last = now
            }
        }
        await Task.yield()
        try await body()
        probe.done = true
        await probing.value
        return probe.longest
    }

    @MainActor final class Probe {
        var done = false
        var longest = Duration.zero
    }

    #if canImport(Observation)
        @available(macOS 14, iOS 17, *)
        @MainActor
        @Test("At 10,000 stickers the model's creation and first catalog block the main actor under 5 ms")
        func mainActorStaysFree() async throws {
            // Setup
            let folder = try Self.syncedFolder(stickers: 10_000)
            var blocks: [Duration] = []
            // Action: five models, each of a sync that holds nothing in memory yet (the best of five, so a busy
            // machine's preemption of the main thread is not counted as the model's).
            for _ in 0..<5 {
                let sync = StickerSync(service: URL(string: "http://stickers.test")!, folder: folder)
                var model: StickerCatalogModel?
                blocks.append(
                    await Self.longestBlock {
                        model = StickerCatalogModel(sync: sync)
                        // Check: nothing was read on the main actor while the model was made.
                        #expect(sync.heldSnapshot == nil)
                        while model?.catalog == nil { try? await Task.sleep(for: .milliseconds(1)) }
                    })
                #expect(model?.catalog?.groups.first?.stickers.count == 10_000)
            }
            // Check
            let best = blocks.min() ?? .zero
            #expect(best < .milliseconds(5), "the main actor was blocked for \(blocks)")
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
            #expect(sync.heldSnapshot == nil)
            while model.catalog == nil { try await Task.sleep(for: .milliseconds(1)) }
            #expect(model.catalog?.groups.first?.stickers.count == 10_000)
        }
    #endif
}
