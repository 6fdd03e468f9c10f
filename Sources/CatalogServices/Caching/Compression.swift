import CCompression

/// Compression of response bodies built once and served many times: gzip (zlib) and brotli (Google's libbrotli,
/// Debian's libbrotli-dev), each at a fast level for a body a client is waiting for and at the best level for one
/// that is served often enough to repay it (`CompressionLevel`).
package enum Compression {
    package static func compress(_ input: [UInt8], _ coding: ContentCoding, _ level: CompressionLevel) -> [UInt8]? {
        switch coding {
        case .gzip: gzip(input, level: level == .best ? 9 : 4)
        // Quality 5 is about 20 times faster than 11 and a third larger; a large window pays on bodies of megabytes.
        case .brotli:
            brotli(
                input, quality: level == .best ? BROTLI_MAX_QUALITY : 5,
                window: input.count > 1 << 22 ? 24 : BROTLI_DEFAULT_WINDOW)
        case .identity: input
        }
    }

    package static func gzip(_ input: [UInt8], level: Int32) -> [UInt8]? {
        var stream = z_stream()
        // 15 + 16: a 32 KiB window with a gzip header and trailer.
        guard
            deflateInit2_(
                &stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(input.count))) + 32)
        let status = input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        return Array(output.prefix(Int(stream.total_out)))
    }

    package static func brotli(_ input: [UInt8], quality: Int32, window: Int32) -> [UInt8]? {
        var size = BrotliEncoderMaxCompressedSize(input.count)
        guard size > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: size)
        let ok = input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                BrotliEncoderCompress(
                    quality, window, BROTLI_MODE_TEXT, input.count, input.baseAddress, &size, out.baseAddress)
            }
        }
        return ok == BROTLI_TRUE ? Array(output.prefix(size)) : nil
    }
}

/// How hard a body is compressed.
package enum CompressionLevel: Sendable {
    /// On the request path: brotli quality 5, gzip level 4, milliseconds per megabyte.
    case fast
    /// Off the request path, for bodies served often: brotli quality 11, gzip level 9, a second or more per megabyte.
    case best
}
