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
        case results(SearchRequest)
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
    private let state: Mutex<State>
    /// Results' JSON of one catalog revision (in one epoch: a restore may reuse revision numbers).
    private let fragments: Mutex<(revision: Int64, epoch: Int, kept: ByteLRU<SearchFragmentKey, [UInt8]>)>
    private let builds = SingleFlight<Int64, SearchIndex>()
    private let suggestionBuilds = SingleFlight<Int64, SearchSuggestions>()

    package init(
        manifests: ManifestService, capacity: Int, fragmentCapacity: Int = 16 << 20,
        clock: any ScheduleClock = SystemScheduleClock(),
        boundary: NextBoundary = NextBoundary(), logger: Logger
    ) {
        (self.manifests, self.clock, self.boundary, self.logger) = (manifests, clock, boundary, logger)
        state = Mutex(State(index: nil, bodies: ByteLRU(capacity: capacity)))
        fragments = Mutex((-1, -1, ByteLRU(capacity: fragmentCapacity)))
    }

    /// The answer to `request` for a user holding `held` (sorted).
    package func results(_ request: SearchRequest, held: [String]) async throws -> CachedBody {
        let epoch = manifests.revision.epoch
        let index = try await currentIndex()
        let access = ManifestService.Access(
            held: held, snapshot: index.snapshot, signer: manifests.linker.signer, now: nil)
        var normalized = request
        normalized.view = request.view.unlocking(access.products, signedUntil: access.signedUntil).normalized(
            for: index.snapshot)
        // Results vary by who asks (one body may answer an anonymous client and a user holding nothing that matters):
        // always `Vary: Authorization`, whoever asked first.
        return try body(.results(normalized), index: index, personal: true) { [linker = manifests.linker] in
            try SearchPage.build(
                normalized, index: index, linker: linker,
                fragments: fragment(revision: index.snapshot.revision, epoch: epoch)
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

    /// Results' JSON kept for `revision` of `epoch`, else made and kept; a newer revision drops what was kept, and a
    /// request still on an older one neither reads nor keeps any. The lock is not held while one is made.
    private func fragment(revision: Int64, epoch: Int) -> SearchFragments {
        { [self] key, make in
            let kept = fragments.withLock { state -> [UInt8]?? in
                if (state.epoch, state.revision) < (epoch, revision) {
                    state = (revision, epoch, ByteLRU(capacity: state.kept.capacity))
                }
                guard (state.epoch, state.revision) == (epoch, revision) else { return .none }
                return .some(state.kept.value(for: key))
            }
            guard case .some(let hit) = kept else { return make() }
            if let hit { return hit }
            let made = make()
            // Charged what it holds: its buffer, and about as much again for the entry and its key.
            fragments.withLock {
                if ($0.epoch, $0.revision) == (epoch, revision) {
                    $0.kept.insert(made, for: key, cost: made.capacity + 160)
                }
            }
            return made
        }
    }

    /// The cached body for `key`, else `encode`d now (a query is a fraction of a millisecond: it runs where it is
    /// asked).
    private func body(
        _ key: Key, index: SearchIndex, personal: Bool, _ encode: () throws -> [UInt8]
    ) throws -> CachedBody {
        let revision = index.snapshot.revision
        if let boundary = boundary.value {
            let remaining = Int(boundary.timeIntervalSince(clock.now()).rounded(.down))
            // A boundary is nearer than an answer's max-age: none is kept or reused past it.
            if remaining < Self.maxAge {
                return CachedBody(json: try encode(), personal: personal, maxAge: max(0, remaining))
            }
        }
        if let hit = state.withLock({ $0.index?.snapshot.revision == revision ? $0.bodies.value(for: key) : nil }) {
            return hit
        }
        let body = CachedBody(json: try encode(), personal: personal, maxAge: Self.maxAge)
        state.withLock { state in
            if state.index?.snapshot.revision == revision { state.bodies.insert(body, for: key, cost: body.cost + 256) }
        }
        return body
    }

    /// The index of the newest snapshot, built when the catalog has moved on (one build for every waiter).
    package func currentIndex() async throws -> SearchIndex {
        let snapshot = try await manifests.currentSnapshot()
        if let index = state.withLock({ $0.index }), index.snapshot.revision == snapshot.revision { return index }
        return try await builds.run(snapshot.revision) { [self] in
            let previous = state.withLock { $0.index }
            if let previous, previous.snapshot.revision == snapshot.revision { return previous }
            let started = ContinuousClock.now
            let index = try await ManifestWorkers.shared.build { (previous ?? .empty).patched(to: snapshot) }
            logger.debug(
                "Patched the search index",
                metadata: [
                    "revision": "\(snapshot.revision)", "stickers": "\(index.slots.count)",
                    "terms": "\(index.terms.count)",
                    "bytes": "\(index.bytes)", "ms": "\((ContinuousClock.now - started).milliseconds)",
                ])
            state.withLock { state in
                guard (state.index?.snapshot.revision ?? -1) < snapshot.revision else { return }
                state.index = index
                state.suggestions = nil
                state.bodies.removeAll()
            }
            return index
        }
    }

    /// The suggestions of `snapshot`, built on a build thread when first asked for.
    private func suggestions(for snapshot: CatalogSnapshot) async throws -> SearchSuggestions {
        if let kept = state.withLock({ $0.index?.snapshot.revision == snapshot.revision ? $0.suggestions : nil }) {
            return kept
        }
        let built = try await suggestionBuilds.run(snapshot.revision) {
            try await ManifestWorkers.shared.build { SearchSuggestions(snapshot: snapshot) }
        }
        state.withLock { if $0.index?.snapshot.revision == snapshot.revision { $0.suggestions = built } }
        return built
    }

    /// Bytes the index and the cached answers take, for the metrics.
    package var indexBytes: Int { state.withLock { ($0.index?.bytes ?? 0) + ($0.suggestions?.bytes ?? 0) } }
    package var cachedBytes: Int { state.withLock { $0.bodies.totalCost } + fragments.withLock { $0.kept.totalCost } }
}
