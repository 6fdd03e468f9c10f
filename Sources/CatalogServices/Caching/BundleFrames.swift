import CatalogCore
import Foundation
import NIOCore

/// A bundle's answer made as it is sent: each image is read (from the cache, else the database) only when the frame
/// before it was taken, so the first byte goes out before the last image is read, and a client that stops reading
/// holds one image, not the 16 MiB the answer may reach. What was asked is looked up for existence in one read first
/// (`AssetStore.learnMissing`), so 256 random digests cost one round trip and a failing database a 503 before the
/// first byte.
package struct BundleFrames: Sendable {
    private let items: [AssetBundle.Request.Item]
    private let store: AssetStore
    private let isFree: @Sendable (AssetDigest) async throws -> Bool
    private let signer: AssetSigner
    private let now: Date
    private var index = 0
    private var total = 0

    /// Looks `items` up (one read for those not known); the frames follow with `next()`.
    package init(
        _ items: [AssetBundle.Request.Item], store: AssetStore, signer: AssetSigner, now: Date = Date(),
        isFree: @escaping @Sendable (AssetDigest) async throws -> Bool
    ) async throws {
        try await store.learnMissing(items.compactMap { AssetDigest(hex: Substring($0.sha256)) })
        (self.items, self.store, self.signer, self.now, self.isFree) = (items, store, signer, now, isFree)
    }

    /// The next image's frame (its header, then its bytes when found), or nil after the last.
    package mutating func next() async throws -> [ByteBuffer]? {
        guard index < items.count else { return nil }
        let item = items[index]
        index += 1
        guard total < AssetBundle.maxBytes else { return [AssetBundle.header(.skipped, length: 0)] }
        // As one image's route: a hidden image and an unknown digest answer alike unless the signature is ours.
        // (`AssetBundle.issues` refused any digest that is not one.)
        guard let digest = AssetDigest(hex: Substring(item.sha256)) else {
            return [AssetBundle.header(.notFound, length: 0)]
        }
        let asset = try await store.asset(digest)
        let hidden = try await asset == nil ? true : !isFree(digest)
        if hidden, let refusal = signer.check(sha256: item.sha256, exp: item.exp, sig: item.sig, now: now) {
            return [AssetBundle.header(refusal == .missing ? .notFound : AssetBundle.Status(refusal), length: 0)]
        }
        guard let asset else { return [AssetBundle.header(.notFound, length: 0)] }
        total += asset.bytes.readableBytes
        return [AssetBundle.header(.ok, length: asset.bytes.readableBytes), asset.bytes]
    }
}

extension AssetBundle.Status {
    package init(_ refusal: AssetSigner.Refusal) {
        switch refusal {
        case .missing: self = .signatureRequired
        case .expired: self = .signatureExpired
        case .invalid: self = .signatureInvalid
        }
    }
}
