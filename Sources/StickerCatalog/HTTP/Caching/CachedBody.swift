import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A JSON response body encoded once and served many times: its bytes and, when they are smaller, the same bytes
/// compressed with brotli and gzip, each representation with its own strong ETag (RFC 9110 8.8.3) and its response
/// headers made up front, so that serving one copies headers and bytes and builds nothing.
struct CachedBody: Sendable {
    struct Representation: Sendable {
        let bytes: ByteBuffer
        let etag: String
        /// Headers of a 200 (Content-Length included, so the response need not add it) and of a 304.
        let ok: HTTPFields
        let notModified: HTTPFields

        init(bytes: ByteBuffer, etag: String, coding: ContentCoding, vary: String?) {
            (self.bytes, self.etag) = (bytes, etag)
            var common: HTTPFields = [.eTag: etag, .cacheControl: "no-cache"]
            if let vary { common[.vary] = vary }
            notModified = common
            common[.contentType] = "application/json"
            if coding != .identity { common[.contentEncoding] = coding.rawValue }
            common[.contentLength] = String(bytes.readableBytes)
            ok = common
        }
    }

    let identity: Representation
    private let brotli: Representation?
    private let gzip: Representation?

    /// Encodes `value` deterministically and names the bytes by their digest; compresses bodies worth it.
    /// `personal`: the answer depends on who asks (locked or unlocked groups, signed URLs), so it varies by
    /// `Authorization` and a shared cache must not hand one user's answer to another.
    init(encoding value: some Encodable, personal: Bool = false) throws {
        let data = Array(try JSONEncoder.catalog.encode(value))
        let digest = String(sha256Hex(data).prefix(32))
        let (brotliBytes, gzipBytes) = data.count < 256 ? (nil, nil)
            : (Compression.brotli(data).flatMap { $0.count < data.count ? $0 : nil },
               Compression.gzip(data).flatMap { $0.count < data.count ? $0 : nil })
        let varies = brotliBytes != nil || gzipBytes != nil
        let vary = [varies ? "Accept-Encoding" : nil, personal ? "Authorization" : nil].compactMap { $0 }.joined(separator: ", ")
        let header = vary.isEmpty ? nil : vary
        identity = Representation(bytes: ByteBuffer(bytes: data), etag: "\"\(digest)\"", coding: .identity, vary: header)
        brotli = brotliBytes.map { Representation(bytes: ByteBuffer(bytes: $0), etag: "\"\(digest)-br\"", coding: .brotli, vary: header) }
        gzip = gzipBytes.map { Representation(bytes: ByteBuffer(bytes: $0), etag: "\"\(digest)-gzip\"", coding: .gzip, vary: header) }
    }

    /// Memory the body takes in a cache.
    var cost: Int {
        [identity, brotli, gzip].compactMap { $0?.bytes.readableBytes }.reduce(0, +) + 512
    }

    /// 200 with the representation the client accepts best, or 304 when it holds that one already.
    /// `stale` marks a body served from an older revision because the database is unreachable (RFC 5861 stale-if-error,
    /// reported with RFC 9211 `Cache-Status`).
    /// `personal`: the answer to a signed-in user, for no shared cache.
    func response(for request: Request, stale: Bool = false, personal: Bool = false) -> Response {
        let chosen = representation(accepting: request.headers[.acceptEncoding])
        let notModified = ETag.matches(request.headers[.ifNoneMatch], chosen.etag)
        var headers = notModified ? chosen.notModified : chosen.ok
        if stale { headers[.cacheStatus] = "stickerd; hit; detail=stale-if-error" }
        if personal { headers[.cacheControl] = "private, no-cache" }
        return notModified ? Response(status: .notModified, headers: headers)
            : Response(status: .ok, headers: headers, body: .init(byteBuffer: chosen.bytes))
    }

    private func representation(accepting header: String?) -> Representation {
        guard header != nil, brotli != nil || gzip != nil else { return identity }
        let offered: [ContentCoding] = brotli != nil ? (gzip != nil ? [.brotli, .gzip] : [.brotli]) : [.gzip]
        return switch AcceptEncoding.preferred(header, offered: offered) {
        case .brotli: brotli ?? identity
        case .gzip: gzip ?? identity
        case .identity: identity
        }
    }
}

extension HTTPField.Name {
    /// RFC 9211: how a cache handled the request.
    static let cacheStatus = Self("Cache-Status")!
}
