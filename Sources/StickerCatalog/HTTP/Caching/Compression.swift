import CCompression

/// One-shot compression of response bodies that are built once and served many times, so the strongest settings
/// are affordable: gzip level 9 (zlib) and brotli quality 11 (Google's libbrotli, Debian's libbrotli-dev).
enum Compression {
    static func gzip(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        // 15 + 16: a 32 KiB window with a gzip header and trailer.
        guard deflateInit2_(&stream, 9, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                             Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
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

    static func brotli(_ input: [UInt8]) -> [UInt8]? {
        var size = BrotliEncoderMaxCompressedSize(input.count)
        guard size > 0 else { return nil }
        var output = [UInt8](repeating: 0, count: size)
        let ok = input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                BrotliEncoderCompress(BROTLI_MAX_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, input.count, input.baseAddress,
                                      &size, out.baseAddress)
            }
        }
        return ok == BROTLI_TRUE ? Array(output.prefix(size)) : nil
    }
}
