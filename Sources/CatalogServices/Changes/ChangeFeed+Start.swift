import CatalogCore
import Foundation

extension ChangeFeed {
    /// The cursor a stream that names none starts from: the current snapshot, in `view` as `viewer` sees it. The feed makes it, not the route, so the rule for what a caller sees (unlocked
    /// products, admitted groups) is applied in one place.
    package func startCursor(
        view: ManifestQuery, viewer: Viewer, now: Date = Date()
    ) async throws -> ChangeCursor {
        let snapshot = try await manifests.currentSnapshot()
        return ChangeCursor(
            revision: snapshot.revision, stamp: snapshot.stamp,
            query: viewer.view(view, in: snapshot, signer: manifests.linker.signer, now: now))
    }
}
