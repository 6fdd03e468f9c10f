import Foundation

/// Where a client's view of the catalog stands, as the change feed hands it out: opaque to clients (base64url of a
/// small JSON object and its tag, `CursorKey`). A cursor only says what the client claims to have; it grants nothing
/// (what a user holds is looked up afresh). It is signed all the same, as answering a forged one costs a read or a
/// build.
package struct ChangeCursor: Codable, Sendable, Hashable {
    /// The revision the client's view is complete at.
    package var since: Int64
    /// The stamp of `since` (`CatalogSnapshot.stamp`): the database stamping that revision otherwise means the client
    /// saw a history it no longer has. Nil in cursors made before stamps, which revisions of then are stamped (0).
    package var stamp: Int64?
    /// While paging: the revision the pages run up to (and its stamp), and the last group id sent.
    package var through: Int64?
    package var throughStamp: Int64?
    package var after: String?
    /// A fingerprint of the view (filter, flags, size, scale, format, locale); another view must start over.
    package var view: String
    /// The products whose groups the view showed unlocked.
    package var products: [String]
    /// The restricted groups the caller was admitted to (`ManifestQuery.admitted`); absent in cursors made before
    /// audiences, and when none.
    package var groups: [String]?

    package var admitted: [String] { groups ?? [] }

    /// Cursors longer than this are refused unread.
    package static let maxLength = 2048

    package init(
        since: Int64, stamp: Int64, through: Int64? = nil, throughStamp: Int64? = nil, after: String? = nil,
        view: String, products: [String], admitted: [String] = []
    ) {
        (self.since, self.stamp, self.through, self.throughStamp) = (since, stamp, through, throughStamp)
        (self.after, self.view, self.products) = (after, view, products)
        groups = admitted.isEmpty ? nil : admitted
    }

    /// The cursor of a whole view at `revision`, stamped `stamp`.
    package init(revision: Int64, stamp: Int64, query: ManifestQuery) {
        self.init(
            since: revision, stamp: stamp, view: Self.fingerprint(query), products: query.unlocked,
            admitted: query.admitted)
    }

    /// Whether `query` (normalised) unlocks and admits what this cursor's view did.
    package func sees(as query: ManifestQuery) -> Bool {
        query.unlocked == products && query.admitted == admitted
    }

    /// The stamp `since` had when this cursor was made.
    package var sinceStamp: Int64 { stamp ?? 0 }

    /// The cursor as handed out, signed with `key`.
    package func encoded(with key: CursorKey) -> String {
        let json = (try? JSONEncoder.catalog.encode(self)) ?? Data()
        return key.seal(text: Array(json))
    }

    /// Parses a cursor: `invalidParameter` for text no cursor could be (too long, other characters), `cursorExpired`
    /// for one this service cannot read or whose tag does not verify under `key` (corrupted, forged, made by another
    /// version of the service or by a replica with another key): the client starts over. The tag is checked before the
    /// JSON is read.
    package init(encoded: String, key: CursorKey, parameter: String = "since") throws(CatalogError) {
        try Self.checkForm(encoded, parameter: parameter)
        guard let json = key.open(text: encoded),
            let cursor = try? JSONDecoder().decode(Self.self, from: Data(json)),
            cursor.since >= 0, (cursor.through ?? cursor.since) >= cursor.since, cursor.products.count <= 100,
            cursor.admitted.count <= 1000
        else {
            throw .cursorExpired(
                "This cursor cannot be read (corrupted, not signed by this service, or from another version of it); fetch the manifest again."
            )
        }
        self = cursor
    }

    /// Refuses with `invalidParameter` text no cursor could be: empty, too long, or other characters than base64url's.
    package static func checkForm(_ encoded: String, parameter: String) throws(CatalogError) {
        guard !encoded.isEmpty, encoded.utf8.count <= maxLength,
            encoded.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || (0x30...0x39).contains($0)
                    || (0x41...0x5a).contains($0) || (0x61...0x7a).contains($0)
            })
        else {
            throw .invalidParameter(name: parameter, rule: "must be a cursor from a manifest or a change feed answer")
        }
    }

    /// A stable fingerprint (FNV-1a, 64 bits) of what a query shows, products aside.
    package static func fingerprint(_ query: ManifestQuery) -> String {
        let text = [
            query.filter ?? "", query.flags.joined(separator: ","), query.size?.rawValue ?? "", "\(query.scale)",
            query.format.rawValue, query.locale ?? "",
        ].joined(separator: "|")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
