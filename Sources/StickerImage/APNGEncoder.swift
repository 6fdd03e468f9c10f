/// Writes APNG files: acTL, fcTL and fdAT by hand around the image data libpng compresses. The default image is the
/// first frame.
public enum APNGEncoder {
    /// A frame as RGBA pixels.
    public struct Frame: Sendable {
        public var image: RGBAImage
        public var x: Int
        public var y: Int
        public var delayNumerator: UInt16
        public var delayDenominator: UInt16
        public var dispose: UInt8
        public var blend: UInt8

        public init(
            image: RGBAImage, x: Int = 0, y: Int = 0, delayNumerator: UInt16 = 1, delayDenominator: UInt16 = 10,
            dispose: UInt8 = 0, blend: UInt8 = 0
        ) {
            (self.image, self.x, self.y, self.delayNumerator, self.delayDenominator) = (
                image, x, y, delayNumerator, delayDenominator
            )
            (self.dispose, self.blend) = (dispose, blend)
        }
    }

    /// A frame already compressed: the zlib stream of its rows (in the animation's `FrameLayout`), as libpng wrote it.
    public struct EncodedFrame: Sendable {
        public var data: [UInt8]
        public var width: Int
        public var height: Int
        public var x = 0
        public var y = 0
        public var delayNumerator: UInt16
        public var delayDenominator: UInt16
        public var dispose: UInt8 = 0
        public var blend: UInt8 = 0

        public init(data: [UInt8], width: Int, height: Int, delayNumerator: UInt16, delayDenominator: UInt16) {
            (self.data, self.width, self.height, self.delayNumerator, self.delayDenominator) = (
                data, width, height, delayNumerator, delayDenominator
            )
        }
    }

    /// An APNG of the first frame's size playing `frames` `loops` times (0: forever). Equal pictures are compressed
    /// once.
    public static func encode(frames: [Frame], loops: UInt32 = 0) throws(PNGWriter.Failure) -> [UInt8] {
        var compressed: [[UInt8]: [UInt8]] = [:]
        var encoded: [EncodedFrame] = []
        for frame in frames {
            let data: [UInt8]
            if let known = compressed[frame.image.pixels] {
                data = known
            } else {
                data = try PNGWriter.imageData(frame.image)
                compressed[frame.image.pixels] = data
            }
            var out = EncodedFrame(
                data: data, width: frame.image.width, height: frame.image.height,
                delayNumerator: frame.delayNumerator, delayDenominator: frame.delayDenominator)
            (out.x, out.y, out.dispose, out.blend) = (frame.x, frame.y, frame.dispose, frame.blend)
            encoded.append(out)
        }
        return assemble(
            width: frames.first?.image.width ?? 1, height: frames.first?.image.height ?? 1, frames: encoded,
            loops: loops)
    }

    /// The APNG file around frames compressed already in `layout`: IHDR (8 bits a sample), PLTE and tRNS for a
    /// palette, acTL, then fcTL and IDAT for the first frame and fcTL and fdAT for the others, sequence numbers from 0,
    /// IEND.
    public static func assemble(
        width: Int, height: Int, frames: [EncodedFrame], loops: UInt32 = 0, layout: FrameLayout = .rgba
    ) -> [UInt8] {
        var out = ImageFormat.pngSignature
        func append(_ type: String, _ data: [UInt8]) { out += PNGChunkWalker.encode(type: type, data: data) }
        append("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, layout.colourType, 0, 0, 0])
        for (type, data) in layout.paletteChunks { append(type, data) }
        append("acTL", bigEndian(UInt32(frames.count)) + bigEndian(loops))
        var sequence: UInt32 = 0
        func next() -> [UInt8] {
            defer { sequence += 1 }
            return bigEndian(sequence)
        }
        for (index, frame) in frames.enumerated() {
            append(
                "fcTL",
                next() + bigEndian(UInt32(frame.width)) + bigEndian(UInt32(frame.height))
                    + bigEndian(UInt32(frame.x)) + bigEndian(UInt32(frame.y))
                    + [
                        UInt8(frame.delayNumerator >> 8), UInt8(frame.delayNumerator & 0xFF),
                        UInt8(frame.delayDenominator >> 8), UInt8(frame.delayDenominator & 0xFF), frame.dispose,
                        frame.blend,
                    ])
            // Large streams are split into chunks of 1 MiB, as libpng does with IDAT.
            var start = 0
            repeat {
                let piece = Array(frame.data[start..<min(frame.data.count, start + (1 << 20))])
                if index == 0 { append("IDAT", piece) } else { append("fdAT", next() + piece) }
                start += 1 << 20
            } while start < frame.data.count
        }
        append("IEND", [])
        return out
    }
}
