import Foundation
import Testing

@testable import StickerCatalogClient

/// A process killed while it replaced a file leaves `.NAME.N.part` in the folder; a commit removes those old enough
/// to be nobody's write under way, and nothing it did not write.
@Suite struct LeftoverTests {
    @Test("An old .catalog.json.N.part goes at the next commit; a fresh one and a stranger's file stay")
    func leftovers() async throws {
        // Setup
        let folder = StickerSync.temporaryFolder()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let old = [".catalog.json.123.part", ".cursor.json.9.part", ".usage.json.77.part", ".installation-id.5.part"]
        let kept = [".catalog.json.456.part", ".notes.txt.1.part", "catalog.json.1.part"]
        for name in old + kept { try Data("x".utf8).write(to: folder.appending(path: name)) }
        let twoDaysAgo = Date().addingTimeInterval(-2 * 86_400)
        for name in old + [kept[1], kept[2]] {
            try FileManager.default.setAttributes(
                [.modificationDate: twoDaysAgo], ofItemAtPath: folder.appending(path: name).path)
        }
        // Action
        try await StickerSync.testing(MemoryService(), folder: folder).sync()
        // Check
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: folder.path))
        #expect(left.isDisjoint(with: old) && left.isSuperset(of: kept), "\(left.sorted())")
    }
}
