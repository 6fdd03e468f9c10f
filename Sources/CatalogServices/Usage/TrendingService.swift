import CatalogCore
import CatalogSearch
import Foundation
import Synchronization

/// `GET /v1/trending` and search's tie-break, answered from memory: the scores of the last reading
/// (`TrendingScores`), ranked once per snapshot and reading (visible stickers only, hottest first), and encoded pages
/// kept in an LRU bounded by bytes until either moves on.
package final class TrendingService: Sendable {
    package typealias Member = (group: StickerGroup, sticker: Sticker)
    /// Answers' `max-age`: scores are read again every 30 seconds.
    package static let maxAge = 30

    private struct Point: Hashable {
        let snapshot: CatalogSnapshot.Point
        let generation: Int
    }

    private struct State {
        var point: Point?
        var ranked: [TrendWindow: [Member]] = [:]
        var bodies: ByteLRU<TrendingRequest, CachedBody>
        var popularity: (point: Point, value: Popularity)?
    }

    package let scores: TrendingScores
    package let directories: StickerDirectories
    package let manifests: ManifestService
    private let state: Mutex<State>

    package init(scores: TrendingScores, directories: StickerDirectories, manifests: ManifestService, capacity: Int) {
        (self.scores, self.directories, self.manifests) = (scores, directories, manifests)
        state = Mutex(State(bodies: ByteLRU(capacity: capacity)))
    }

    /// The page `request` asks for, as `viewer` sees it.
    package func page(_ request: TrendingRequest, viewer: Viewer) async throws -> CachedBody {
        let reading = try await scores.current()
        let directory = try await directories.current()
        let snapshot = directory.snapshot
        let point = Point(snapshot: snapshot.point, generation: reading.generation)
        var normalized = request
        normalized.view = viewer.view(request.view, in: snapshot, signer: manifests.linker.signer, now: nil)
        if let hit = state.withLock({ $0.point == point ? $0.bodies.value(for: normalized) : nil }) { return hit }
        let ranked = ranking(request.window, reading: reading, directory: directory, point: point)
        let json = try TrendingPage.build(
            normalized, snapshot: snapshot, ranked: ranked, linker: manifests.linker
        ).json
        let body = CachedBody(
            json: json, personal: true, audienceBound: !snapshot.restricted.isEmpty, maxAge: Self.maxAge)
        state.withLock { state in
            if state.point == point { state.bodies.insert(body, for: normalized, cost: body.cost + 256) }
        }
        return body
    }

    /// Visible stickers of `directory` with a score in `window`, hottest first, ties in manifest order; kept per
    /// snapshot and reading (a newer point drops what an older one kept).
    private func ranking(
        _ window: TrendWindow, reading: TrendingScores.Reading, directory: StickerDirectory, point: Point
    ) -> [Member] {
        if let kept = state.withLock({ $0.point == point ? $0.ranked[window] : nil }) { return kept }
        let scored = reading.scores[window].compactMap { id, score in
            directory.places[id].map { (place: $0, score: score) }
        }
        let ranked = scored.sorted {
            $0.score != $1.score
                ? $0.score > $1.score
                : ($0.place.group, $0.place.sticker) < ($1.place.group, $1.place.sticker)
        }.map { item -> Member in
            let group = directory.snapshot.groups[Int(item.place.group)]
            return (group, directory.snapshot.stickers[group.id]![Int(item.place.sticker)])
        }
        state.withLock { state in
            if state.point.map({ Self.isNewer(point, than: $0) }) ?? true {
                state.point = point
                state.ranked = [:]
                state.bodies.removeAll()
            }
            if state.point == point { state.ranked[window] = ranked }
        }
        return ranked
    }

    /// Each slot of `index`'s popularity by the week's scores (0 the hottest), for search's tie-break; nil until the
    /// first reading. Never waits on the database.
    package func popularity(for index: SearchIndex) -> Popularity? {
        guard let reading = scores.latest() else { return nil }
        let point = Point(snapshot: index.snapshot.point, generation: reading.generation)
        if let kept = state.withLock({ $0.popularity?.point == point ? $0.popularity?.value : nil }),
            kept.ranks.count == index.members.count
        {
            return kept
        }
        let order = TrendingScores.order(reading.scores.week)
        let rankOf = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, UInt16(min($0, 65_534))) })
        let ranks = index.members.indices.map { slot -> UInt16 in
            guard index.members[slot].group >= 0 else { return .max }
            return rankOf[index.member(UInt32(slot)).sticker.id] ?? .max
        }
        let popularity = Popularity(generation: reading.generation, ranks: ranks)
        state.withLock { $0.popularity = (point, popularity) }
        return popularity
    }

    private static func isNewer(_ point: Point, than other: Point) -> Bool {
        point.snapshot.isAfter(other.snapshot)
            || (point.snapshot == other.snapshot && point.generation > other.generation)
    }
}
