import CatalogCore
import Crypto
import Foundation
import HTTPTypes
import NIOCore
import Synchronization

/// A JSON response body encoded once and served many times: its bytes and, made on first demand, the same bytes
/// compressed in each coding a client asks for, each representation with its own strong ETag (RFC 9110 8.8.3) and its
/// response headers made up front, so that serving one copies headers and bytes and builds nothing.
/// A compressed representation is made at the fast level while a client waits, and made again at the best level, off
/// the request path, once it has been served `upgradeAfterHits` times (small bodies get the best level at once).
package final class CachedBody: Sendable {
    package struct Representation: Sendable {
        /// The body's bytes, or its first part when it is made of several.
        package let bytes: ByteBuffer
        /// Every part in order when there are several (`init(parts:shared:)`); empty when `bytes` is the whole body.
        package let parts: [ByteBuffer]
        /// Bytes in all.
        package let length: Int
        package let etag: String
        /// Headers of a 200 (Content-Length included, so the response need not add it) and of a 304.
        package let ok: HTTPFields
        package let notModified: HTTPFields

        package init(
            bytes: ByteBuffer, parts: [ByteBuffer] = [], etag: String, coding: ContentCoding, vary: String?,
            cacheControl: String
        ) {
            (self.bytes, self.parts, self.etag) = (parts.first ?? bytes, parts.count > 1 ? parts : [], etag)
            length = parts.count > 1 ? parts.reduce(0) { $0 + $1.readableBytes } : self.bytes.readableBytes
            var common: HTTPFields = [.eTag: etag, .cacheControl: cacheControl]
            if let vary { common[.vary] = vary }
            notModified = common
            common[.contentType] = "application/json"
            if coding != .identity { common[.contentEncoding] = coding.rawValue }
            common[.contentLength] = String(length)
            // What every answer carries (`RequestObservation.finish`), made here once rather than on every request.
            common[.xContentTypeOptions] = "nosniff"
            ok = common
        }
    }

    private struct Encoded {
        package var representation: Representation
        package var level: CompressionLevel
    }

    /// The compressed representations made so far (a struct, not a dictionary: read on every compressed request).
    private struct Encodings {
        package var brotli: Encoded?
        package var gzip: Encoded?

        package subscript(coding: ContentCoding) -> Encoded? {
            get { coding == .brotli ? brotli : gzip }
            set { if coding == .brotli { brotli = newValue } else { gzip = newValue } }
        }
    }

    package static let upgradeAfterHits = 8
    /// Bodies this small are compressed at the best level straight away: a few milliseconds.
    package static let bestAtOnceBelow = 16 << 10

    package let identity: Representation
    /// Whether compressed codings are offered at all: not for bodies too small to gain.
    package let compressible: Bool
    /// The bytes, in one part or in several that other bodies share (`init(parts:shared:)`).
    private let parts: [ByteBuffer]
    /// Bytes of `parts` kept by another cache, which holds them anyway.
    private let shared: Int
    private let digest: String
    private let vary: String?
    /// `no-cache` (revalidate every time), or `max-age` for answers that may be reused for a few seconds.
    package let cacheControl: String
    private let encoded = Mutex(Encodings())
    /// Requests served from a fast-level representation, counted without the lock.
    private let brotliHits = Atomic<Int>(0)
    private let gzipHits = Atomic<Int>(0)

    /// `json` named by its digest. `personal`: the answer depends on who asks (locked or unlocked groups, signed URLs),
    /// so it varies by `Authorization` and a shared cache must not hand one user's answer to another. `maxAge`: seconds
    /// a client may reuse it without asking; nil has it revalidate every time. `audienceBound`: the answer depends on
    /// the caller's audience facts (the catalog has restricted groups) and may be reused for `maxAge` without asking,
    /// so it is `private`: a shared cache would key it on none of the facts' headers (docs/scale.md).
    /// `digest`: a name given to the bytes instead (`GroupVersion`), which must change whenever they do.
    package convenience init(
        json: [UInt8], personal: Bool = false, audienceBound: Bool = false, maxAge: Int? = nil, digest: String? = nil
    ) {
        self.init(
            parts: [ByteBuffer(bytes: json)], shared: 0, personal: personal, audienceBound: audienceBound,
            maxAge: maxAge, digest: digest ?? sha256Hex(json))
    }

    /// A body written as `parts` in order, of which `shared` bytes are held by another cache too (the group fragments
    /// a manifest is made of): one cached body per audience then costs its own bytes, not a copy of every group.
    package convenience init(parts: [ByteBuffer], shared: Int, personal: Bool = false, maxAge: Int? = nil) {
        let joined = Self.joined(parts)
        self.init(
            parts: parts, shared: shared, personal: personal, audienceBound: false, maxAge: maxAge,
            digest: sha256Hex(joined))
    }

    private init(parts: [ByteBuffer], shared: Int, personal: Bool, audienceBound: Bool, maxAge: Int?, digest: String) {
        (self.parts, self.shared) = (parts, shared)
        cacheControl = (audienceBound ? "private, " : "") + (maxAge.map { "max-age=\($0)" } ?? "no-cache")
        self.digest = String(digest.prefix(32))
        let length = parts.reduce(0) { $0 + $1.readableBytes }
        compressible = length >= 256
        let vary = [compressible ? "Accept-Encoding" : nil, personal ? "Authorization" : nil].compactMap { $0 }.joined(
            separator: ", ")
        self.vary = vary.isEmpty ? nil : vary
        identity = Representation(
            bytes: parts.first ?? ByteBuffer(), parts: parts, etag: "\"\(self.digest)\"", coding: .identity,
            vary: self.vary, cacheControl: cacheControl)
    }

    /// The bytes of `parts` in one array.
    private static func joined(_ parts: [ByteBuffer]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.readableBytes })
        for part in parts { bytes.append(contentsOf: part.readableBytesView) }
        return bytes
    }

    /// The coding the client prefers among those offered, its representation when made already, and whether this
    /// request is the one after which it is worth compressing at the best level.
    package func select(
        _ acceptEncoding: String?
    ) -> (coding: ContentCoding, representation: Representation?, upgrade: Bool) {
        guard compressible, acceptEncoding != nil else { return (.identity, identity, false) }
        let coding = AcceptEncoding.preferred(acceptEncoding, offered: [.brotli, .gzip])
        guard coding != .identity else { return (.identity, identity, false) }
        guard let entry = encoded.withLock({ $0[coding] }) else { return (coding, nil, false) }
        guard entry.level == .fast else { return (coding, entry.representation, false) }
        let hits =
            coding == .brotli
            ? brotliHits.add(1, ordering: .relaxed).newValue : gzipHits.add(1, ordering: .relaxed).newValue
        return (coding, entry.representation, hits == Self.upgradeAfterHits)
    }

    /// Compresses into `coding` (blocking: call it on a worker thread) and keeps the result unless one as good is
    /// kept already; the representation to serve. A result no smaller than the JSON is kept as the JSON itself.
    package func compress(_ coding: ContentCoding, _ requested: CompressionLevel? = nil) -> Representation {
        let json = Self.joined(parts)
        let level = requested ?? (json.count < Self.bestAtOnceBelow ? .best : .fast)
        let made: Representation
        if let bytes = Compression.compress(json, coding, level), bytes.count < json.count {
            let etag = "\"\(digest)-\(coding == .brotli ? "br" : "gzip")\(level == .fast ? "-fast" : "")\""
            made = Representation(
                bytes: ByteBuffer(bytes: bytes), etag: etag, coding: coding, vary: vary, cacheControl: cacheControl)
        } else {
            made = identity
        }
        return encoded.withLock { encoded in
            if let kept = encoded[coding], kept.level == .best || level == .fast { return kept.representation }
            encoded[coding] = Encoded(representation: made, level: made.etag == identity.etag ? .best : level)
            return made
        }
    }

    /// Memory the body takes in a cache, compressed representations included, and bytes another cache holds left out.
    package var cost: Int {
        encoded.withLock { encoded in
            [encoded.brotli, encoded.gzip].compactMap { $0 }.reduce(
                identity.length - shared + parts.count * 16 + 512
            ) { total, entry in
                entry.representation.etag == identity.etag ? total : total + entry.representation.bytes.readableBytes
            }
        }
    }

}

extension HTTPField.Name {
    /// RFC 9211: how a cache handled the request.
    package static let cacheStatus = Self("Cache-Status")!
}
