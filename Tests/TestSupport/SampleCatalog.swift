import CatalogCore
import Foundation
import StickerImage
import Synchronization

/// A catalog made in memory, for tests of what is built from a snapshot without a database.
package enum SampleCatalog {
    package static let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// `groups` groups (g0, g1, …) of `perGroup` stickers: every third group flagged `chocolate`, g5 premium
    /// (`com.example.premium`), French group names, one filter (`chocoholic`); `renamed` changes its first sticker.
    package static func snapshot(
        revision: Int64, groups: Int = 20, perGroup: Int = 10, renamed: String? = nil
    ) -> CatalogSnapshot {
        var list: [StickerGroup] = []
        var stickers: [String: [Sticker]] = [:]
        for g in 0..<groups {
            let id = "g\(g)"
            list.append(
                StickerGroup(
                    id: id, name: "Group \(g)", localizedNames: ["fr": "Groupe \(g)"], sizeClass: .medium,
                    flags: g % 3 == 0 ? ["chocolate"] : [], productId: g == 5 ? "com.example.premium" : nil,
                    position: g, published: true, coverStickerId: nil, createdAt: now, updatedAt: now))
            stickers[id] = (0..<perGroup).map { s in
                let sha = String(repeating: String(format: "%02x", (g * perGroup + s) % 256), count: 32)
                return Sticker(
                    id: UUID(uuidString: String(format: "00000000-0000-0000-%04x-%012x", g, s))!, groupId: id,
                    name: "S\(g)-\(s)", description: id == renamed && s == 0 ? "changed" : "A sticker",
                    localizedDescriptions: [:],
                    flags: [], keywords: ["k"], emoji: ["🍬"], position: s,
                    asset: Asset(
                        sha256: sha, width: 408, height: 408, bytes: 100, animated: false, frames: 1, durationMs: 0,
                        loops: 0),
                    createdAt: now, updatedAt: now)
            }
        }
        return CatalogSnapshot(
            revision: revision, groups: list, stickers: stickers,
            filters: ["chocoholic": StickerFilter(name: "chocoholic", title: "Chocoholic", flags: ["chocolate"])])
    }
}

/// A reader answering one snapshot from memory, or failing as an unreachable database does when it has none; it counts
/// its reads.
package final class SnapshotReader: CatalogReader, Sendable {
    package let snapshot: CatalogSnapshot?
    private let count = Atomic<Int>(0)

    package init(_ snapshot: CatalogSnapshot?) { self.snapshot = snapshot }

    /// Snapshots read so far.
    package var reads: Int { count.load(ordering: .relaxed) }

    package func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot {
        count.add(1, ordering: .relaxed)
        guard let snapshot else { throw DatabaseUnavailable(reason: "test") }
        return snapshot
    }

    package func assetBytes(sha256: String) async throws -> [UInt8]? { nil }
}
