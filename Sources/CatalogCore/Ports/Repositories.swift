import Foundation
import StickerImage

/// Groups as admins manage them. Positions of all groups stay 0..n-1: placing a group shifts the others.
package protocol GroupRepository: Sendable {
    func createGroup(_ draft: GroupDraft, keeping answer: IdempotentWrite<StickerGroup>?) async throws -> StickerGroup
    /// Groups with how many stickers each holds, drafts included, in display order.
    func groups(limit: Int, offset: Int) async throws -> [(group: StickerGroup, stickerCount: Int)]
    func group(id: String) async throws -> StickerGroup?
    /// The group with its stickers as the change left them; nil when there is no such group.
    func updateGroup(
        id: String, _ patch: GroupPatch,
        keeping answer: IdempotentWrite<GroupWithStickers?>?
    ) async throws -> GroupWithStickers?
    func deleteGroup(id: String, keeping answer: IdempotentWrite<Bool>?) async throws -> Bool
    func stickers(inGroup id: String) async throws -> [Sticker]
    /// Sets the order of a group's stickers; `ids` must be exactly the group's stickers.
    func orderStickers(
        inGroup id: String, _ ids: [UUID], keeping answer: IdempotentWrite<[Sticker]>?
    ) async throws -> [Sticker]
}

/// A group and its stickers, in order, read in one transaction.
package struct GroupWithStickers: Sendable {
    package var group: StickerGroup
    package var stickers: [Sticker]

    package init(group: StickerGroup, stickers: [Sticker]) {
        self.group = group
        self.stickers = stickers
    }
}

/// Stickers as admins manage them. An upload stores the image (`image`: the bytes to serve) and the sticker row
/// together or not at all. Positions within a group stay 0..n-1. `keeping`: the answer kept in the write's transaction
/// for its `Idempotency-Key`, if it has one (as on every write below).
package protocol StickerRepository: Sendable {
    func group(id: String) async throws -> StickerGroup?
    func addSticker(
        to groupId: String, _ draft: StickerDraft, image: [UInt8], info: StickerImageInfo,
        renditions: [Rendition], keeping answer: IdempotentWrite<Sticker>?
    ) async throws -> Sticker
    /// The version of the renditions stored for an image, nil when the image is not stored.
    func renditionsVersion(sha256: String) async throws -> Int?
    func sticker(id: UUID) async throws -> Sticker?
    func updateSticker(
        id: UUID, _ patch: StickerPatch, keeping answer: IdempotentWrite<Sticker?>?
    ) async throws -> Sticker?
    func deleteSticker(id: UUID, keeping answer: IdempotentWrite<Bool>?) async throws -> Bool
}

/// Named client filters.
package protocol FilterRepository: Sendable {
    /// Creates or replaces a filter; true when it was created.
    func putFilter(_ filter: StickerFilter, keeping answer: IdempotentWrite<Bool>?) async throws -> Bool
    func deleteFilter(name: String, keeping answer: IdempotentWrite<Bool>?) async throws -> Bool
}

/// What clients read: the whole visible catalog at one revision, and image bytes.
package protocol CatalogReader: Sendable {
    /// The visible catalog, reusing what `previous` holds of groups whose stickers have not changed since.
    func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot
    func assetBytes(sha256: String) async throws -> [UInt8]?
    /// Which of `sha256s` name a stored image: one question for many (a bundle's), bytes not read.
    func storedAssets(among sha256s: [String]) async throws -> Set<String>
}

extension CatalogReader {
    /// One read per digest, for a reader without a better way.
    package func storedAssets(among sha256s: [String]) async throws -> Set<String> {
        var found = Set<String>()
        for sha256 in sha256s where try await assetBytes(sha256: sha256) != nil { found.insert(sha256) }
        return found
    }
}

/// Scheduled visibility: the catalog as another moment will show it (boundaries are applied by `CatalogScheduler`).
package protocol CatalogSchedule: Sendable {
    /// The visible catalog as `moment` will show it with what is scheduled now (an admin's preview; never cached).
    func snapshot(at moment: Date) async throws -> CatalogSnapshot
}

/// Kept releases: every visible change, the catalog as each left it, and bringing one back.
package protocol ReleaseRepository: Sendable {
    /// Up to `limit` kept releases below revision `before` (all when nil), newest first, and whether more follow.
    func releases(before: Int64?, limit: Int) async throws -> (releases: [Release], more: Bool)
    /// The visible catalog as release `revision` left it; nil when that release is not kept.
    func snapshot(release revision: Int64) async throws -> CatalogSnapshot?
    /// Makes the catalog what release `revision` left, as one new release; nil when that release is not kept.
    func restore(
        release revision: Int64, keeping answer: IdempotentWrite<RestoredRelease?>?
    ) async throws -> RestoredRelease?
}

/// Admin tokens, kept as SHA-256 digests.
package protocol AdminTokenRepository: Sendable {
    func adminTokenName(digest: [UInt8]) async throws -> String?
    func createAdminToken(name: String, digest: [UInt8]) async throws
}

/// Which groups changed between two catalog revisions, for the change feed.
package protocol ChangeLogReader: Sendable {
    /// Nil when changes after `since` are no longer all kept, or `since` is not stamped `stamp` (another history).
    func changes(since: Int64, stamp: Int64, through: Int64) async throws -> CatalogChanges?
}
