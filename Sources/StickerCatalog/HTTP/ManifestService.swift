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
        if let hit = state.withLock({ $0.snapshot.map { $0.revision >= wanted } == true ? $0.bodies[key] : nil }) {
            return hit
        }
        let snapshot = try await currentSnapshot(atLeast: wanted)
        let body = try CachedBody(encoding: try Self.build(key, from: snapshot, linker: linker))
        state.withLock { state in
            guard state.snapshot?.revision == snapshot.revision else { return }
            if state.bodies.count >= Self.maxEntries { state.bodies.removeAll(keepingCapacity: true) }
            state.bodies[key] = body
        }
        return body
    }

    /// The snapshot in memory if it is recent enough, else a fresh one from the database.
    private func currentSnapshot(atLeast wanted: Int64) async throws -> CatalogSnapshot {
        if let snapshot = state.withLock({ $0.snapshot }), snapshot.revision >= wanted { return snapshot }
        let snapshot = try await reader.snapshot()
        revision.advance(to: snapshot.revision)
        state.withLock { state in
            if (state.snapshot?.revision ?? -1) < snapshot.revision {
                state = State(snapshot: snapshot)
            }
        }
        return snapshot
    }

    /// The value each key names, as a plain function of the snapshot.
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
