import Crypto
import Foundation

/// The strong validator of one group as one view shows it: `GET /v1/groups/{id}`'s ETag and the group index's
/// `version`, equal by construction because both are this function of the same inputs. It is a digest of what the
/// group's JSON is made from, not of the JSON, so the index states 2,000 groups' versions without encoding one of them.
/// The stickers enter by the group's `content_version`, which the database raises with every change to one of its
/// stickers or their renditions (the same number decides which groups a snapshot reads again); without one (a snapshot
/// made in memory) by every stored field of every sticker.
package enum GroupVersion {
    /// Raised whenever `ManifestGroup`'s JSON changes shape, so that no validator survives a change of the bytes.
    static let shape = "group-json-1"

    /// The version of `group` at `position` with `stickers`, as `query` (normalised, as the group route keys it) shows
    /// it, with links made by `linker`; `page`: the stickers page asked for, nil for the first.
    package static func of(
        _ group: StickerGroup, position: Int, stickers: [Sticker], contentVersion: Int64?, query: ManifestQuery,
        linker: AssetLinker, page: String? = nil
    ) -> String {
        let view = query.sharedView(for: group)
        var bytes = DigestInput()
        bytes.add(shape)
        bytes.add(linker.baseURL)
        bytes.add(linker.signer == nil ? 0 : 1)
        bytes.add(group)
        bytes.add(position)
        bytes.add(view.filter ?? "")
        bytes.add(view.flags)
        bytes.add(view.size?.rawValue ?? "")
        bytes.add(view.scale)
        bytes.add(view.format.rawValue)
        bytes.add(view.locale ?? "")
        if view.sources { bytes.add("sources") }  // only then: every other view's versions stay as they were
        bytes.add(view.unlocked)
        bytes.add(Int(view.signedUntil ?? -1))
        bytes.add(page ?? "")
        bytes.add(stickers.count)
        if let contentVersion {
            bytes.add(Int(contentVersion))
        } else {
            for sticker in stickers { bytes.add(sticker) }
        }
        return bytes.digest()
    }
}

extension ManifestQuery {
    /// What of this query one group's JSON depends on: not which restricted groups admitted the caller (that decides
    /// whether the group shows at all, and its place, which is given apart), and for a free group open to everyone
    /// neither products nor signed URLs; so callers who see it at one place share one fragment and one version.
    package func sharedView(for group: StickerGroup) -> ManifestQuery {
        var shared = self
        shared.admitted = []
        shared.facts = nil
        if group.productId == nil && group.audience == nil { (shared.unlocked, shared.signedUntil) = ([], nil) }
        return shared
    }
}
