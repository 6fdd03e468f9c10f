import CLibPNG

/// Measures how far a zlib stream inflates without keeping its output, stopping as soon as it passes a limit:
/// the defence against decompression bombs, with constant memory.
enum Inflate {
    enum Outcome: Equatable {
        /// The stream is complete and inflates to this many bytes.
        case complete(Int)
        /// The stream inflates past the limit (the rest was not inflated).
        case overLimit
        /// The stream ends early or its data is corrupt.
        case corrupt(String)
    }

    /// Inflates the concatenation of `segments` of `bytes` (a zlib stream split over chunks).
    static func measure(_ bytes: [UInt8], segments: [Range<Int>], limit: Int) -> Outcome {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return .corrupt("zlib failed to start")
        }
        defer { inflateEnd(&stream) }
        var scratch = [UInt8](repeating: 0, count: 64 * 1024)
        var total = 0
        var ended = false
        return bytes.withUnsafeBufferPointer { input in
            for segment in segments where !segment.isEmpty {
                guard !ended else { return .corrupt("image data continues after the end of its zlib stream") }
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress! + segment.lowerBound)
                stream.avail_in = UInt32(segment.count)
                // zlib fills the scratch buffer as far as it can; a buffer left unfilled with no input left
                // means everything this segment holds has come out.
                var filled: Bool
                repeat {
                    let status = scratch.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        return inflate(&stream, Z_NO_FLUSH)
                    }
                    filled = stream.avail_out == 0
                    total += scratch.count - Int(stream.avail_out)
                    if total > limit { return .overLimit }
                    if status == Z_STREAM_END {
                        ended = true
                        break
                    }
                    if status == Z_BUF_ERROR { break }  // no progress possible until more input comes
                    guard status == Z_OK else {
                        return .corrupt(stream.msg.map { String(cString: $0) } ?? "zlib error \(status)")
                    }
                } while stream.avail_in > 0 || filled
            }
            return ended ? .complete(total) : .corrupt("the zlib stream ends early")
        }
    }
}
