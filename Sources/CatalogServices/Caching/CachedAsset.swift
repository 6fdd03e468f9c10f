import HTTPTypes
import NIOCore
import StickerImage

/// An image as served: its bytes and its response headers, made once.
package struct CachedAsset: Sendable {
    package let sha256: String
    /// Told by the bytes themselves: the URL's extension must name it.
    package let format: ImageFormat
    package let etag: String
    package let bytes: ByteBuffer
    package let ok: HTTPFields
    package let notModified: HTTPFields

    package init(sha256: String, bytes: ByteBuffer) {
        self.sha256 = sha256
        etag = "\"\(sha256)\""
        self.bytes = bytes
        format = ImageFormat(sniffing: bytes.readableBytesView.prefix(12))
        notModified = [.eTag: etag, .cacheControl: "public, max-age=31536000, immutable"]
        var ok = notModified
        ok[.contentType] = format.mediaType
        ok[.acceptRanges] = "bytes"
        ok[.contentLength] = String(bytes.readableBytes)
        // What every answer carries (`RequestObservation.finish`), made here once rather than set on every request.
        ok[.xContentTypeOptions] = "nosniff"
        self.ok = ok
    }

}

/// A `Range: bytes=…` header with a single range, against a body of `length` bytes.
package enum ByteRange: Equatable {
    /// No usable single byte range (another unit, several ranges, bad syntax): answer the whole body.
    case none
    case unsatisfiable
    case range(Range<Int>)

    package init(_ header: String, length: Int) {
        guard header.hasPrefix("bytes="), !header.contains(",") else {
            self = .none
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            self = .none
            return
        }
        let (first, last) = (parts[0], parts[1])
        if first.isEmpty {
            // The last N bytes.
            guard let suffix = Int(last), suffix >= 0 else {
                self = .none
                return
            }
            self = suffix == 0 || length == 0 ? .unsatisfiable : .range(max(0, length - suffix)..<length)
            return
        }
        guard let start = Int(first), start >= 0, last.isEmpty || Int(last) != nil else {
            self = .none
            return
        }
        let end = last.isEmpty ? length - 1 : min(Int(last) ?? 0, length - 1)
        if !last.isEmpty, let stated = Int(last), stated < start {
            self = .none
            return
        }
        self = start >= length ? .unsatisfiable : .range(start..<(end + 1))
    }
}
