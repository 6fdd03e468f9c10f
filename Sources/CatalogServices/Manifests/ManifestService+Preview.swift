import CatalogCore
import Foundation

extension ManifestService {
    /// A manifest for an admin's eyes: `snapshot` (a moment's, from the primary) in `view` as a caller holding `held`
    /// (sorted) with `facts` sees it, every link signed (what it shows may not be free to fetch), built here and kept
    /// nowhere: a preview is rare, and must show what was scheduled a second ago.
    package func preview(
        _ snapshot: CatalogSnapshot, view: ManifestQuery, held: [String], facts: AudienceFacts, now: Date = Date()
    ) async throws -> [UInt8] {
        var signing = linker
        signing.signingEverythingUntil = signing.signer?.expiry(at: now)
        let everythingSigned = signing
        let access = Access(held: held, snapshot: snapshot, signer: everythingSigned.signer, now: nil, facts: facts)
        let normalized = view.unlocking(access).normalized(for: snapshot)
        return try await ManifestWorkers.shared.build {
            try Self.encode(
                .manifest(normalized), from: snapshot, linker: everythingSigned, fragments: GroupFragments(capacity: 0))
        }
    }
}
