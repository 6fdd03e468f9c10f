import Hummingbird
import Synchronization

/// Serves manifests from memory: each (revision, query) is built and encoded once; a repeat does no SQL and no JSON.
final class ManifestService: Sendable {
    enum Key: Hashable {
        case manifest(ManifestQuery)
        case group(String, ManifestQuery)
        case filters
    }

    private struct State {
        var snapshot: CatalogSnapshot?
        var bodies: [Key: CachedBody] = [:]
    }

    /// Distinct queries kept per revision; past it the cache starts afresh (flags make the key space unbounded).
    static let maxEntries = 1024
    let reader: any CatalogReader
    let revision: CatalogRevision
    let linker: AssetLinker
    private let state = Mutex(State())

    init(reader: any CatalogReader, revision: CatalogRevision, linker: AssetLinker) {
        self.reader = reader
        self.revision = revision
        self.linker = linker
    }

    /// The cached body for `key`, building it from the current snapshot on a miss.
    func body(for key: Key) async throws -> CachedBody {
        let wanted = revision.current
        if let hit = cached(key, revision: wanted) { return hit }
        let snapshot = try await currentSnapshot(atLeast: wanted)
        let body = try CachedBody(encoding: try Self.build(key, from: snapshot, linker: linker))
        store(body, for: key, revision: snapshot.revision)
        return body
    }

    /// The snapshot in memory if it is recent enough, else a fresh one from the database.
    private func currentSnapshot(atLeast wanted: Int64) async throws -> CatalogSnapshot {
        if let snapshot = snapshot(atLeast: wanted) { return snapshot }
        let snapshot = try await reader.snapshot()
        revision.advance(to: snapshot.revision)
        keep(snapshot)
        return snapshot
    }

    // The lock is taken only in these synchronous helpers, never across an await.

    private func cached(_ key: Key, revision wanted: Int64) -> CachedBody? {
        state.withLock { state in
            guard let snapshot = state.snapshot, snapshot.revision >= wanted else { return nil }
            return state.bodies[key]
        }
    }

    private func snapshot(atLeast wanted: Int64) -> CatalogSnapshot? {
        state.withLock { state in
            guard let snapshot = state.snapshot, snapshot.revision >= wanted else { return nil }
            return snapshot
        }
    }

    private func keep(_ snapshot: CatalogSnapshot) {
        state.withLock { state in
            if (state.snapshot?.revision ?? -1) < snapshot.revision { state = State(snapshot: snapshot) }
        }
    }

    private func store(_ body: CachedBody, for key: Key, revision: Int64) {
        state.withLock { state in
            guard state.snapshot?.revision == revision else { return }
            if state.bodies.count >= Self.maxEntries { state.bodies.removeAll(keepingCapacity: true) }
            state.bodies[key] = body
        }
    }

    /// The value each key names, as a plain function of the snapshot.
    /// Not inlined: inlining its typed throws into the async caller crashes Swift 6.3's optimizer (LLVM CoroSplit).
    @inline(never)
    static func build(_ key: Key, from snapshot: CatalogSnapshot, linker: AssetLinker) throws -> any Encodable & Sendable {
        switch key {
        case .manifest(let query):
            return try Manifest.build(from: snapshot, query: query, linker: linker)
        case .group(let id, let query):
            let manifest = try Manifest.build(from: snapshot, query: query, linker: linker)
            guard let group = manifest.groups.first(where: { $0.id == id }) else { throw Problem.notFound("Group '\(id)'") }
            return group
        case .filters:
            return FilterList(filters: snapshot.filters.values.sorted { $0.name < $1.name })
        }
    }
}

/// `GET /v1/filters`: every filter a client may pass as `?filter=`.
struct FilterList: Encodable, Sendable {
    let filters: [StickerFilter]
}
