import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

/// The platform, app version and installation id the client states on every request that reads the catalog, for the
/// service's audiences; the id made once per folder and kept there.
@Suite struct AudienceFactsTests {
    static let platform = HTTPField.Name("Sticker-Platform")!
    static let version = HTTPField.Name("Sticker-App-Version")!
    static let installation = HTTPField.Name("Sticker-Installation")!

    /// The installation id each catalog request carried.
    static func installations(_ service: MemoryService) -> Set<String> {
        Set(
            service.requests.filter { $0.path?.hasPrefix("/v1/manifest") == true }.compactMap {
                $0.headerFields[installation]
            })
    }

    @Test func theManifestAndTheChangeFeedCarryTheFacts() async throws {
        // Setup
        let service = MemoryService()
        let folder = StickerSync.temporaryFolder()
        let configure = { (options: inout SyncOptions) in (options.platform, options.appVersion) = ("ios", "2.3.1") }
        // Action: a first sync (the manifest), then another (the change feed).
        _ = try await StickerSync.testing(service, folder: folder, configure).sync()
        _ = try await StickerSync.testing(service, folder: folder, configure).sync()
        // Check: both carry the platform, version and one installation id, which the folder keeps.
        let reads = service.requests.filter { $0.path?.hasPrefix("/v1/manifest") == true }
        #expect(reads.count == 2 && reads.contains { $0.path?.hasPrefix("/v1/manifest/changes") == true })
        #expect(
            reads.allSatisfy { $0.headerFields[Self.platform] == "ios" && $0.headerFields[Self.version] == "2.3.1" })
        let ids = Self.installations(service)
        let kept = try String(contentsOf: folder.appending(path: "installation-id"), encoding: .utf8)
        #expect(ids == [kept] && UUID(uuidString: kept) != nil)
        // Images carry none of it.
        #expect(
            service.requests.filter { $0.path?.hasPrefix("/v1/assets/") == true }.allSatisfy {
                $0.headerFields[Self.installation] == nil
            })
    }

    /// The library's reads state the facts too: a sync's index asked without them would find an installed group shown
    /// to some platforms only missing, and uninstall it.
    @Test func theLibrarysIndexAndGroupsCarryTheFacts() async throws {
        // Setup
        let service = LibraryService(groups: 3, stickers: 2)
        let library = StickerLibrary.testing(service) { $0.platform = "ios" }
        // Action: browse, install, sync.
        _ = try await library.index()
        try await library.install(group: "g1")
        _ = try await library.sync()
        // Check: every catalog read said which platform asks; images said nothing.
        let reads = service.platforms.filter { $0.target.hasPrefix("/v1/groups") }
        #expect(reads.count >= 3 && reads.contains { $0.target.hasPrefix("/v1/groups?") })
        #expect(reads.allSatisfy { $0.platform == "ios" }, "\(reads.filter { $0.platform != "ios" }.map(\.target))")
        #expect(service.platforms.filter { $0.target.hasPrefix("/v1/assets/") }.allSatisfy { $0.platform == nil })
    }

    @Test func eachFolderHasItsOwnIdAndABrokenOneIsReplaced() async throws {
        let service = MemoryService()
        let (first, second) = (StickerSync.temporaryFolder(), StickerSync.temporaryFolder())
        _ = try await StickerSync.testing(service, folder: first).sync()
        let one = Self.installations(service)
        _ = try await StickerSync.testing(service, folder: second).sync()
        let both = Self.installations(service)
        #expect(one.count == 1 && both.count == 2)
        // A file that is not an id (damaged, or planted) is replaced by a new one.
        try Data("not an id!\n".utf8).write(to: first.appending(path: "installation-id"))
        let fresh = MemoryService()
        _ = try await StickerSync.testing(fresh, folder: first).sync()
        let replaced = Self.installations(fresh)
        #expect(
            replaced.count == 1 && replaced.isDisjoint(with: both)
                && replaced.first.flatMap { UUID(uuidString: $0) } != nil)
    }

    @Test func aMalformedPlatformOrVersionIsNotSent() async throws {
        let service = MemoryService()
        _ = try await StickerSync.testing(service) { ($0.platform, $0.appVersion) = ("iOS 17", "2.3-beta") }.sync()
        let manifest = try #require(service.requests.first { $0.path?.hasPrefix("/v1/manifest") == true })
        #expect(manifest.headerFields[Self.platform] == nil && manifest.headerFields[Self.version] == nil)
        #expect(manifest.headerFields[Self.installation] != nil)
    }

    @Test("By default the platform sent is the one built for, by the name the service's audiences use")
    func defaultPlatform() async throws {
        // Setup: the name each platform's audience rule uses (docs/audiences.md), written out, not derived.
        #if os(Linux)
            let expected = "linux"
        #elseif os(macOS)
            let expected = "macos"
        #elseif os(iOS)
            let expected = "ios"
        #else
            let expected = ClientFacts.currentPlatform
        #endif
        let service = MemoryService()
        // Action: a sync with the default options.
        _ = try await StickerSync.testing(service).sync()
        // Check: stated on the manifest's request; no version where the bundle has none (a test runner has none).
        let manifest = try #require(service.requests.first { $0.path?.hasPrefix("/v1/manifest") == true })
        #expect(manifest.headerFields[Self.platform] == expected)
        #expect(manifest.headerFields[Self.version] == ClientFacts.bundleVersion)
    }
}
