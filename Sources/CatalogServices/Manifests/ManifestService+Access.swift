import CatalogCore
import Foundation

extension ManifestService {
    /// The premium products a user holds that unlock something in the snapshot, the restricted groups the caller's
    /// facts admit it to, and the expiry of signed URLs: what a raw query string's answer depends on beyond itself.
    package struct Access: Hashable, Sendable {
        package static let none = Access(products: [], signedUntil: nil)
        package let products: [String]
        package let signedUntil: Int64?
        package let facts: AudienceFacts
        /// The restricted groups `facts` admit to in the snapshot the access was judged against (none without one).
        package let admitted: [String]

        package init(products: [String], signedUntil: Int64?, facts: AudienceFacts = .none, admitted: [String] = []) {
            (self.products, self.facts, self.admitted, self.signedUntil) = (products, facts, admitted, signedUntil)
        }

        package init(
            held: [String], snapshot: CatalogSnapshot?, signer: AssetSigner?, now: Date?, facts: AudienceFacts = .none
        ) {
            let products = held.isEmpty ? [] : held.filter { snapshot?.premiumProducts.contains($0) ?? true }
            let admitted = snapshot?.admitted(facts) ?? []
            // Without a snapshot, what the facts admit is not known yet: keep an expiry for `normalized(for:)`.
            let signs = !products.isEmpty || !admitted.isEmpty || (snapshot == nil && facts != .none)
            self.init(
                products: products, signedUntil: signs ? signer?.expiry(at: now ?? Date()) : nil, facts: facts,
                admitted: admitted)
        }

        /// The key's identity in the raw-query cache: facts are summarised by what they admit.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(products)
            hasher.combine(signedUntil)
            hasher.combine(admitted)
        }

        package static func == (lhs: Access, rhs: Access) -> Bool {
            lhs.products == rhs.products && lhs.signedUntil == rhs.signedUntil && lhs.admitted == rhs.admitted
        }
    }
}

extension ManifestQuery {
    /// The query for a caller with `access` (its products, its facts and the signed URLs' expiry).
    package func unlocking(_ access: ManifestService.Access) -> ManifestQuery {
        unlocking(access.products, signedUntil: access.signedUntil, facts: access.facts)
    }
}
