import CatalogCore
import Foundation

extension ChangeFeed {
    /// The cursor a stream that names none starts from: the current snapshot, in `view` as a caller holding `held`
    /// (sorted) with `facts` sees it. The feed makes it, not the route, so the rule for what a caller sees (unlocked
    /// products, admitted groups) is applied in one place.
    package func startCursor(
        view: ManifestQuery, held: [String], facts: AudienceFacts, now: Date = Date()
    ) async throws -> ChangeCursor {
        let snapshot = try await manifests.currentSnapshot()
        let access = ManifestService.Access(
            held: held, snapshot: snapshot, signer: manifests.linker.signer, now: now, facts: facts)
        return ChangeCursor(
            revision: snapshot.revision, stamp: snapshot.stamp,
            query: view.unlocking(access).normalized(for: snapshot))
    }
}
