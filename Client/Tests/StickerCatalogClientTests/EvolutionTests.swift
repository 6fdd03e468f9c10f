import Foundation
import StickerCatalogAPI
import Testing

@testable import StickerCatalogClient

/// openapi.yaml's evolution rule, as a shipped app meets it: a later service adds a size class, a scale, a trending
/// window, a transaction source; the app goes on syncing and shows what it knows.
@Suite struct EvolutionTests {
    @Test("A manifest with a size class and a scale this version does not know syncs, and says what it got")
    func unknownSizeClassAndScale() async throws {
        // Setup: a service of a later version.
        let service = MemoryService()
        var group = (service.manifest["groups"] as! [[String: Any]])[0]
        group["sizeClass"] = "xlarge"
        service.manifest["groups"] = [group]
        (service.manifest["size"], service.manifest["scale"]) = ("xlarge", 4)
        let folder = StickerSync.temporaryFolder()
        // Action
        let report = try await StickerSync.testing(service, folder: folder).sync()
        // Check: synced and kept, the unknown values named as sent.
        #expect(report.changedGroups == ["g"] && report.failedFiles.isEmpty)
        let catalog = try #require(LocalCatalog(directory: folder).load())
        let shown = try #require(catalog.groups.first)
        #expect(shown.sizeClass.known == nil && shown.sizeClass.name == "xlarge")
        #expect(catalog.manifest.size?.name == "xlarge" && catalog.manifest.scale.known == nil)
        #expect(catalog.manifest.scale.value == 4)
    }

    @Test("Known values decode as known, and encode back as the service sent them")
    func knownValues() throws {
        let json = Data(#"{"size":"small","scale":2}"#.utf8)
        struct Pair: Codable {
            var size: ServedSizeClass
            var scale: ServedScale
        }
        let pair = try JSONDecoder().decode(Pair.self, from: json)
        #expect(pair.size.known == .small && pair.size.name == "small" && pair.scale.known == .x2)
        let again = try JSONDecoder().decode(Pair.self, from: try JSONEncoder().encode(pair))
        #expect(again.size.name == "small" && again.scale.value == 2)
    }

    @Test("A trending window and a transaction's source and environment this version does not know decode")
    func otherOpenValues() throws {
        let window = try JSONDecoder().decode(Components.Schemas.ServedTrendWindow.self, from: Data(#""month""#.utf8))
        #expect(window.value1 == nil && window.value2 == "month")
        let source = try JSONDecoder().decode(Components.Schemas.TransactionSource.self, from: Data(#""stripe""#.utf8))
        #expect(source.value1 == nil && source.value2 == "stripe")
        let environment = try JSONDecoder().decode(
            Components.Schemas.TransactionEnvironment.self, from: Data(#""xcode""#.utf8))
        #expect(environment.value1 == nil && environment.value2 == "xcode")
    }
}
