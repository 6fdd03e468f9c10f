import CatalogCore
import CatalogSearch
import Foundation
import Logging
import Synchronization

/// Answers searches from an index of the current catalog snapshot (`SearchIndex`), patched from the previous one once
/// per revision on a build thread however many requests wait for it, and keeps encoded answers in an LRU bounded by
/// bytes: a repeated query is answered from memory, and a new revision drops them all (the same rule as manifests:
/// within a second of a commit). Suggestions are built from the snapshot when first asked for, once per revision.
/// Each result's JSON without signed URLs is kept too, per revision, in an LRU of its own (`SearchFragmentKey`): most
/// searches show stickers others showed, and building and encoding a result was a third of a search's CPU.
package final class SearchService: Sendable {
    /// What an answer depends on: the request (its view normalised for the snapshot, the user's products included).
    package enum Key: Hashable, Sendable {
        case results(SearchRequest, popularity: Int)
        case suggestions(String, locale: String?)
    }

    private struct State {
        package var index: SearchIndex?
        package var suggestions: SearchSuggestions?
        package var bodies: ByteLRU<Key, CachedBody>
    }

    package static let maxAge = 5
    package let manifests: ManifestService
    /// Answers' `max-age` never reaches past the next schedule boundary, by this clock.
    package let clock: any ScheduleClock
    package let boundary: NextBoundary
    package let logger: Logger
    /// Each sticker's popularity for the index asked (`TrendingService.popularity`), to order equally good matches;
    /// nil orders them as the manifest does.
    package let popularity: (@Sendable (SearchIndex) -> Popularity?)?
    private let state: Mutex<State>
    /// Results' JSON of one catalog snapshot (its point: a rewind may reuse revision numbers).
    private let fragments: Mutex<(point: CatalogSnapshot.Point?, kept: ByteLRU<SearchFragmentKey, [UInt8]>)>
    /// Matches of one snapshot by folded query (`SearchMatchKey`): a query typed with other marks or case, or asked
    /// with another page size, is matched once.
    let matched: Mutex<(point: CatalogSnapshot.Point?, kept: ByteLRU<SearchMatchKey, Matches>)>
    /// Matchings done (not answered from `matched`), for tests.
    let matchings = Atomic<Int>(0)
    private let builds = SingleFlight<CatalogSnapshot.Point, SearchIndex>()
    private let suggestionBuilds = SingleFlight<CatalogSnapshot.Point, SearchSuggestions>()

    package init(
        manifests: ManifestService, capacity: Int, fragmentCapacity: Int = 16 << 20,
        clock: any ScheduleClock = SystemScheduleClock(),
        boundary: NextBoundary = NextBoundary(), logger: Logger,
        popularity: (@Sendable (SearchIndex) -> Popularity?)? = nil
    ) {
        (self.manifests, self.clock, self.boundary, self.logger) = (manifests, clock, boundary, logger)
        self.popularity = popularity
        state = Mutex(State(index: nil, bodies: ByteLRU(capacity: capacity)))
        fragments = Mutex((nil, ByteLRU(capacity: fragmentCapacity)))
        matched = Mutex((nil, ByteLRU(capacity: min(4 << 20, capacity))))
    }

    /// The answer to `request` as `viewer` sees it.
    package func results(_ request: SearchRequest, viewer: Viewer) async throws -> CachedBody {
        let index = try await currentIndex()
        var normalized = request
        normalized.view = viewer.view(request.view, in: index.snapshot, signer: manifests.linker.signer, now: nil)
        // Results vary by who asks (one body may answer an anonymous client and a user holding nothing that matters):
        // always `Vary: Authorization`, whoever asked first.
        let popular = popularity?(index)
        // Results leave out groups outside the caller's audience (suggestions are everyone's: no restricted word is
        // in them): with restricted groups in the catalog, they are for no shared cache.
        return try body(
            .results(normalized, popularity: popular?.generation ?? 0), index: index, personal: true,
            audienceBound: !index.snapshot.restricted.isEmpty
        ) {
            [linker = manifests.linker] in
            try SearchPage.build(
                normalized, index: index, linker: linker, popularity: popular,
                fragments: fragment(at: index.snapshot.point), matched: matches(at: index.snapshot.point)
            ).json
        }
    }

    /// Completions of `prefix`, those in `locale` first.
    package func suggestions(_ prefix: String, locale: String?) async throws -> CachedBody {
        let index = try await currentIndex()
        let resolved = resolvedLocale(locale, catalogLocales: index.snapshot.locales)
        let phrases = try await suggestions(for: index.snapshot)
        return try body(.suggestions(prefix, locale: resolved), index: index, personal: false) {
            var writer = SearchJSON()
            writer.object { list in
                list.field("locale", resolved)
                list.field("query", prefix)
                list.field("suggestions", phrases.complete(prefix, locale: resolved))
            }
            return writer.bytes
        }
    }

    /// Results' JSON kept for the snapshot at `point`, else made and kept; a later snapshot drops what was kept, and a
    /// request still on an older one neither reads nor keeps any. The lock is not held while one is made.
    private func fragment(at point: CatalogSnapshot.Point) -> SearchFragments {
        { [self] key, make in
            let kept = fragments.withLock { state -> [UInt8]?? in
                if state.point.map(point.isAfter) ?? true {
                    state = (point, ByteLRU(capacity: state.kept.capacity))
                }
                guard state.point == point else { return .none }
                return .some(state.kept.value(for: key))
            }
            guard case .some(let hit) = kept else { return make() }
            if let hit { return hit }
            let made = make()
            // Charged what it holds: its buffer, and about as much again for the entry and its key.
            fragments.withLock {
                if $0.point == point {
                    $0.kept.insert(made, for: key, cost: made.capacity + 160)
                }
            }
            return made
        }
    }

    /// The cached body for `key`, else `encode`d now (a query is a fraction of a millisecond: it runs where it is
    /// asked).
    private func body(
        _ key: Key, index: SearchIndex, personal: Bool, audienceBound bound: Bool = false,
        _ encode: () throws -> [UInt8]
    ) throws -> CachedBody {
        let point = index.snapshot.point
        if let boundary = boundary.value {
            let remaining = Int(boundary.timeIntervalSince(clock.now()).rounded(.down))
            // A boundary is nearer than an answer's max-age: none is kept or reused past it.
            if remaining < Self.maxAge {
                return CachedBody(
                    json: try encode(), personal: personal, audienceBound: bound, maxAge: max(0, remaining))
            }
        }
        if let hit = state.withLock({ $0.index?.snapshot.point == point ? $0.bodies.value(for: key) : nil }) {
            return hit
        }
        let body = CachedBody(json: try encode(), personal: personal, audienceBound: bound, maxAge: Self.maxAge)
        state.withLock { state in
            if state.index?.snapshot.point == point { state.bodies.insert(body, for: key, cost: body.cost + 256) }
        }
        return body
    }

    /// The index of the newest snapshot, built when the catalog has moved on (one build for every waiter): patched from
    /// the previous one when that is an earlier point of the same history, else built afresh (after a rewind the same
    /// revision numbers and content versions may name other rows).
    package func currentIndex() async throws -> SearchIndex {
        let snapshot = try await manifests.currentSnapshot()
        if let index = state.withLock({ $0.index }), index.snapshot.point == snapshot.point { return index }
        return try await builds.run(snapshot.point) { [self] in
            var previous = state.withLock { $0.index }
            if let previous, previous.snapshot.point == snapshot.point { return previous }
            if let held = previous?.snapshot, held.epoch != snapshot.epoch || held.revision >= snapshot.revision {
                previous = nil
            }
            let started = ContinuousClock.now
            let index = try await ManifestWorkers.shared.build { [previous] in
                (previous ?? .empty).patched(to: snapshot)
            }
            logger.debug(
                "Patched the search index",
                metadata: [
                    "revision": "\(snapshot.revision)", "stickers": "\(index.slots.count)",
                    "terms": "\(index.terms.count)",
                    "bytes": "\(index.bytes)", "ms": "\((ContinuousClock.now - started).milliseconds)",
                ])
            state.withLock { state in
                guard state.index.map({ snapshot.point.isAfter($0.snapshot.point) }) ?? true else { return }
                state.index = index
                state.suggestions = nil
                state.bodies.removeAll()
            }
            return index
        }
    }

    /// The suggestions of `snapshot`, built on a build thread when first asked for.
    private func suggestions(for snapshot: CatalogSnapshot) async throws -> SearchSuggestions {
        if let kept = state.withLock({ $0.index?.snapshot.point == snapshot.point ? $0.suggestions : nil }) {
            return kept
        }
        let built = try await suggestionBuilds.run(snapshot.point) {
            try await ManifestWorkers.shared.build { SearchSuggestions(snapshot: snapshot) }
        }
        state.withLock { if $0.index?.snapshot.point == snapshot.point { $0.suggestions = built } }
        return built
    }

    /// Bytes the index and the cached answers take, for the metrics.
    package var indexBytes: Int { state.withLock { ($0.index?.bytes ?? 0) + ($0.suggestions?.bytes ?? 0) } }
    package var cachedBytes: Int {
        state.withLock { $0.bodies.totalCost } + fragments.withLock { $0.kept.totalCost }
            + matched.withLock { $0.kept.totalCost }
    }
}
