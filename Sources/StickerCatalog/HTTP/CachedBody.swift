import Crypto
import Foundation
import Hummingbird
import NIOCore

/// A response body encoded once and served many times, with its strong ETag.
struct CachedBody: Sendable {
    let body: ByteBuffer
    let etag: String

    /// Encodes `value` deterministically and names the bytes by their digest.
    init(encoding value: some Encodable) throws {
        let data = try JSONEncoder.catalog.encode(value)
        body = ByteBuffer(bytes: data)
        etag = "\"" + sha256Hex(Array(data)).prefix(32) + "\""
    }

    /// 200 with the body, or 304 when the client already holds these bytes.
    func response(for request: Request, cacheControl: String = "no-cache") -> Response {
        var headers: HTTPFields = [.eTag: etag, .cacheControl: cacheControl]
        if ETag.matches(request.headers[.ifNoneMatch], etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = "application/json"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}

/// Entity-tag comparison for `If-None-Match` (RFC 9110: weak comparison, lists and `*`).
enum ETag {
    static func matches(_ ifNoneMatch: String?, _ etag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        if ifNoneMatch == etag { return true }
        return ifNoneMatch.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag
        }
    }
}
