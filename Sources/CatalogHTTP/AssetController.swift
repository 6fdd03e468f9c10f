import CatalogCore
import CatalogServices
import Foundation
import Hummingbird
import StickerImage

/// `GET|HEAD /v1/assets/{sha256}.png` and `.webp`: immutable image bytes (an image is at the extension of its format
/// only), cacheable for a year; any image no published free group
/// shows only with a signed URL (a manifest gives one to an entitled user, an admin answer to the admin; 403
/// otherwise). `POST /v1/assets/bundle`: many at once, by the same rules.
package struct AssetController {
    package let store: AssetStore
    /// Knows which images are premium (from the current catalog snapshot).
    package let manifests: ManifestService
    package let signer: AssetSigner
    /// Bundles in flight, on this replica and per client address.
    package let bundles: BundleGate
    package let proxies: TrustedProxies

    /// `bodies` is the same path with the deadline of routes that read a body.
    package func addRoutes(to group: RouterGroup<AppRequestContext>, bodies: RouterGroup<AppRequestContext>) {
        group.get("{sha256}.png", use: png)
        group.get("{sha256}.webp", use: webp)
        bodies.post("bundle", use: bundle)
    }

    @Sendable package func png(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await asset(hex: context.parameters["sha256"] ?? "", format: .png, request: request)
    }

    @Sendable package func webp(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await asset(hex: context.parameters["sha256"] ?? "", format: .webp, request: request)
    }

    /// The image whose digest `text` should be, when it is a `format` file (`HotRoutes` calls it without the router).
    /// An image no free group shows answers exactly as an unknown digest does unless the request's signature is one
    /// this service made: unsigned, both are the same 404; with a signature, both are judged by it. So no answer
    /// confirms that a hidden image exists, or in which format.
    package func asset(hex text: Substring, format: ImageFormat, request: Request) async throws -> Response {
        // Made only when thrown: its message was formatted for every asset served, found or not.
        var unknown: CatalogError { .notFound("Asset '\(text.prefix(64)).\(format.fileExtension)'") }
        // Only a well-formed digest reaches the store (and so the database).
        guard let digest = AssetDigest(hex: text) else { throw unknown }
        // Bytes first: while PostgreSQL is down an uncached image fails fast there, before the snapshot is tried.
        let stored = try await store.asset(digest)
        let asset = stored?.format == format ? stored : nil
        var expires: Int64?
        let hidden = try await asset == nil ? true : !manifests.isFree(digest)
        if hidden {
            let parameters = request.uri.queryParameters
            let now = Date()
            if let refusal = signer.check(
                sha256: digest.hex, exp: parameters["exp"].map(String.init), sig: parameters["sig"].map(String.init),
                now: now)
            {
                throw refusal == .missing ? unknown : Problem(signature: refusal)
            }
            expires = parameters["exp"].flatMap { Int64($0) }.map { $0 - Int64(now.timeIntervalSince1970) }
        }
        guard let asset else { throw unknown }
        // A premium image's answer may be kept only privately, and only while its URL holds.
        return try asset.response(for: request, cacheControl: expires.map { "private, max-age=\(max(0, $0))" })
    }

    /// `POST /v1/assets/bundle`: the images asked for, each as `AssetBundle` frames them, with the same rules as one
    /// image's route, streamed as the client reads (`BundleFrames`). Which digests exist is looked up before the first
    /// byte, so a database failure then is a 503; one later ends the connection (the client asks again).
    @Sendable package func bundle(_ request: Request, context: AppRequestContext) async throws -> Response {
        let place = try bundles.enter(proxies.source(of: request, peer: context.remoteAddress))
        let asked = try await request.decode(as: AssetBundle.Request.self, context: context)
        let issues = AssetBundle.issues(asked)
        guard issues.isEmpty else { throw Problem.validationFailed(issues) }
        let frames = try await BundleFrames(asked.assets, store: store, signer: signer) { [manifests] in
            try await manifests.isFree($0)
        }
        // The place is held until the last frame is written (a client that stops reading keeps it).
        return Response(
            status: .ok, headers: [.contentType: AssetBundle.mediaType, .cacheControl: "no-store"],
            body: ResponseBody { writer in
                var frames = frames
                while let frame = try await frames.next() {
                    for part in frame { try await writer.write(part) }
                }
                withExtendedLifetime(place) {}
                try await writer.finish(nil)
            })
    }

    package init(
        store: AssetStore, manifests: ManifestService, signer: AssetSigner, bundles: BundleGate = BundleGate(),
        proxies: TrustedProxies = TrustedProxies()
    ) {
        self.store = store
        self.manifests = manifests
        self.signer = signer
        self.bundles = bundles
        self.proxies = proxies
    }
}

extension Problem {
    /// A premium image asked for without a valid signed URL.
    package init(signature refusal: AssetSigner.Refusal) {
        switch refusal {
        case .missing:
            self = Problem(
                .forbidden, "signature_required",
                "This image is premium: use the signed URL a manifest gives an entitled user.")
        case .expired:
            self = Problem(
                .forbidden, "signature_expired",
                "This signed URL has expired: fetch the manifest again for a fresh one.")
        case .invalid: self = Problem(.forbidden, "signature_invalid", "This URL's signature does not match.")
        }
    }
}
