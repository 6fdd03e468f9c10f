import Foundation

/// A synced catalog as a sticker browser shows it, one group at a time: the unlocked groups that have stickers, in
/// display order, and each group's stickers made (`make`: an `MSSticker`, an image) the first time that group is
/// asked for, then kept. A sticker whose file cannot be made into one (missing, purged, refused) is left out and
/// reported in `skipped`, never the whole catalog: a Messages extension opening a group costs that group, not 10,000
/// stickers. Its state is behind a lock: Sendable when its stickers are.
public final class GroupedStickers<Sticker> {
    /// The groups shown, in display order: unlocked, with at least one sticker.
    public let groups: [ManifestGroup]
    private let catalog: SyncedCatalog
    private let make: (URL, ManifestSticker) throws -> Sticker
    private let lock = NSLock()
    private var made: [Int: [Sticker]] = [:]
    private var refused: [ManifestSticker.ID: String] = [:]

    /// `catalog`'s groups, their stickers made by `make` from each sticker's file and entry when first asked for.
    public init(_ catalog: SyncedCatalog, make: @escaping (URL, ManifestSticker) throws -> Sticker) {
        (self.catalog, self.make) = (catalog, make)
        groups = catalog.groups.filter { !$0.locked && !$0.stickers.isEmpty }
    }

    /// The stickers of the group at `index` in `groups` (none for an index out of range), made at the first ask.
    public func stickers(inGroupAt index: Int) -> [Sticker] {
        guard groups.indices.contains(index) else { return [] }
        return lock.withLock {
            if let kept = made[index] { return kept }
            var stickers: [Sticker] = []
            stickers.reserveCapacity(groups[index].stickers.count)
            for sticker in groups[index].stickers {
                do {
                    stickers.append(try make(catalog.fileURL(for: sticker.asset), sticker))
                } catch {
                    refused[sticker.id] = Redaction.describe(error)
                }
            }
            made[index] = stickers
            return stickers
        }
    }

    /// Stickers left out so far, and why: their files could not be made into stickers. The next sync fetches a
    /// purged or damaged file again.
    public var skipped: [ManifestSticker.ID: String] { lock.withLock { refused } }
}

extension GroupedStickers: @unchecked Sendable where Sticker: Sendable {}
