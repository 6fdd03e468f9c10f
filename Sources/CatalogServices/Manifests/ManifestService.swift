import CatalogCore
import Foundation
import Logging
import NIOCore
import Synchronization

/// Serves manifests from memory. The catalog snapshot is read once per revision however many requests miss at once,
/// and each (revision, normalised query) is built and encoded once, on the build threads (`ManifestWorkers`), from
/// per-group fragments kept across revisions (`GroupFragments`); each coding a client asks for is compressed once.
/// Repeats do no SQL and no JSON. Bodies are kept in an LRU bounded by bytes. While PostgreSQL is unreachable the
/// newest snapshot in memory keeps serving, marked stale (stale-if-error), even when a newer revision has been
/// announced.
package final class ManifestService: Sendable {
    package enum Key: Hashable, Sendable {
        case manifest(ManifestQuery)
        /// A group, or one page of its stickers.
        case group(String, ManifestQuery, StickerPage = .first)
        /// A page of the group index (`GET /v1/groups`).
        case index(ManifestQuery, GroupIndexRequest)
        case filters

        /// The key with its locale resolved against the catalog and its products cut to those that unlock something,
        /// so requests that see the same thing share one body.
        package func normalized(for snapshot: CatalogSnapshot) -> Key {
            switch self {
            case .manifest(let query): .manifest(query.normalized(for: snapshot))
            case .group(let id, let query, let page): .group(id, query.normalized(for: snapshot), page)
            case .index(let query, let request): .index(query.normalized(for: snapshot), request)
            case .filters: self
            }
        }

        /// The key for a client with `access`.
        package func unlocking(_ access: Viewer.Access) -> Key {
            switch self {
            case .manifest(let query): .manifest(query.unlocking(access))
            case .group(let id, let query, let page): .group(id, query.unlocking(access), page)
            case .index(let query, let request): .index(query.unlocking(access), request)
            case .filters: self
            }
        }
    }

    /// A body, whether it comes from a snapshot older than the newest revision known, and where it is cached.
    package struct Served: Sendable {
        package let body: CachedBody
        package let stale: Bool
        package let key: Key
        package let revision: Int64
    }

    package struct CompressionKey: Hashable, Sendable {
        package let body: ObjectIdentifier
        package let coding: ContentCoding
    }

    private struct State {
        package var snapshot: CatalogSnapshot?
        /// The `CatalogRevision.epoch` the snapshot was read in; another means the database went back.
        package var epoch = 0
        package var bodies: ByteLRU<Key, CachedBody>
        /// Raw query strings already parsed against this snapshot, and the key each normalised to.
        package var queries: ByteLRU<RawQuery, Key>
    }

    /// A route and its query string as the client sent it, and what the client may unlock.
    package struct RawQuery: Hashable, Sendable {
        package let route: String
        package let query: String
        package let access: Viewer.Access
    }

    private struct BuildKey: Hashable, Sendable {
        package let revision: Int64
        package let key: Key
    }

    package let reader: any CatalogReader
    package let revision: CatalogRevision
    package let linker: AssetLinker
    private let state: Mutex<State>
    private let loads = SingleFlight<Int, CatalogSnapshot>()
    private let builds = SingleFlight<BuildKey, CachedBody>()
    package let compressions = SingleFlight<CompressionKey, CachedBody.Representation>()
    package let fragments: GroupFragments
    /// The group order of recent snapshots, for index walks that span a change.
    package let orders = GroupOrders()
    package let logger: Logger
    private let counters: CacheCounters
    /// The most stickers a whole manifest lists (`maxManifestStickers(capacity:)`).
    package let manifestStickerLimit: Int

    /// A whole manifest is made for catalogs of up to one sticker per 2 KiB of the body cache (32,768 at the default
    /// 64 MiB): a sticker is some 700 bytes of JSON, so such a manifest takes at most a third of the cache. A larger
    /// one would not stay cached and would be built again, for seconds, on every request: it is refused instead, and
    /// clients page through the group index.
    package static func maxManifestStickers(capacity: Int) -> Int { capacity / 2048 }

    /// `capacity` bytes for bodies, as much again for group fragments.
    package init(
        reader: any CatalogReader, revision: CatalogRevision, linker: AssetLinker, capacity: Int = 64 << 20,
        logger: Logger = Logger(label: "stickerd.manifests"), counters: CacheCounters = .none
    ) {
        self.counters = counters
        manifestStickerLimit = Self.maxManifestStickers(capacity: capacity)
        self.reader = reader
        self.logger = logger
        self.revision = revision
        self.linker = linker
        fragments = GroupFragments(capacity: capacity)
        state = Mutex(State(snapshot: nil, bodies: ByteLRU(capacity: capacity), queries: ByteLRU(capacity: 1 << 20)))
    }

    /// The cached body for a request: a query string seen before against this snapshot is neither parsed nor
    /// validated again (`parse` runs only on a miss, and a query it refuses is not remembered).
    /// `viewer`: who asks (the products it holds unlock premium groups, its facts admit it to restricted ones), with
    /// URLs signed at `now`.
    package func body(
        route: String, query: String?, viewer: Viewer, now: Date? = nil, parse: () throws -> Key
    ) async throws -> Served {
        let (wanted, epoch) = (revision.current, revision.epoch)
        let hit = state.withLock { state -> Served? in
            guard let snapshot = state.snapshot, state.epoch == epoch, snapshot.revision >= wanted else { return nil }
            let raw = RawQuery(
                route: route, query: query ?? "",
                access: viewer.access(in: snapshot, signer: linker.signer, now: now))
            guard let key = state.queries.value(for: raw), let body = state.bodies.value(for: key) else { return nil }
            return Served(body: body, stale: false, key: key, revision: snapshot.revision)
        }
        if let hit {
            counters.hit()
            return hit
        }
        let access = viewer.access(in: nil, signer: linker.signer, now: now)
        let (served, normalized, revision) = try await serve(try parse().unlocking(access))
        state.withLock { state in
            guard let snapshot = state.snapshot, snapshot.revision == revision else { return }
            let raw = RawQuery(
                route: route, query: query ?? "",
                access: viewer.access(in: snapshot, signer: linker.signer, now: now))
            let cost =
                raw.query.utf8.count + raw.route.utf8.count
                + (raw.access.products + raw.access.admitted).reduce(128) { $0 + $1.utf8.count + 16 }
            state.queries.insert(normalized, for: raw, cost: cost)
        }
        return served
    }

    /// The cached body for `key`, building it from the current snapshot on a miss.
    package func body(for key: Key) async throws -> Served {
        try await serve(key).served
    }

    /// The body for `key`, the key it normalised to, and the revision of the snapshot it was built from.
    private func serve(_ key: Key) async throws -> (served: Served, normalized: Key, revision: Int64) {
        let (wanted, epoch) = (revision.current, revision.epoch)
        let hit = state.withLock { state -> (CachedBody, Key, Int64)? in
            guard let snapshot = state.snapshot, state.epoch == epoch, snapshot.revision >= wanted else { return nil }
            let normalized = key.normalized(for: snapshot)
            return state.bodies.value(for: normalized).map { ($0, normalized, snapshot.revision) }
        }
        if let (body, normalized, revision) = hit {
            counters.hit()
            return (Served(body: body, stale: false, key: normalized, revision: revision), normalized, revision)
        }
        let (snapshot, stale) = try await snapshot(atLeast: wanted)
        let normalized = key.normalized(for: snapshot)
        if case .manifest = normalized, snapshot.stickerCount > manifestStickerLimit {
            throw CatalogError.tooLarge(
                "This catalog has \(snapshot.stickerCount) stickers, more than the \(manifestStickerLimit) a whole manifest lists on this service; page through GET /v1/groups and fetch each group with GET /v1/groups/{id}."
            )
        }
        // A restricted group outside the caller's audience is as absent as a group that does not exist.
        if case .group(let id, let query, _) = normalized, snapshot.group(id: id).map(query.shows) != true {
            throw CatalogError.notFound("Group '\(id)'")
        }
        let body = try await builds.run(BuildKey(revision: snapshot.revision, key: normalized)) {
            [self, linker, fragments] in
            if let built = cached(normalized, revision: snapshot.revision) { return built }
            let personal = if case .filters = normalized { false } else { true }
            counters.miss()
            let started = ContinuousClock.now
            let body = try await ManifestWorkers.shared.build { [orders] in
                try Self.body(
                    normalized, from: snapshot, linker: linker, fragments: fragments, orders: orders, personal: personal
                )
            }
            logger.debug(
                "Built a manifest",
                metadata: [
                    "revision": "\(snapshot.revision)", "bytes": "\(body.identity.length)",
                    "ms": "\((ContinuousClock.now - started).milliseconds)",
                ])
            store(body, for: normalized, revision: snapshot.revision)
            return body
        }
        return (
            Served(body: body, stale: stale, key: normalized, revision: snapshot.revision), normalized,
            snapshot.revision
        )
    }

    /// Whether a published free group shows image `sha256` (asked on every asset request: no snapshot is copied when
    /// the one in memory is current).
    package func isFree(_ digest: AssetDigest) async throws -> Bool {
        let (wanted, epoch) = (revision.current, revision.epoch)
        let known = state.withLock { state -> Bool? in
            guard let snapshot = state.snapshot, state.epoch == epoch, snapshot.revision >= wanted else { return nil }
            return snapshot.freeAssets.contains(digest)
        }
        if let known { return known }
        return try await currentSnapshot().freeAssets.contains(digest)
    }

    /// The snapshot in memory when it is current, without reading anything.
    package func snapshotInMemory() -> CatalogSnapshot? {
        let (wanted, epoch) = (revision.current, revision.epoch)
        return state.withLock { state in
            guard let snapshot = state.snapshot, state.epoch == epoch, snapshot.revision >= wanted else { return nil }
            return snapshot
        }
    }

    /// The newest snapshot: read when a newer revision is known, the one in memory when the database is unreachable.
    package func currentSnapshot() async throws -> CatalogSnapshot {
        try await snapshot(atLeast: revision.current).0
    }

    /// The snapshot in memory when it is recent enough, else one read from the database (one read for all waiters);
    /// the snapshot in memory, marked stale, when the database cannot be reached.
    private func snapshot(atLeast wanted: Int64) async throws -> (CatalogSnapshot, stale: Bool) {
        let epoch = revision.epoch
        // A snapshot of an earlier epoch is from a future the database no longer has: reuse nothing of it.
        let kept = state.withLock { $0.epoch == epoch ? $0.snapshot : nil }
        if let kept, kept.revision >= wanted { return (kept, false) }
        do {
            var snapshot = try await loads.run(epoch) { [reader] in try await reader.snapshot(reusing: kept) }
            // A read that began before the change was announced: one more, shared like the first.
            if snapshot.revision < wanted {
                let newer = snapshot
                snapshot = try await loads.run(epoch) { [reader] in try await reader.snapshot(reusing: newer) }
            }
            revision.advance(to: snapshot.revision, stamp: snapshot.stamp)
            // The read may have found the history changed and started a new epoch: the snapshot is of that one.
            return (keep(snapshot, epoch: max(epoch, snapshot.epoch)), false)
        } catch let error as DatabaseUnavailable {
            guard let current = state.withLock({ $0.snapshot }) else { throw error }
            return (current, true)
        }
    }

    // The lock is taken only in these synchronous helpers, never across an await.

    private func keep(_ snapshot: CatalogSnapshot, epoch: Int) -> CatalogSnapshot {
        orders.keep(snapshot)
        return state.withLock { state in
            if epoch > state.epoch || (epoch == state.epoch && (state.snapshot?.revision ?? -1) < snapshot.revision) {
                state.epoch = epoch
                // Bodies of older revisions are obsolete (they were kept only for stale-if-error).
                state.snapshot = snapshot
                state.bodies.removeAll()
                state.queries.removeAll()
            }
            return state.snapshot ?? snapshot
        }
    }

    private func cached(_ key: Key, revision: Int64) -> CachedBody? {
        state.withLock { state in state.snapshot?.revision == revision ? state.bodies.value(for: key) : nil }
    }

    /// Whether `served` is still the cached body of its key and of the current snapshot.
    package func isKept(_ served: Served) -> Bool {
        state.withLock { state in
            state.snapshot?.revision == served.revision && state.bodies.peek(served.key) === served.body
        }
    }

    /// Charges the cache for what `served` takes now that a coding was added to it.
    package func recount(_ served: Served) {
        state.withLock { state in
            guard state.snapshot?.revision == served.revision, state.bodies.peek(served.key) === served.body else {
                return
            }
            state.bodies.insert(served.body, for: served.key, cost: served.body.cost)
        }
    }

    private func store(_ body: CachedBody, for key: Key, revision: Int64) {
        state.withLock { state in
            guard state.snapshot?.revision == revision else { return }
            state.bodies.insert(body, for: key, cost: body.cost)
        }
    }

    /// Bytes the cached bodies take, for tests and metrics.
    package var cachedBytes: Int { state.withLock { $0.bodies.totalCost } }

    /// Whether a body for `key` is in memory for the current snapshot (without touching its rank).
    package func isCached(_ key: Key) -> Bool {
        state.withLock { state in state.snapshot.map { state.bodies.peek(key.normalized(for: $0)) != nil } ?? false }
    }

    /// The body `key` names: with restricted groups in the catalog, a manifest is made of the group fragments it
    /// shares with every other audience's (`GroupFragments.manifestParts`); else one buffer, as always.
    /// A group's body is named by its `GroupVersion`, which the index states; a page of the index by a digest of its
    /// bytes, as every other body.
    @inline(never)
    package static func body(
        _ key: Key, from snapshot: CatalogSnapshot, linker: AssetLinker, fragments: GroupFragments,
        orders: GroupOrders? = nil, personal: Bool
    ) throws -> CachedBody {
        switch key {
        case .manifest(let query) where !snapshot.restricted.isEmpty:
            let (parts, shared) = try fragments.manifestParts(from: snapshot, query: query, linker: linker)
            return CachedBody(parts: parts, shared: shared, personal: personal)
        case .group(let id, let query, let page):
            let json = try encode(key, from: snapshot, linker: linker, fragments: fragments)
            let group = snapshot.group(id: id)
            let version = group.map {
                GroupVersion.of(
                    $0, position: query.position(of: $0, in: snapshot), stickers: snapshot.stickers[id] ?? [],
                    contentVersion: snapshot.contentVersions[id], query: query, linker: linker,
                    page: page.versionPart)
            }
            return CachedBody(json: json, personal: personal, digest: version)
        case .index(let query, let request):
            let pinned = request.cursor.flatMap { orders?.order(revision: $0.revision, stamp: $0.stamp) }
            let page = try GroupIndexPage.build(
                from: snapshot, query: query, request: request, pinned: pinned, linker: linker)
            return CachedBody(json: Array(try JSONEncoder.catalog.encode(page)), personal: personal)
        default:
            return CachedBody(
                json: try encode(key, from: snapshot, linker: linker, fragments: fragments), personal: personal)
        }
    }

    /// The JSON each key names, as a plain function of the snapshot (and of the fragments kept, which give the same
    /// bytes). Not inlined: inlining its typed throws into the async caller crashes Swift 6.3's optimizer (LLVM
    /// CoroSplit).
    @inline(never)
    package static func encode(
        _ key: Key, from snapshot: CatalogSnapshot, linker: AssetLinker, fragments: GroupFragments
    ) throws -> [UInt8] {
        switch key {
        case .manifest(let query):
            return try fragments.manifest(from: snapshot, query: query, linker: linker)
        case .group(let id, let query, let page):
            let stickers = snapshot.stickers[id] ?? []
            if page != .first || stickers.count > page.limit, let group = snapshot.group(id: id), query.shows(group) {
                // A locked group lists no sticker: one page, with no next.
                let locked = group.productId.map { !query.unlocked.contains($0) } ?? false
                let (range, next) =
                    locked ? (0..<0, nil) : page.range(of: stickers, contentVersion: snapshot.contentVersions[id])
                guard
                    let json = ManifestGroup(
                        group, position: query.position(of: group, in: snapshot), stickers: stickers, query: query,
                        linker: linker, page: range)
                else { throw CatalogError.notFound("Group '\(id)'") }
                return Array(
                    try JSONEncoder.catalog.encode(
                        ManifestGroupPage(group: json, next: next?.encoded(with: linker.cursorKey))))
            }
            guard let group = snapshot.group(id: id), query.shows(group),
                let json = try fragments.json(
                    of: group, position: query.position(of: group, in: snapshot), stickers: snapshot.stickers[id] ?? [],
                    required: [], query: query, linker: linker)
            else {
                throw CatalogError.notFound("Group '\(id)'")
            }
            return json
        case .index(let query, let request):
            let page = try GroupIndexPage.build(
                from: snapshot, query: query, request: request, pinned: nil, linker: linker)
            return Array(try JSONEncoder.catalog.encode(page))
        case .filters:
            return Array(
                try JSONEncoder.catalog.encode(
                    FilterList(filters: snapshot.filters.values.sorted { $0.name < $1.name })))
        }
    }
}

/// `GET /v1/filters`: every filter a client may pass as `?filter=`.
package struct FilterList: Encodable, Sendable {
    package let filters: [StickerFilter]
}
