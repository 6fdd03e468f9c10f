/// One pass over a GIF's blocks (GIF89a specification), every length checked against the bytes there are: the header
/// and logical screen, then extensions and images until the trailer.
struct GIFBlockReader {
    let bytes: [UInt8]
    let maxFrames: Int
    var width = 0
    var height = 0
    var images: [GIFFile.Image] = []
    var kept: [Range<Int>] = []
    /// APNG's play count: a NETSCAPE loop value of 0 plays forever (0); N plays once and repeats N times (N + 1);
    /// without the extension the animation plays once (1).
    var loops = 1
    private var offset = 0
    private var globalPalette: Range<Int>?
    /// The Graphic Control Extension for the next image: disposal, delay, transparent index.
    private var control: (disposal: Int, centiseconds: Int, transparent: Int?)?

    init(bytes: [UInt8], maxFrames: Int) {
        (self.bytes, self.maxFrames) = (bytes, maxFrames)
    }

    mutating func read() throws(StickerRejection) {
        guard bytes.count >= 13 else { throw .corrupt("the GIF header is cut short") }
        guard bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) else {
            throw .unsupportedFormat(ImageFormat(sniffing: bytes))
        }
        (width, height) = (little16(6), little16(8))
        offset = 13
        if bytes[10] & 0x80 != 0 { globalPalette = try palette(bits: bytes[10]) }
        kept.append(0..<offset)
        while true {
            guard offset < bytes.count else {
                // A file that ends after a whole frame is missing only its trailer, which browsers forgive.
                guard !images.isEmpty else { throw .corrupt("the file ends before its first image") }
                break
            }
            let start = offset
            let introducer = bytes[offset]
            offset += 1
            switch introducer {
            case 0x21: try extensionBlock(from: start)
            case 0x2C: try image(from: start)
            case 0x3B: break
            default: throw .corrupt("byte \(start) is 0x\(String(introducer, radix: 16)), not a GIF block")
            }
            if introducer == 0x3B { break }
        }
        guard !images.isEmpty else { throw .corrupt("the file holds no image") }
    }

    private mutating func extensionBlock(from start: Int) throws(StickerRejection) {
        guard offset < bytes.count else { throw .corrupt("an extension is cut short") }
        let label = bytes[offset]
        offset += 1
        let blocks = try subBlocks()
        switch label {
        case 0xF9:
            guard let block = blocks.first, block.count == 4 else {
                throw .corrupt("a Graphic Control Extension must hold 4 bytes")
            }
            let packed = bytes[block.lowerBound]
            control = (
                Int(packed >> 2 & 0x07), Int(bytes[block.lowerBound + 1]) | Int(bytes[block.lowerBound + 2]) << 8,
                packed & 0x01 != 0 ? Int(bytes[block.lowerBound + 3]) : nil
            )
            kept.append(start..<offset)
        case 0xFF:
            let name = blocks.first.map { Array(bytes[$0]) } ?? []
            let isLoop = name == Array("NETSCAPE2.0".utf8) || name == Array("ANIMEXTS1.0".utf8)
            if isLoop, blocks.count >= 2, blocks[1].count == 3, bytes[blocks[1].lowerBound] == 1 {
                let value = Int(bytes[blocks[1].lowerBound + 1]) | Int(bytes[blocks[1].lowerBound + 2]) << 8
                loops = value == 0 ? 0 : value + 1
                kept.append(start..<offset)
            }
        default:
            // Comments, plain text (which browsers never draw) and other applications' data are not stored.
            break
        }
    }

    private mutating func image(from start: Int) throws(StickerRejection) {
        guard offset + 9 <= bytes.count else { throw .corrupt("image \(images.count)'s descriptor is cut short") }
        let index = images.count
        guard index < maxFrames else {
            throw .tooManyFrames("it has more than \(maxFrames) frames; a sticker may have at most \(maxFrames)")
        }
        let (x, y, w, h) = (little16(offset), little16(offset + 2), little16(offset + 4), little16(offset + 6))
        let packed = bytes[offset + 8]
        offset += 9
        guard w > 0, h > 0 else { throw .corrupt("frame \(index) is empty (\(w) x \(h))") }
        guard x + w <= width, y + h <= height else {
            throw .invalidAnimation(
                "frame \(index) (\(w) x \(h) at \(x),\(y)) lies outside the \(width) x \(height) screen")
        }
        let local = packed & 0x80 != 0 ? try palette(bits: packed) : nil
        guard let palette = local ?? globalPalette else {
            throw .corrupt("frame \(index) has no colour table, and the file no global one")
        }
        guard offset < bytes.count else { throw .corrupt("frame \(index) is cut short") }
        let codeSize = bytes[offset]
        guard (1...8).contains(codeSize) else {
            throw .corrupt("frame \(index) has an LZW code size of \(codeSize); GIF's are 2 to 8")
        }
        let data = offset
        offset += 1
        let blocks = try subBlocks()
        guard !blocks.isEmpty else { throw .corrupt("frame \(index) has no image data") }
        let control = self.control
        self.control = nil
        images.append(
            GIFFile.Image(
                control: Animation.Frame(
                    gifFrame: x, y: y, width: w, height: h, centiseconds: control?.centiseconds ?? 0,
                    disposal: control?.disposal ?? 0),
                interlaced: packed & 0x40 != 0, palette: palette,
                transparentIndex: control?.transparent, data: data..<offset))
        kept.append(start..<offset)
    }

    /// A colour table of 2^(n+1) RGB triples after the current offset, n the low three bits of `bits`.
    private mutating func palette(bits: UInt8) throws(StickerRejection) -> Range<Int> {
        let size = 3 << (Int(bits & 0x07) + 1)
        guard offset + size <= bytes.count else { throw .corrupt("a colour table is cut short") }
        defer { offset += size }
        return offset..<(offset + size)
    }

    /// The data sub-blocks from the current offset to their zero terminator, each inside the file.
    private mutating func subBlocks() throws(StickerRejection) -> [Range<Int>] {
        var blocks: [Range<Int>] = []
        while true {
            guard offset < bytes.count else { throw .corrupt("a data block runs past the end of the file") }
            let size = Int(bytes[offset])
            offset += 1
            if size == 0 { return blocks }
            guard offset + size <= bytes.count else { throw .corrupt("a data block runs past the end of the file") }
            blocks.append(offset..<(offset + size))
            offset += size
        }
    }

    private func little16(_ at: Int) -> Int { Int(bytes[at]) | Int(bytes[at + 1]) << 8 }
}
