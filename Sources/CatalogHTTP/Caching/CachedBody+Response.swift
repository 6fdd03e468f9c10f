import CatalogServices
import HTTPTypes
import Hummingbird
import NIOCore

extension CachedBody {
    /// 200 with `representation`, or 304 when the client holds it already.
    /// `stale` marks a body served from an older revision because the database is unreachable (RFC 5861 stale-if-error,
    /// reported with RFC 9211 `Cache-Status`). `personal`: the answer to a signed-in user, for no shared cache.
    package func response(
        _ representation: Representation, for request: Request, stale: Bool = false, personal: Bool = false
    ) -> Response {
        let notModified = ETag.matches(request.headers[.ifNoneMatch], representation.etag)
        var headers = notModified ? representation.notModified : representation.ok
        if stale { headers[.cacheStatus] = "stickerd; hit; detail=stale-if-error" }
        if personal && !cacheControl.hasPrefix("private") { headers[.cacheControl] = "private, " + cacheControl }
        return notModified
            ? Response(status: .notModified, headers: headers)
            : Response(status: .ok, headers: headers, body: Self.body(representation))
    }

    /// The bytes of `representation`: one buffer as kept; a body kept in parts (`CachedBody.init(parts:shared:)`) copied
    /// into one buffer up to `coalesceBelow` bytes, as each part costs a trip down the channel pipeline (measured with
    /// `scripts/bench.sh audience`, a 19 KB manifest in 17 parts: 0.75x of the same catalog without audiences when
    /// written part by part, 0.91x copied into one buffer), and handed over part by part above it, where a copy of
    /// the whole costs more than the trips.
    private static func body(_ representation: Representation) -> ResponseBody {
        guard !representation.parts.isEmpty else { return ResponseBody(byteBuffer: representation.bytes) }
        let parts = representation.parts
        guard representation.length >= coalesceBelow else {
            var buffer = ByteBufferAllocator().buffer(capacity: representation.length)
            for var part in parts { buffer.writeBuffer(&part) }
            return ResponseBody(byteBuffer: buffer)
        }
        return ResponseBody(contentLength: representation.length) { writer in
            try await writer.write(contentsOf: parts)
            try await writer.finish(nil)
        }
    }

    static let coalesceBelow = 256 << 10
}
