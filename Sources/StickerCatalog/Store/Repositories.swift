import Foundation
import StickerImage

/// Groups as admins manage them. Positions of all groups stay 0..n-1: placing a group shifts the others.
public protocol GroupRepository: Sendable {
    func createGroup(_ draft: GroupDraft) async throws -> StickerGroup
    /// Groups with how many stickers each holds, drafts included, in display order.
    func groups(limit: Int, offset: Int) async throws -> [(group: StickerGroup, stickerCount: Int)]
    func group(id: String) async throws -> StickerGroup?
    /// Nil when there is no such group.
    func updateGroup(id: String, _ patch: GroupPatch) async throws -> StickerGroup?
    func deleteGroup(id: String) async throws -> Bool
    func stickers(inGroup id: String) async throws -> [Sticker]
    /// Sets the order of a group's stickers; `ids` must be exactly the group's stickers.
    func orderStickers(inGroup id: String, _ ids: [UUID]) async throws -> [Sticker]
}

/// Stickers as admins manage them. An upload stores the image (`image`: the bytes to serve) and the sticker row
/// together or not at all. Positions within a group stay 0..n-1.
public protocol StickerRepository: Sendable {
    func group(id: String) async throws -> StickerGroup?
    func addSticker(to groupId: String, _ draft: StickerDraft, image: [UInt8], info: StickerImageInfo,
                    renditions: [Rendition]) async throws -> Sticker
    /// The version of the renditions stored for an image, nil when the image is not stored.
    func renditionsVersion(sha256: String) async throws -> Int?
    func sticker(id: UUID) async throws -> Sticker?
    func updateSticker(id: UUID, _ patch: StickerPatch) async throws -> Sticker?
    func deleteSticker(id: UUID) async throws -> Bool
}

/// Named client filters.
public protocol FilterRepository: Sendable {
    /// Creates or replaces a filter; true when it was created.
    func putFilter(_ filter: StickerFilter) async throws -> Bool
    func deleteFilter(name: String) async throws -> Bool
}

/// What clients read: the whole visible catalog at one revision, and image bytes.
public protocol CatalogReader: Sendable {
    /// The visible catalog, reusing what `previous` holds of groups whose stickers have not changed since.
    func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot
    func assetBytes(sha256: String) async throws -> [UInt8]?
}

/// Admin tokens, kept as SHA-256 digests.
public protocol AdminTokenRepository: Sendable {
    func adminTokenName(digest: [UInt8]) async throws -> String?
    func createAdminToken(name: String, digest: [UInt8]) async throws
}

/// The answers to admin writes sent with an `Idempotency-Key`.
public protocol IdempotencyRepository: Sendable {
    /// Claims `key` for a request named by `fingerprint`, or says what became of it.
    func claim(admin: String, key: String, fingerprint: String) async throws -> IdempotencyClaim
    /// Keeps the response of the request that claimed `key`.
    func answer(admin: String, key: String, with response: StoredResponse) async throws
    /// Frees `key` after its request failed, so that a retry runs it again.
    func release(admin: String, key: String) async throws
}

/// What became of a claimed idempotency key.
public enum IdempotencyClaim: Sendable, Equatable {
    /// This request may run.
    case claimed
    /// The same request ran already: its response.
    case answered(StoredResponse)
    /// The same key came with another request.
    case reusedForAnotherRequest
    /// The first request with this key is still running.
    case underWay
}

/// A response as kept for retries.
public struct StoredResponse: Sendable, Equatable {
    public var status: Int
    public var contentType: String?
    public var location: String?
    public var body: [UInt8]

    public init(status: Int, contentType: String?, location: String?, body: [UInt8]) {
        (self.status, self.contentType, self.location, self.body) = (status, contentType, location, body)
    }
}

/// Which groups changed between two catalog revisions, for the change feed.
public protocol ChangeLogReader: Sendable {
    /// Nil when changes after `since` are no longer all kept.
    func changes(since: Int64, through: Int64) async throws -> CatalogChanges?
}
