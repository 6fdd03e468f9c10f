import Foundation

extension Manifest {
    /// This manifest as it can be shown while the files `failed` are missing: a sticker whose picture or thumbnail
    /// failed keeps its version in `previous` when that one's files are on disk, else it is left out (and a group
    /// left with none of its stickers with it); a cover that failed falls back the same way, else there is none.
    func holding(back failed: Set<String>, previous: Manifest?, onDisk: (AssetLink) -> Bool) -> Manifest {
        let before = Dictionary(previous?.groups.map { ($0.id, $0) } ?? [], uniquingKeysWith: { first, _ in first })
        var shown = self
        shown.groups = groups.compactMap { group in
            var group = group
            let old = before[group.id]
            if let cover = group.cover, failed.contains(cover.sha256) {
                group.cover = old?.cover.flatMap { onDisk($0) ? $0 : nil }
            }
            let wanted = group.stickers.count
            let oldStickers = Dictionary(
                old?.stickers.map { ($0.id, $0) } ?? [], uniquingKeysWith: { first, _ in first })
            group.stickers = group.stickers.compactMap { sticker in
                guard failed.contains(sticker.asset.sha256) || failed.contains(sticker.thumbnail.sha256) else {
                    return sticker
                }
                guard let kept = oldStickers[sticker.id], onDisk(kept.asset), onDisk(kept.thumbnail) else { return nil }
                return kept
            }
            return group.stickers.isEmpty && wanted > 0 ? nil : group
        }
        return shown
    }
}
