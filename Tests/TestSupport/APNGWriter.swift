import CLibPNG
import StickerImage

/// APNG files for tests: APNGEncoder's output, optionally made to lie about its frame count or sequence numbers.
package struct APNGWriter {
    package typealias Frame = APNGEncoder.Frame

    package var frames: [Frame]
    package var loops: UInt32 = 0
    /// Overrides acTL's frame count.
    package var announcedFrames: UInt32?
    /// Changes each fcTL/fdAT sequence number.
    package var sequenceMap: ((UInt32) -> UInt32)?

    package var bytes: [UInt8] {
        let valid = try! APNGEncoder.encode(frames: frames, loops: loops)
        guard announcedFrames != nil || sequenceMap != nil else { return valid }
        return Samples.assemble(
            Samples.chunks(valid).map { chunk in
                var data = chunk.data
                if chunk.type == "acTL", let announcedFrames {
                    data.replaceSubrange(0..<4, with: Samples.bigEndian(announcedFrames))
                }
                if chunk.type == "fcTL" || chunk.type == "fdAT", let sequenceMap {
                    let number = UInt32(data[0]) << 24 | UInt32(data[1]) << 16 | UInt32(data[2]) << 8 | UInt32(data[3])
                    data.replaceSubrange(0..<4, with: Samples.bigEndian(sequenceMap(number)))
                }
                return (chunk.type, data)
            })
    }

    /// A plain-coloured opaque RGBA picture.
    package static func solid(_ width: Int, _ height: Int, _ value: UInt8) -> RGBAImage {
        RGBAImage(
            width: width, height: height,
            pixels: (0..<(width * height * 4)).map { $0 % 4 == 3 ? 255 : value &+ UInt8($0 % 3) })
    }

    /// `count` frames of `side` x `side`, cycling through four shades.
    package static func animation(
        side: Int, frames count: Int, delay: UInt16 = 1, denominator: UInt16 = 10
    ) -> APNGWriter {
        let shades = (0..<min(count, 4)).map { solid(side, side, UInt8($0 * 60)) }
        return APNGWriter(
            frames: (0..<count).map {
                Frame(image: shades[$0 % shades.count], delayNumerator: delay, delayDenominator: denominator)
            })
    }

    package init(frames: [Frame], loops: UInt32 = 0, announcedFrames: UInt32? = nil) {
        self.frames = frames
        self.loops = loops
        self.announcedFrames = announcedFrames
    }
}

extension Samples {
    /// A zlib stream of `megabytes` MiB of zeros, deflated a MiB at a time.
    package static func zeros(megabytes: Int) -> [UInt8] {
        var stream = z_stream()
        deflateInit_(&stream, 1, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = [UInt8](repeating: 0, count: 1 << 20)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for index in 0..<megabytes {
            let flush = index == megabytes - 1 ? Z_FINISH : Z_NO_FLUSH
            input.withUnsafeMutableBufferPointer { inBuf in
                stream.next_in = inBuf.baseAddress
                stream.avail_in = UInt32(inBuf.count)
                repeat {
                    buffer.withUnsafeMutableBufferPointer { out in
                        stream.next_out = out.baseAddress
                        stream.avail_out = UInt32(out.count)
                        deflate(&stream, flush)
                        output += out.prefix(out.count - Int(stream.avail_out))
                    }
                } while stream.avail_out == 0 || (flush == Z_FINISH && stream.avail_in > 0)
            }
        }
        return output
    }
}
