import CatalogCore
import Foundation

extension ManifestService {
    /// A manifest for an admin's eyes: `snapshot` (a moment's, from the primary) in `view` as `viewer` sees it, every link signed (what it shows may not be free to fetch), built here and kept
    /// nowhere: a preview is rare, and must show what was scheduled a second ago.
    package func preview(
        _ snapshot: CatalogSnapshot, view: ManifestQuery, viewer: Viewer, now: Date = Date()
    ) async throws -> [UInt8] {
        var signing = linker
        signing.signingEverythingUntil = signing.signer?.expiry(at: now)
        let everythingSigned = signing
        let normalized = viewer.view(view, in: snapshot, signer: everythingSigned.signer, now: nil)
        return try await ManifestWorkers.shared.build {
            try Self.encode(
                .manifest(normalized), from: snapshot, linker: everythingSigned, fragments: GroupFragments(capacity: 0))
        }
    }
}
