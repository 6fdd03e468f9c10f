/// The APNG animation layer (acTL, fcTL, fdAT), which libpng 1.6 skips: checked here against the APNG specification.
public struct Animation: Sendable, Equatable {
    public struct Frame: Sendable, Equatable {
        public let width: Int
        public let height: Int
        public let x: Int
        public let y: Int
        public let delayMs: Double
        /// The delay as written: numerator and denominator (0 already read as 100).
        public let delayNumerator: UInt16
        public let delayDenominator: UInt16
        /// What happens to the frame's region after it is shown: 0 nothing, 1 cleared, 2 restored to before it.
        public let dispose: UInt8
        /// 0 replaces the region, 1 draws the frame over it.
        public let blend: UInt8
        /// The default image (IDAT) is this frame; otherwise its data is in fdAT chunks.
        public let isDefaultImage: Bool
        /// The frame's zlib stream: fdAT data after each sequence number.
        var data: [Range<Int>]
    }

    public let frames: [Frame]
    /// How many times the animation plays; 0 is forever.
    public let loops: Int

    /// One loop's play time in milliseconds.
    public var durationMs: Int { Int(frames.reduce(0) { $0 + $1.delayMs }.rounded()) }
}

/// Reads the APNG chunks in file order and enforces sequence numbers, frame bounds and counts.
struct AnimationReader {
    let header: PNGHeader
    var control: (frames: Int, loops: Int)?
    var sawAnimationChunk = false
    var nextSequence = 0
    var frames: [Animation.Frame] = []

    mutating func accept(_ chunk: PNGChunk, bytes: [UInt8], afterImageData: Bool) throws(StickerRejection) {
        switch chunk.type {
        case "acTL":
            guard control == nil else { throw .invalidAnimation("acTL appears more than once") }
            guard !afterImageData else { throw .invalidAnimation("acTL must come before the first IDAT") }
            guard chunk.length == 8 else { throw .invalidAnimation("acTL must hold 8 bytes") }
            let count = PNGChunkWalker.bigEndian32(bytes, chunk.dataOffset)
            guard count >= 1, count <= 0x7FFF_FFFF else { throw .invalidAnimation("acTL announces \(count) frames") }
            control = (Int(count), Int(PNGChunkWalker.bigEndian32(bytes, chunk.dataOffset + 4)))
        case "fcTL":
            sawAnimationChunk = true
            guard chunk.length == 26 else { throw .invalidAnimation("fcTL must hold 26 bytes") }
            try sequence(bytes, chunk)
            try closeFrame()
            frames.append(try frame(bytes, at: chunk.dataOffset, isDefaultImage: !afterImageData))
        case "fdAT":
            sawAnimationChunk = true
            guard chunk.length >= 4 else { throw .invalidAnimation("fdAT is shorter than its sequence number") }
            try sequence(bytes, chunk)
            guard afterImageData, let last = frames.last, !last.isDefaultImage else {
                throw .invalidAnimation("fdAT must follow the IDAT image and an fcTL of its own")
            }
            frames[frames.count - 1].data.append((chunk.dataOffset + 4)..<(chunk.dataOffset + chunk.length))
        case "IDAT":
            guard frames.count <= 1 else { throw .invalidAnimation("a second fcTL comes before IDAT") }
        default:
            break
        }
    }

    /// The animation, nil for a still PNG; refuses animation chunks without acTL and frame count mismatches.
    func finish() throws(StickerRejection) -> Animation? {
        guard let control else {
            if sawAnimationChunk { throw .invalidAnimation("fcTL or fdAT chunks without an acTL") }
            return nil
        }
        try closeFrame()
        guard frames.count == control.frames else {
            throw .invalidAnimation(
                "acTL announces \(control.frames) frames but the file has \(frames.count) fcTL chunks")
        }
        return Animation(frames: frames, loops: control.loops)
    }

    /// Sequence numbers run 0, 1, 2... over fcTL and fdAT together.
    private mutating func sequence(_ bytes: [UInt8], _ chunk: PNGChunk) throws(StickerRejection) {
        let number = Int(PNGChunkWalker.bigEndian32(bytes, chunk.dataOffset))
        guard number == nextSequence else {
            throw .invalidAnimation("\(chunk.type) has sequence number \(number) where \(nextSequence) was due")
        }
        nextSequence += 1
    }

    /// A frame other than the default image must have image data before the next fcTL.
    private func closeFrame() throws(StickerRejection) {
        if let last = frames.last, !last.isDefaultImage, last.data.isEmpty {
            throw .invalidAnimation("frame \(frames.count - 1) has no fdAT data")
        }
    }

    private func frame(
        _ bytes: [UInt8], at offset: Int, isDefaultImage: Bool
    ) throws(StickerRejection) -> Animation.Frame {
        let value = { (at: Int) in Int(PNGChunkWalker.bigEndian32(bytes, offset + at)) }
        let (width, height, x, y) = (value(4), value(8), value(12), value(16))
        let (numerator, denominator) = (
            PNGChunkWalker.bigEndian16(bytes, offset + 20), PNGChunkWalker.bigEndian16(bytes, offset + 22)
        )
        let (dispose, blend) = (bytes[offset + 24], bytes[offset + 25])
        guard width > 0, height > 0 else {
            throw .invalidAnimation("frame \(frames.count) is empty (\(width) x \(height))")
        }
        guard x + width <= header.width, y + height <= header.height else {
            throw .invalidAnimation(
                "frame \(frames.count) (\(width) x \(height) at \(x),\(y)) lies outside the \(header.width) x \(header.height) canvas"
            )
        }
        guard dispose <= 2 else { throw .invalidAnimation("frame \(frames.count) has dispose_op \(dispose)") }
        guard blend <= 1 else { throw .invalidAnimation("frame \(frames.count) has blend_op \(blend)") }
        if isDefaultImage, x != 0 || y != 0 || width != header.width || height != header.height {
            throw .invalidAnimation("the fcTL before IDAT must cover the whole canvas")
        }
        // A zero denominator means hundredths of a second (APNG specification).
        let delayMs = Double(numerator) * 1000 / Double(denominator == 0 ? 100 : denominator)
        return Animation.Frame(
            width: width, height: height, x: x, y: y, delayMs: delayMs, delayNumerator: UInt16(numerator),
            delayDenominator: UInt16(denominator == 0 ? 100 : denominator), dispose: dispose, blend: blend,
            isDefaultImage: isDefaultImage, data: [])
    }
}
