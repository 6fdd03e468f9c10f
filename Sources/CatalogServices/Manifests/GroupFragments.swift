import CatalogCore
import Foundation
import NIOCore
import Synchronization

/// The JSON of each group as a query shows it, kept across catalog revisions while the group and its stickers are
/// unchanged: after a one-sticker change a 10,000-sticker manifest encodes one group again, not two hundred.
/// Bounded in bytes (an LRU); filled on the build threads, where each manifest is encoded once (single flight).
package final class GroupFragments: Sendable {
    package struct Key: Hashable, Sendable {
        package let group: String
        /// Its place among the groups the caller sees, which restricted groups before it move.
        package let position: Int
        package let query: ManifestQuery
        package let required: [String]
    }

    private struct Fragment {
        package let group: StickerGroup
        package let stickers: [Sticker]
        /// Nil when none of the group's stickers is selected (the group drops out). A buffer, so that manifests made
        /// of parts (`manifestParts`) share it rather than copy it.
        package let json: ByteBuffer?
    }

    private let cache: Mutex<ByteLRU<Key, Fragment>>

    package init(capacity: Int) {
        cache = Mutex(ByteLRU(capacity: capacity))
    }

    /// A whole manifest, byte for byte what encoding `Manifest.build` gives: its own fields around the groups' JSON.
    package func manifest(from snapshot: CatalogSnapshot, query: ManifestQuery, linker: AssetLinker) throws -> [UInt8] {
        let required = try Manifest.requiredFlags(snapshot, query)
        let (head, at) = try Self.head(snapshot, query, linker)
        var json = Array(head[..<at])
        json.reserveCapacity(head.count + snapshot.stickers.count * 4096)
        var first = true
        for (group, position) in query.shownGroups(in: snapshot) {
            guard
                let fragment = try self.fragment(
                    of: group, position: position, stickers: snapshot.stickers[group.id] ?? [], required: required,
                    query: query, linker: linker)
            else { continue }
            if !first { json.append(UInt8(ascii: ",")) }
            json.append(contentsOf: fragment.readableBytesView)
            first = false
        }
        json.append(contentsOf: head[at...])
        return json
    }

    /// The same bytes as `manifest`, as parts: its own head and tail around the groups' fragments, which the fragment
    /// cache keeps and every manifest showing them shares; and how many bytes those fragments are. A catalog with
    /// audiences has a manifest per set of groups seen (up to 2^5 for 5 restricted groups), each mostly the same
    /// groups: as parts, each costs its head (its cursor) and a list, not a copy of every group.
    package func manifestParts(
        from snapshot: CatalogSnapshot, query: ManifestQuery, linker: AssetLinker
    ) throws -> (parts: [ByteBuffer], shared: Int) {
        let required = try Manifest.requiredFlags(snapshot, query)
        let (head, at) = try Self.head(snapshot, query, linker)
        let whole = ByteBuffer(bytes: head)
        var parts = [whole.getSlice(at: 0, length: at) ?? ByteBuffer()]
        var shared = 0
        for (group, position) in query.shownGroups(in: snapshot) {
            guard
                let fragment = try self.fragment(
                    of: group, position: position, stickers: snapshot.stickers[group.id] ?? [], required: required,
                    query: query, linker: linker)
            else { continue }
            if parts.count > 1 { parts.append(Self.comma) }
            parts.append(fragment)
            shared += fragment.readableBytes
        }
        parts.append(whole.getSlice(at: at, length: head.count - at) ?? ByteBuffer())
        return (parts, shared)
    }

    private static let comma = ByteBuffer(string: ",")

    /// A manifest's JSON without its groups, and where they go: after the one `"groups":[` (sorted keys, no spaces).
    private static func head(
        _ snapshot: CatalogSnapshot, _ query: ManifestQuery, _ linker: AssetLinker
    ) throws -> (head: [UInt8], at: Int) {
        let head = Array(try JSONEncoder.catalog.encode(Manifest.empty(snapshot, query, cursorKey: linker.cursorKey)))
        guard let at = head.firstRange(of: Array(#""groups":["#.utf8))?.upperBound else {
            throw CatalogError.notFound("the groups of a manifest")
        }
        return (head, at)
    }

    /// The JSON of `group` as `query` shows it at `position`, or nil when none of its stickers is selected.
    package func json(
        of group: StickerGroup, position: Int, stickers: [Sticker], required: Set<String>, query: ManifestQuery,
        linker: AssetLinker
    ) throws -> [UInt8]? {
        try fragment(
            of: group, position: position, stickers: stickers, required: required, query: query, linker: linker
        ).map {
            Array($0.readableBytesView)
        }
    }

    /// `json(of:…)` as the buffer kept.
    private func fragment(
        of group: StickerGroup, position: Int, stickers: [Sticker], required: Set<String>, query: ManifestQuery,
        linker: AssetLinker
    ) throws -> ByteBuffer? {
        let key = Key(
            group: group.id, position: position, query: query.sharedView(for: group), required: required.sorted())
        if let kept = cache.withLock({ $0.value(for: key) }), kept.group == group, kept.stickers == stickers {
            return kept.json
        }
        let json = try ManifestGroup(
            group, position: position, stickers: stickers, required: required, query: query, linker: linker
        )
        .map { ByteBuffer(bytes: try JSONEncoder.catalog.encode($0)) }
        let cost = (json?.readableBytes ?? 0) + 256 + stickers.count * 64
        cache.withLock { $0.insert(Fragment(group: group, stickers: stickers, json: json), for: key, cost: cost) }
        return json
    }
}
