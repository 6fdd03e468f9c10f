/// Decides whether bytes are an acceptable sticker, cheapest checks first, pixels last.
public struct StickerValidator: Sendable {
    public let rules: StickerRules

    public init(rules: StickerRules = StickerRules()) {
        self.rules = rules
    }

    /// Validates a whole upload: size, format, chunk structure, dimensions from IHDR, then a full libpng decode.
    public func validate(_ bytes: [UInt8]) throws(StickerRejection) -> StickerImageInfo {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= rules.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: rules.maxBytes) }
        let format = ImageFormat(sniffing: bytes)
        guard format == .png else { throw .unsupportedFormat(format) }
        let chunks = try PNGChunkWalker.chunks(of: bytes).get()
        let ihdr = chunks[0].dataOffset
        let width = Int(PNGChunkWalker.bigEndian32(bytes, ihdr))
        let height = Int(PNGChunkWalker.bigEndian32(bytes, ihdr + 4))
        let colorType = bytes[ihdr + 9]
        // Dimensions come from IHDR so that a hostile header never reaches an allocation.
        guard rules.sideRange.contains(width), rules.sideRange.contains(height) else {
            throw .dimensionsOutOfRange(width: width, height: height, range: rules.sideRange)
        }
        guard chunks.contains(where: { $0.type == "IDAT" }) else { throw .corrupt("the file has no IDAT chunk") }
        let side = rules.sideRange.upperBound
        _ = try PNGCodec.decode(bytes, maxPixels: side * side)
        let actl = chunks.first { $0.type == "acTL" && $0.length == 8 }
        let frames = actl.map { Int(PNGChunkWalker.bigEndian32(bytes, $0.dataOffset)) } ?? 1
        let hasAlpha = colorType & 4 != 0 || chunks.contains { $0.type == "tRNS" }
        return StickerImageInfo(width: width, height: height, animated: actl != nil, frames: frames, hasAlpha: hasAlpha)
    }

    /// Advice for an accepted image that will show in a group of `sizeClass`.
    public func warnings(for info: StickerImageInfo, in sizeClass: SizeClass) -> [StickerWarning] {
        var warnings: [StickerWarning] = []
        if !info.hasAlpha {
            warnings.append(.init(
                code: "no_alpha_channel",
                detail: "The image has no transparency; stickers are laid over message bubbles, so a transparent background is recommended."))
        }
        let expected = sizeClass.pixels(scale: 3)
        if info.width != expected || info.height != expected {
            warnings.append(.init(
                code: "not_size_class_exact",
                detail: "The group is \(sizeClass.rawValue) (\(expected) x \(expected) px at @3x); this \(info.width) x \(info.height) image will be scaled."))
        }
        return warnings
    }
}
