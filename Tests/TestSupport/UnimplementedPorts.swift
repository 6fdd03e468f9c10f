import CatalogCore
import Foundation
import Purchases
import StickerImage
import Testing

/// Every port at once, each method failing the test that calls it and naming itself: the start of a route test with no
/// database, which then sets only the ports it needs (`CatalogPorts.unimplemented`, as isowords' `DatabaseClient`).
package struct UnimplementedPort: Sendable {
    package struct Called: Error, CustomStringConvertible {
        package let method: String
        package var description: String { "\(method) is unimplemented in this test" }
    }

    package init() {}

    /// Records the call as the test's failure and gives the error the caller throws.
    package static func fail(_ method: String) -> Called {
        Issue.record("\(method) is unimplemented in this test")
        return Called(method: method)
    }
}

extension CatalogPorts {
    /// Ports whose every method fails the test that calls it; a test overrides the ones it needs.
    package static var unimplemented: CatalogPorts {
        let port = UnimplementedPort()
        return CatalogPorts(
            groups: port, stickers: port, filters: port, reader: port, schedule: port, releases: port,
            adminTokens: port, changes: port, idempotency: port, purchases: port, usage: port, health: port,
            revision: CatalogRevision(), entitlementChanges: EntitlementChanges())
    }
}

extension UnimplementedPort: GroupRepository, StickerRepository, FilterRepository {
    package func createGroup(_ d: GroupDraft, keeping a: IdempotentWrite<StickerGroup>?) async throws -> StickerGroup {
        throw Self.fail("GroupRepository.createGroup")
    }
    package func groups(limit: Int, offset: Int) async throws -> [(group: StickerGroup, stickerCount: Int)] {
        throw Self.fail("GroupRepository.groups")
    }
    package func group(id: String) async throws -> StickerGroup? { throw Self.fail("GroupRepository.group") }
    package func updateGroup(
        id: String, _ patch: GroupPatch, keeping a: IdempotentWrite<GroupWithStickers?>?
    ) async throws -> GroupWithStickers? { throw Self.fail("GroupRepository.updateGroup") }
    package func deleteGroup(id: String, keeping a: IdempotentWrite<Bool>?) async throws -> Bool {
        throw Self.fail("GroupRepository.deleteGroup")
    }
    package func stickers(inGroup id: String) async throws -> [Sticker] { throw Self.fail("GroupRepository.stickers") }
    package func orderStickers(
        inGroup id: String, _ ids: [UUID], keeping a: IdempotentWrite<[Sticker]>?
    ) async throws -> [Sticker] { throw Self.fail("GroupRepository.orderStickers") }
    package func addSticker(
        to groupId: String, _ draft: StickerDraft, image: [UInt8], info: StickerImageInfo, renditions: [Rendition],
        keeping a: IdempotentWrite<Sticker>?
    ) async throws -> Sticker { throw Self.fail("StickerRepository.addSticker") }
    package func renditionsVersion(sha256: String) async throws -> Int? {
        throw Self.fail("StickerRepository.renditionsVersion")
    }
    package func sticker(id: UUID) async throws -> Sticker? { throw Self.fail("StickerRepository.sticker") }
    package func updateSticker(
        id: UUID, _ patch: StickerPatch, keeping a: IdempotentWrite<Sticker?>?
    ) async throws -> Sticker? { throw Self.fail("StickerRepository.updateSticker") }
    package func deleteSticker(id: UUID, keeping a: IdempotentWrite<Bool>?) async throws -> Bool {
        throw Self.fail("StickerRepository.deleteSticker")
    }
    package func putFilter(_ filter: StickerFilter, keeping a: IdempotentWrite<Bool>?) async throws -> Bool {
        throw Self.fail("FilterRepository.putFilter")
    }
    package func deleteFilter(name: String, keeping a: IdempotentWrite<Bool>?) async throws -> Bool {
        throw Self.fail("FilterRepository.deleteFilter")
    }
}

extension UnimplementedPort: CatalogReader, CatalogSchedule, ReleaseRepository, AdminTokenRepository, ChangeLogReader {
    package func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot {
        throw Self.fail("CatalogReader.snapshot")
    }
    package func assetBytes(sha256: String) async throws -> [UInt8]? { throw Self.fail("CatalogReader.assetBytes") }
    package func snapshot(at moment: Date) async throws -> CatalogSnapshot {
        throw Self.fail("CatalogSchedule.snapshot(at:)")
    }
    package func releases(before: Int64?, limit: Int) async throws -> (releases: [Release], more: Bool) {
        throw Self.fail("ReleaseRepository.releases")
    }
    package func snapshot(release revision: Int64) async throws -> CatalogSnapshot? {
        throw Self.fail("ReleaseRepository.snapshot(release:)")
    }
    package func restore(
        release revision: Int64, keeping a: IdempotentWrite<RestoredRelease?>?
    ) async throws -> RestoredRelease? { throw Self.fail("ReleaseRepository.restore") }
    package func adminTokenName(digest: [UInt8]) async throws -> String? {
        throw Self.fail("AdminTokenRepository.adminTokenName")
    }
    package func createAdminToken(name: String, digest: [UInt8]) async throws {
        throw Self.fail("AdminTokenRepository.createAdminToken")
    }
    package func changes(since: Int64, stamp: Int64, through: Int64) async throws -> CatalogChanges? {
        throw Self.fail("ChangeLogReader.changes")
    }
}

/// A database that cannot be reached: every read it stands for throws `DatabaseUnavailable` (HTTP's 503).
package struct DatabaseDown: CatalogReader, AdminTokenRepository, ChangeLogReader {
    package init() {}

    package func snapshot(reusing previous: CatalogSnapshot?) async throws -> CatalogSnapshot { throw Self.down }
    package func assetBytes(sha256: String) async throws -> [UInt8]? { throw Self.down }
    package func adminTokenName(digest: [UInt8]) async throws -> String? { throw Self.down }
    package func createAdminToken(name: String, digest: [UInt8]) async throws { throw Self.down }
    package func changes(since: Int64, stamp: Int64, through: Int64) async throws -> CatalogChanges? { throw Self.down }

    private static let down = DatabaseUnavailable(reason: "down in this test")
}

extension CatalogPorts {
    /// Ports over a database that is down: reads answer 503, writes fail the test.
    package static var down: CatalogPorts {
        var ports = CatalogPorts.unimplemented
        (ports.reader, ports.adminTokens, ports.changes) = (DatabaseDown(), DatabaseDown(), DatabaseDown())
        return ports
    }
}
