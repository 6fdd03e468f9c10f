/// A PNG or APNG file whose whole chunk stream has been checked: order, lengths, CRCs and the APNG layer.
/// Nothing is decoded yet; `decodeAllFrames` does that.
public struct PNGFile: Sendable {
    public let bytes: [UInt8]
    public let header: PNGHeader
    public let chunks: [PNGChunk]
    /// Where the default image's zlib stream lies (the data of each IDAT).
    let imageData: [Range<Int>]
    /// The animation, when the file is an APNG.
    public let animation: Animation?
    let paletteEntries: Int
    let hasTransparencyChunk: Bool

    public var width: Int { header.width }
    public var height: Int { header.height }
    public var hasAlpha: Bool { header.hasAlphaChannel || hasTransparencyChunk }
    public var frameCount: Int { animation?.frames.count ?? 1 }

    /// The critical chunks the PNG specification defines; any other critical chunk is refused.
    static let criticalChunks: Set<String> = ["IHDR", "PLTE", "IDAT", "IEND"]

    /// Checks the chunk stream of `bytes` against the PNG and APNG specifications and `rules`' caps.
    public init(_ bytes: [UInt8], rules: StickerRules) throws(StickerRejection) {
        let format = ImageFormat(sniffing: bytes)
        guard format == .png else { throw .unsupportedFormat(format) }
        let chunks = try PNGChunkWalker.chunks(of: bytes).get()
        guard chunks[0].type == "IHDR" else { throw .corrupt("the first chunk must be IHDR, not \(chunks[0].type)") }
        let header = try PNGHeader(bytes[chunks[0].data])
        var order = ChunkOrder(header: header, rules: rules)
        var animation = AnimationReader(header: header)
        for (index, chunk) in chunks.enumerated() {
            guard chunk.type.utf8.dropFirst(2).first.map({ $0 < 97 }) == true else {
                throw .corrupt("chunk \(chunk.type) has its reserved bit set")
            }
            if chunk.isCritical, !Self.criticalChunks.contains(chunk.type) {
                throw .corrupt("unknown critical chunk \(chunk.type)")
            }
            try order.accept(chunk, index: index, bytes: bytes)
            try animation.accept(chunk, bytes: bytes, afterImageData: order.seenImageData)
        }
        try order.finish()
        self.bytes = bytes
        self.header = header
        self.chunks = chunks
        self.imageData = order.imageData
        self.paletteEntries = order.paletteEntries
        self.hasTransparencyChunk = order.hasTransparency
        self.animation = try animation.finish()
    }
}

/// The ordering rules of the PNG specification, chunk by chunk.
struct ChunkOrder {
    let header: PNGHeader
    let rules: StickerRules
    var seen: [String: Int] = [:]
    var imageData: [Range<Int>] = []
    var seenImageData: Bool { !imageData.isEmpty }
    /// True once a chunk other than IDAT followed the IDATs.
    var imageDataEnded = false
    var paletteEntries = 0
    var hasTransparency = false

    mutating func accept(_ chunk: PNGChunk, index: Int, bytes: [UInt8]) throws(StickerRejection) {
        let count = seen[chunk.type, default: 0]
        seen[chunk.type] = count + 1
        switch chunk.type {
        case "IHDR":
            guard index == 0 else { throw .corrupt("IHDR appears more than once") }
        case "PLTE":
            guard count == 0, !seenImageData else { throw .corrupt("PLTE must appear once, before IDAT") }
            guard header.colorType != 0, header.colorType != 4 else {
                throw .corrupt("a greyscale image cannot have PLTE")
            }
            paletteEntries = chunk.length / 3
            guard chunk.length % 3 == 0, (1...256).contains(paletteEntries),
                header.colorType != 3 || paletteEntries <= 1 << header.bitDepth
            else {
                throw .corrupt(
                    "PLTE holds \(chunk.length) bytes, not 1 to \(header.colorType == 3 ? 1 << header.bitDepth : 256) RGB entries"
                )
            }
        case "IDAT":
            guard !imageDataEnded else { throw .corrupt("IDAT chunks must be consecutive") }
            guard header.colorType != 3 || seen["PLTE"] != nil else {
                throw .corrupt("a palette image needs PLTE before IDAT")
            }
            imageData.append(chunk.data)
        case "IEND":
            guard chunk.length == 0 else { throw .corrupt("IEND must be empty") }
        default:
            if seenImageData { imageDataEnded = true }
            guard !chunk.isCritical else { return }
            guard chunk.type == "fdAT" || chunk.length <= rules.maxAncillaryChunkBytes else {
                throw .corrupt(
                    "ancillary chunk \(chunk.type) is \(chunk.length) bytes; the limit is \(rules.maxAncillaryChunkBytes)"
                )
            }
            try AncillaryRules.check(chunk, bytes: bytes, order: self, repeatCount: count)
            if chunk.type == "tRNS" { hasTransparency = true }
        }
    }

    func finish() throws(StickerRejection) {
        guard seenImageData else { throw .corrupt("the file has no IDAT chunk") }
    }
}
