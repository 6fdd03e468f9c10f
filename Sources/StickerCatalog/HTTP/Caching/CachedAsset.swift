import HTTPTypes
import Hummingbird
import NIOCore
import StickerImage

/// An image as served: its bytes and its response headers, made once.
struct CachedAsset: Sendable {
    let sha256: String
    /// Told by the bytes themselves: the URL's extension must name it.
    let format: ImageFormat
    let etag: String
    let bytes: ByteBuffer
    let ok: HTTPFields
    let notModified: HTTPFields

    init(sha256: String, bytes: ByteBuffer) {
        self.sha256 = sha256
        etag = "\"\(sha256)\""
        self.bytes = bytes
        format = ImageFormat(sniffing: bytes.readableBytesView.prefix(12))
        notModified = [.eTag: etag, .cacheControl: "public, max-age=31536000, immutable"]
        var ok = notModified
        ok[.contentType] = format.mediaType
        ok[.acceptRanges] = "bytes"
        ok[.contentLength] = String(bytes.readableBytes)
        self.ok = ok
    }

    /// 200 with the bytes, 304 when the client holds them already, 206 with the part a `Range` asks for
    /// (RFC 9110 14: one range; several are answered whole), 416 when that part lies past the end.
    /// `cacheControl` replaces the year-long public caching (for premium images).
    func response(for request: Request, cacheControl: String? = nil) throws -> Response {
        var (ok, notModified) = (ok, notModified)
        if let cacheControl { (ok[.cacheControl], notModified[.cacheControl]) = (cacheControl, cacheControl) }
        if ETag.matches(request.headers[.ifNoneMatch], etag) { return Response(status: .notModified, headers: notModified) }
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

/// A `Range: bytes=…` header with a single range, against a body of `length` bytes.
enum ByteRange: Equatable {
    /// No usable single byte range (another unit, several ranges, bad syntax): answer the whole body.
    case none
    case unsatisfiable
    case range(Range<Int>)

    init(_ header: String, length: Int) {
        guard header.hasPrefix("bytes="), !header.contains(",") else { self = .none; return }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { self = .none; return }
        let (first, last) = (parts[0], parts[1])
        if first.isEmpty {
            // The last N bytes.
            guard let suffix = Int(last), suffix >= 0 else { self = .none; return }
            self = suffix == 0 || length == 0 ? .unsatisfiable : .range(max(0, length - suffix)..<length)
            return
        }
        guard let start = Int(first), start >= 0, last.isEmpty || Int(last) != nil else { self = .none; return }
        let end = last.isEmpty ? length - 1 : min(Int(last) ?? 0, length - 1)
        if !last.isEmpty, let stated = Int(last), stated < start { self = .none; return }
        self = start >= length ? .unsatisfiable : .range(start..<(end + 1))
    }
}
