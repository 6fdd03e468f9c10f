import CatalogServices
import HTTPTypes
import Hummingbird

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
        if personal { headers[.cacheControl] = "private, " + cacheControl }
        return notModified
            ? Response(status: .notModified, headers: headers)
            : Response(status: .ok, headers: headers, body: .init(byteBuffer: representation.bytes))
    }
}
