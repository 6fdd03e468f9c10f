import CatalogCore
import Foundation
import Synchronization

/// Where each visible sticker of one snapshot is (its group's place and its own), by id: what usage counting asks of
/// every event and trending of every scored sticker. Drafts, scheduled and deleted stickers are not in a snapshot, so
/// they are in no directory: events naming them are ignored and they never trend.
package struct StickerDirectory: Sendable {
    package struct Place: Sendable {
        package let group: Int32
        package let sticker: Int32
    }

    package let snapshot: CatalogSnapshot
    package let places: [UUID: Place]

    package init(_ snapshot: CatalogSnapshot) {
        self.snapshot = snapshot
        var places: [UUID: Place] = [:]
        places.reserveCapacity(snapshot.stickers.values.reduce(0) { $0 + $1.count })
        for (groupIndex, group) in snapshot.groups.enumerated() {
            for (stickerIndex, sticker) in (snapshot.stickers[group.id] ?? []).enumerated() {
                places[sticker.id] = Place(group: Int32(groupIndex), sticker: Int32(stickerIndex))
            }
        }
        self.places = places
    }
}

/// The directory of the manifest service's current snapshot, built once per snapshot however many ask.
package final class StickerDirectories: Sendable {
    private let manifests: ManifestService
    private let kept = Mutex<StickerDirectory?>(nil)
    private let builds = SingleFlight<CatalogSnapshot.Point, StickerDirectory>()

    package init(manifests: ManifestService) { self.manifests = manifests }

    package func current() async throws -> StickerDirectory {
        let snapshot = try await manifests.currentSnapshot()
        if let directory = kept.withLock({ $0 }), directory.snapshot.point == snapshot.point { return directory }
        let built = try await builds.run(snapshot.point) {
            try await ManifestWorkers.shared.build { StickerDirectory(snapshot) }
        }
        kept.withLock { kept in
            if kept.map({ built.snapshot.point.isAfter($0.snapshot.point) }) ?? true { kept = built }
        }
        return built
    }
}
