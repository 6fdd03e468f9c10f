import HTTPTypes
import Hummingbird
import NIOCore

/// An image as served: its bytes and its response headers, made once.
struct CachedAsset: Sendable {
    let etag: String
    let bytes: ByteBuffer
    let ok: HTTPFields
    let notModified: HTTPFields

    init(sha256: String, bytes: ByteBuffer) {
        etag = "\"\(sha256)\""
        self.bytes = bytes
        notModified = [.eTag: etag, .cacheControl: "public, max-age=31536000, immutable"]
        var ok = notModified
        ok[.contentType] = "image/png"
        ok[.contentLength] = String(bytes.readableBytes)
        self.ok = ok
    }

    /// 200 with the bytes, or 304 when the client holds them already.
    func response(for request: Request) -> Response {
        ETag.matches(request.headers[.ifNoneMatch], etag) ? Response(status: .notModified, headers: notModified)
            : Response(status: .ok, headers: ok, body: .init(byteBuffer: bytes))
    }
}
