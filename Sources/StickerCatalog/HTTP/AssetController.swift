import Foundation
import Hummingbird

/// `GET|HEAD /v1/assets/{sha256}.png`: immutable image bytes, cacheable for a year; any image no published free group
/// shows only with a signed URL (a manifest gives one to an entitled user, an admin answer to the admin; 403 otherwise).
struct AssetController {
    let store: AssetStore
    /// Knows which images are premium (from the current catalog snapshot).
    let manifests: ManifestService
    let signer: AssetSigner

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("{sha256}.png", use: asset)
    }

    @Sendable func asset(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await asset(hex: context.parameters["sha256"] ?? "", request: request)
    }

    /// The image whose digest `text` should be (`HotRoutes` calls it without the router).
    func asset(hex text: Substring, request: Request) async throws -> Response {
        // Only a well-formed digest reaches the store (and so the database).
        guard let digest = AssetDigest(hex: text), let asset = try await store.asset(digest) else {
            throw CatalogError.notFound("Asset '\(text.prefix(64))'")
        }
        // Bytes first: while PostgreSQL is down an uncached image fails fast there, before the snapshot is tried.
        var expires: Int64?
        if try await !manifests.isFree(digest) {
            let parameters = request.uri.queryParameters
            let now = Date()
            if let refusal = signer.check(sha256: digest.hex, exp: parameters["exp"].map(String.init), sig: parameters["sig"].map(String.init), now: now) {
                throw Problem(signature: refusal)
            }
            expires = parameters["exp"].flatMap { Int64($0) }.map { $0 - Int64(now.timeIntervalSince1970) }
        }
        // A premium image's answer may be kept only privately, and only while its URL holds.
        return try asset.response(for: request, cacheControl: expires.map { "private, max-age=\(max(0, $0))" })
    }
}

extension Problem {
    /// A premium image asked for without a valid signed URL.
    init(signature refusal: AssetSigner.Refusal) {
        switch refusal {
        case .missing: self = Problem(.forbidden, "signature_required", "This image is premium: use the signed URL a manifest gives an entitled user.")
        case .expired: self = Problem(.forbidden, "signature_expired", "This signed URL has expired: fetch the manifest again for a fresh one.")
        case .invalid: self = Problem(.forbidden, "signature_invalid", "This URL's signature does not match.")
        }
    }
}
