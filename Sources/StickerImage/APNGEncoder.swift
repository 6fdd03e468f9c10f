/// Writes APNG files from RGBA frames; the default image is the first frame.
public enum APNGEncoder {
    public struct Frame: Sendable {
        public var image: RGBAImage
        public var x: Int
        public var y: Int
        public var delayNumerator: UInt16
        public var delayDenominator: UInt16
        public var dispose: UInt8
        public var blend: UInt8

        public init(image: RGBAImage, x: Int = 0, y: Int = 0, delayNumerator: UInt16 = 1, delayDenominator: UInt16 = 10,
                    dispose: UInt8 = 0, blend: UInt8 = 0) {
            (self.image, self.x, self.y, self.delayNumerator, self.delayDenominator) = (image, x, y, delayNumerator, delayDenominator)
            (self.dispose, self.blend) = (dispose, blend)
        }
    }

    /// An APNG of `width` x `height` (the first frame's size) playing `frames` `loops` times (0: forever).
    public static func encode(frames: [Frame], loops: UInt32 = 0) -> [UInt8] {
        let (width, height) = (frames[0].image.width, frames[0].image.height)
        var out = ImageFormat.pngSignature
        func append(_ type: String, _ data: [UInt8]) { out += PNGChunkWalker.encode(type: type, data: data) }
        append("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0])
        append("acTL", bigEndian(UInt32(frames.count)) + bigEndian(loops))
        var sequence: UInt32 = 0
        func next() -> [UInt8] {
            defer { sequence += 1 }
            return bigEndian(sequence)
        }
        // Encoding is the costly part: equal pictures are encoded once.
        var encoded: [[UInt8]: [UInt8]] = [:]
        for (index, frame) in frames.enumerated() {
            append("fcTL", next() + bigEndian(UInt32(frame.image.width)) + bigEndian(UInt32(frame.image.height))
                + bigEndian(UInt32(frame.x)) + bigEndian(UInt32(frame.y))
                + [UInt8(frame.delayNumerator >> 8), UInt8(frame.delayNumerator & 0xFF),
                   UInt8(frame.delayDenominator >> 8), UInt8(frame.delayDenominator & 0xFF), frame.dispose, frame.blend])
            let data = encoded[frame.image.pixels] ?? imageData(frame.image)
            encoded[frame.image.pixels] = data
            if index == 0 { append("IDAT", data) } else { append("fdAT", next() + data) }
        }
        append("IEND", [])
        return out
    }

    /// The zlib stream libpng writes for `image`.
    static func imageData(_ image: RGBAImage) -> [UInt8] {
        let png = PNGCodec.encode(image)
        let chunks = (try? PNGChunkWalker.chunks(of: png).get()) ?? []
        return chunks.filter { $0.type == "IDAT" }.flatMap { png[$0.data] }
    }
}
