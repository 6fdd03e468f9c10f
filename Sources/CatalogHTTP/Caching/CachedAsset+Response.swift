import CatalogServices
import HTTPTypes
import Hummingbird

extension CachedAsset {
    /// 200 with the bytes, 304 when the client holds them already, 206 with the part a `Range` asks for
    /// (RFC 9110 14: one range; several are answered whole), 416 when that part lies past the end.
    /// `cacheControl` replaces the year-long public caching (for premium images).
    package func response(for request: Request, cacheControl: String? = nil) throws -> Response {
        var (ok, notModified) = (ok, notModified)
        if let cacheControl { (ok[.cacheControl], notModified[.cacheControl]) = (cacheControl, cacheControl) }
        if ETag.matches(request.headers[.ifNoneMatch], etag) {
            return Response(status: .notModified, headers: notModified)
        }
        guard let header = request.headers[.range], request.headers[.ifRange].map({ $0 == etag }) ?? true else {
            return Response(status: .ok, headers: ok, body: .init(byteBuffer: bytes))
        }
        let length = bytes.readableBytes
        switch ByteRange(header, length: length) {
        case .none:
            return Response(status: .ok, headers: ok, body: .init(byteBuffer: bytes))
        case .unsatisfiable:
            var problem = Problem(.rangeNotSatisfiable, "range_not_satisfiable", "The image is \(length) bytes long.")
            problem.headers[.contentRange] = "bytes */\(length)"
            throw problem
        case .range(let range):
            var headers = ok
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(length)"
            headers[.contentLength] = String(range.count)
            let part = bytes.getSlice(at: bytes.readerIndex + range.lowerBound, length: range.count) ?? bytes
            return Response(status: .partialContent, headers: headers, body: .init(byteBuffer: part))
        }
    }
}
