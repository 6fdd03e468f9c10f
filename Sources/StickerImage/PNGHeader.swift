/// The IHDR chunk, checked against the PNG specification's allowed combinations.
public struct PNGHeader: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let bitDepth: Int
    public let colorType: Int
    public let interlaced: Bool

    /// Parses and checks the 13 bytes of IHDR data.
    init(_ d: ArraySlice<UInt8>) throws(StickerRejection) {
        let b = Array(d)
        guard b.count == 13 else { throw .corrupt("IHDR must be 13 bytes") }
        width = Int(PNGChunkWalker.bigEndian32(b, 0))
        height = Int(PNGChunkWalker.bigEndian32(b, 4))
        (bitDepth, colorType) = (Int(b[8]), Int(b[9]))
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .corrupt("IHDR dimensions \(width) x \(height) are out of the PNG range")
        }
        let depths: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let allowed = depths[colorType] else { throw .corrupt("IHDR colour type \(colorType) does not exist") }
        guard allowed.contains(bitDepth) else {
            throw .corrupt("IHDR bit depth \(bitDepth) is not allowed for colour type \(colorType)")
        }
        guard b[10] == 0, b[11] == 0 else { throw .corrupt("IHDR compression and filter methods must be 0") }
        guard b[12] <= 1 else { throw .corrupt("IHDR interlace method \(b[12]) does not exist") }
        interlaced = b[12] == 1
    }

    /// Samples per pixel (`init` admits only the five colour types).
    var channels: Int {
        switch colorType {
        case 0, 3: 1
        case 4: 2
        case 2: 3
        default: 4
        }
    }

    var hasAlphaChannel: Bool { colorType & 4 != 0 }

    /// Bytes the inflated image data of a `w` x `h` image must hold: filter byte plus packed samples per row,
    /// for each Adam7 pass when interlaced.
    func rawSize(width w: Int, height h: Int) -> Int {
        let rowBytes = { (pixels: Int) in pixels == 0 ? 0 : 1 + (pixels * channels * bitDepth + 7) / 8 }
        guard interlaced else { return h * rowBytes(w) }
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        return passes.reduce(0) { total, pass in
            let columns = (w - pass.0 + pass.2 - 1) / pass.2
            let rows = (h - pass.1 + pass.3 - 1) / pass.3
            return columns > 0 && rows > 0 ? total + rows * rowBytes(columns) : total
        }
    }
}
