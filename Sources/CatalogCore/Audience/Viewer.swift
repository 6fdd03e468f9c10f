import Foundation

/// Who is asking: the premium products a caller holds and what it stated of itself (`AudienceFacts`). HTTP makes one
/// per request (client routes from the user token and the facts middleware, admin previews from their query through
/// the same parser), and every service that answers with catalog content takes one, with no default. The rule for what
/// a viewer may see is here and nowhere else: the products that unlock something in a snapshot, the restricted groups
/// its facts admit it to, and image URLs signed when either shows anything (`access(in:signer:now:)`, `view`).
package struct Viewer: Sendable, Hashable {
    /// Products held, sorted.
    package let held: [String]
    package let facts: AudienceFacts

    package init(held: [String], facts: AudienceFacts) {
        self.held = held.count > 1 ? held.sorted() : held
        self.facts = facts
    }

    /// No product and no fact: an anonymous client that states nothing, or an export for everyone.
    package static let anyone = Viewer(held: [], facts: .none)

    /// What this viewer may see in `snapshot`, judged once: nil `snapshot` when it is not read yet (what the facts
    /// admit is then decided by `ManifestQuery.normalized(for:)`, and a signed URL's expiry is kept for it).
    package func access(in snapshot: CatalogSnapshot?, signer: AssetSigner?, now: Date?) -> Access {
        let products = held.isEmpty ? [] : held.filter { snapshot?.premiumProducts.contains($0) ?? true }
        let admitted = snapshot?.admitted(facts) ?? []
        let signs = !products.isEmpty || !admitted.isEmpty || (snapshot == nil && facts != .none)
        return Access(
            products: products, signedUntil: signs ? signer?.expiry(at: now ?? Date()) : nil, facts: facts,
            admitted: admitted)
    }

    /// `query` as this viewer sees it in `snapshot`: its products and admitted groups, its URLs signed until a time
    /// `signer` gives from `now`, its locale resolved; the form every cache and cursor keys on.
    package func view(
        _ query: ManifestQuery, in snapshot: CatalogSnapshot, signer: AssetSigner?, now: Date?
    ) -> ManifestQuery {
        query.unlocking(access(in: snapshot, signer: signer, now: now)).normalized(for: snapshot)
    }

    /// The premium products a viewer holds that unlock something in a snapshot, the restricted groups its facts admit
    /// it to, and the expiry of signed URLs: what a raw query string's answer depends on beyond itself.
    package struct Access: Hashable, Sendable {
        package let products: [String]
        package let signedUntil: Int64?
        package let facts: AudienceFacts
        /// The restricted groups `facts` admit to in the snapshot the access was judged against (none without one).
        package let admitted: [String]

        package init(products: [String], signedUntil: Int64?, facts: AudienceFacts, admitted: [String]) {
            (self.products, self.facts, self.admitted, self.signedUntil) = (products, facts, admitted, signedUntil)
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
    /// The query for a viewer with `access` (its products, its facts and the signed URLs' expiry).
    package func unlocking(_ access: Viewer.Access) -> ManifestQuery {
        unlocking(access.products, signedUntil: access.signedUntil, facts: access.facts)
    }
}
