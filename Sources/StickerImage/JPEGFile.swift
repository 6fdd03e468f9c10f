/// A JPEG whose markers have been walked whole before any pixel is decoded: the frame header (size, components), the
/// EXIF orientation, an ICC profile split over APP2 segments, the Adobe segment CMYK files carry, and the count of
/// scans. `decodeAllFrames` decodes it with libjpeg-turbo. A JPEG has no alpha: its sticker is opaque.
public struct JPEGFile: Sendable {
    public let bytes: [UInt8]
    /// The picture upright: the frame's size, its sides swapped for orientations 5 to 8.
    public var width: Int { orientation.swapsSides ? storedHeight : storedWidth }
    public var height: Int { orientation.swapsSides ? storedWidth : storedHeight }
    public let storedWidth: Int
    public let storedHeight: Int
    public let components: Int
    public let orientation: EXIFOrientation
    /// An Adobe APP14 segment: its CMYK samples are stored inverted, as Photoshop writes them.
    let adobe: Bool
    /// The ICC profile, its APP2 pieces joined in order.
    let profile: [UInt8]?
    /// The segments the stored file keeps, in order, and the scans: from the first to the end-of-image marker.
    let kept: [Range<Int>]
    let scans: Range<Int>

    public var hasAlpha: Bool { false }

    /// The most scans a file may have: libjpeg-turbo's own advice for untrusted progressive JPEGs, each of whose scans
    /// costs a pass over the whole picture.
    static let maxScans = 500

    /// Walks the markers of `bytes`: every segment inside the file, one frame header of a kind libjpeg-turbo decodes,
    /// at most `maxScans` scans, an ICC profile within `rules`' ancillary bound.
    public init(_ bytes: [UInt8], rules: StickerRules) throws(StickerRejection) {
        var reader = JPEGMarkerReader(bytes: bytes, maxProfileBytes: rules.maxAncillaryChunkBytes)
        try reader.read()
        guard let frame = reader.frame else { throw .corrupt("the file has no frame header (SOF)") }
        guard reader.scans > 0 else { throw .corrupt("the file has no scan") }
        self.bytes = bytes
        (storedWidth, storedHeight, components) = (frame.width, frame.height, frame.components)
        orientation = reader.orientation
        (adobe, profile, kept, scans) = (reader.adobe, reader.profile, reader.kept, reader.scanStart..<reader.end)
    }

    /// The file as stored and served: without its EXIF, XMP, IPTC and comment segments, which can say who took it,
    /// where and when; an orientation other than upright is kept in an EXIF segment of its own, so a viewer still
    /// turns the original the right way. The frame and scans are kept byte for byte.
    public var strippedBytes: [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(bytes.count)
        if orientation != .up { out += orientation.exifSegment }
        for range in kept { out += bytes[range] }
        return out + bytes[scans]
    }
}

/// The EXIF orientation (tag 0x0112): how the stored picture must be turned to stand upright.
public enum EXIFOrientation: Int, Sendable, CaseIterable {
    case up = 1
    case mirrored, upsideDown, upsideDownMirrored, leftMirrored, right, rightMirrored, left

    /// Orientations 5 to 8 turn the picture a quarter: its sides swap.
    var swapsSides: Bool { rawValue >= 5 }

    /// The smallest EXIF APP1 segment saying this orientation: a big-endian TIFF header and one IFD of one entry.
    var exifSegment: [UInt8] {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(rawValue), 0, 0,
        ]
        let body = Array("Exif".utf8) + [0, 0] + tiff + [0, 0, 0, 0]
        return [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
    }
}
