import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A JSON response body encoded once and served many times: its bytes and, when they are smaller, the same bytes
/// compressed with brotli and gzip, each representation with its own strong ETag (RFC 9110 8.8.3).
struct CachedBody: Sendable {
    struct Representation: Sendable {
        let bytes: ByteBuffer
        let etag: String
    }

    let identity: Representation
    private let encoded: [ContentCoding: Representation]

    /// Encodes `value` deterministically and names the bytes by their digest; compresses bodies worth it.
    init(encoding value: some Encodable) throws {
        let data = Array(try JSONEncoder.catalog.encode(value))
        let digest = String(sha256Hex(data).prefix(32))
        identity = Representation(bytes: ByteBuffer(bytes: data), etag: "\"\(digest)\"")
        var encoded: [ContentCoding: Representation] = [:]
        if data.count >= 256 {
            for (coding, compress) in [(ContentCoding.brotli, Compression.brotli), (.gzip, Compression.gzip)] {
                if let bytes = compress(data), bytes.count < data.count {
                    encoded[coding] = Representation(bytes: ByteBuffer(bytes: bytes), etag: "\"\(digest)-\(coding.rawValue)\"")
                }
            }
        }
        self.encoded = encoded
    }

    /// Memory the body takes in a cache.
    var cost: Int { identity.bytes.readableBytes + encoded.values.reduce(0) { $0 + $1.bytes.readableBytes } + 256 }

    /// 200 with the representation the client accepts best, or 304 when it holds that one already.
    /// `stale` marks a body served from an older revision because the database is unreachable (RFC 5861 stale-if-error,
    /// reported with RFC 9211 `Cache-Status`).
    func response(for request: Request, stale: Bool = false) -> Response {
        let coding = encoded.isEmpty ? .identity
            : AcceptEncoding.preferred(request.headers[.acceptEncoding], offered: [.brotli, .gzip].filter { encoded[$0] != nil })
        let chosen = encoded[coding] ?? identity
        var headers: HTTPFields = [.eTag: chosen.etag, .cacheControl: "no-cache"]
        if !encoded.isEmpty { headers[.vary] = "Accept-Encoding" }
        if stale { headers[.cacheStatus] = "stickerd; hit; detail=stale-if-error" }
        if ETag.matches(request.headers[.ifNoneMatch], chosen.etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        if coding != .identity { headers[.contentEncoding] = coding.rawValue }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: chosen.bytes))
    }
}

extension HTTPField.Name {
    /// RFC 9211: how a cache handled the request.
    static let cacheStatus = Self("Cache-Status")!
}
