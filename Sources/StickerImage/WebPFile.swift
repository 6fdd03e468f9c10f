import CWebP

/// A WebP file, still or animated, whose container libwebp's demuxer has read whole: RIFF size, chunk layout, canvas,
/// every frame inside the canvas. Nothing is decoded yet; `decodeAllFrames` does that.
public struct WebPFile: Sendable {
    public let bytes: [UInt8]
    public let width: Int
    public let height: Int
    public let hasAlpha: Bool
    /// The animation, when the file has an ANIM chunk; its frames' delays are whole milliseconds.
    public let animation: Animation?
    /// The ICCP chunk's profile, when there is one.
    let profile: [UInt8]?
    /// The top-level chunks after the RIFF header: four-character code and where the whole chunk lies (padding
    /// included).
    let chunks: [(type: String, range: Range<Int>)]

    public var frameCount: Int { animation?.frames.count ?? 1 }

    /// Checks the container of `bytes`; refuses anything libwebp cannot read completely, trailing bytes, frames
    /// outside the canvas and chunks past `rules`' ancillary bound.
    public init(_ bytes: [UInt8], rules: StickerRules) throws(StickerRejection) {
        let format = ImageFormat(sniffing: bytes)
        guard format == .webp else { throw .unsupportedFormat(format) }
        let riff = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        guard riff + 8 <= bytes.count else {
            throw .corrupt(
                "the RIFF header announces \(riff + 8) bytes but the file holds \(bytes.count): it is truncated")
        }
        guard riff + 8 == bytes.count else {
            throw .corrupt("\(bytes.count - riff - 8) bytes follow the end of the RIFF container")
        }
        let read = bytes.withUnsafeBufferPointer { Self.read($0, rules: rules) }
        let parsed = try read.get()
        self.bytes = bytes
        (width, height, hasAlpha, animation, profile) = (
            parsed.width, parsed.height, parsed.hasAlpha, parsed.animation, parsed.profile
        )
        chunks = try Self.chunks(bytes)
    }

    /// The top-level chunks, each inside the file (libwebp's demuxer read them already; this walk keeps its own
    /// bounds).
    static func chunks(_ bytes: [UInt8]) throws(StickerRejection) -> [(type: String, range: Range<Int>)] {
        var (chunks, offset) = ([(type: String, range: Range<Int>)](), 12)
        while offset < bytes.count {
            guard offset + 8 <= bytes.count else { throw .corrupt("a chunk header is cut short") }
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16 | Int(
                    bytes[offset + 7]) << 24
            let end = offset + 8 + size + size % 2
            guard end <= bytes.count else { throw .corrupt("a chunk runs past the end of the file") }
            chunks.append((String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self), offset..<end))
            offset = end
        }
        return chunks
    }

    private struct Parsed {
        var width = 0, height = 0, hasAlpha = false
        var animation: Animation?
        var profile: [UInt8]?
    }

    private static func read(
        _ buffer: UnsafeBufferPointer<UInt8>, rules: StickerRules
    ) -> Result<Parsed, StickerRejection> {
        var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
        guard let demux = WebPDemux(&data) else {
            return .failure(.corrupt("libwebp cannot read its chunks: a truncated or malformed WebP"))
        }
        defer { WebPDemuxDelete(demux) }
        var parsed = Parsed()
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        (parsed.width, parsed.height) = (
            Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        )
        let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        guard count >= 1, parsed.width > 0, parsed.height > 0 else {
            return .failure(.corrupt("the file holds no image"))
        }
        let animated = flags & ANIMATION_FLAG.rawValue != 0
        var frames: [Animation.Frame] = []
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &iterator) != 0 else {
            return .failure(.corrupt("the first frame cannot be read"))
        }
        defer { WebPDemuxReleaseIterator(&iterator) }
        repeat {
            let index = frames.count
            let (x, y, width, height) = (
                Int(iterator.x_offset), Int(iterator.y_offset), Int(iterator.width), Int(iterator.height)
            )
            guard iterator.complete != 0, width > 0, height > 0 else {
                return .failure(.corrupt("frame \(index) is incomplete"))
            }
            guard x + width <= parsed.width, y + height <= parsed.height else {
                return .failure(
                    .invalidAnimation(
                        "frame \(index) (\(width) x \(height) at \(x),\(y)) lies outside the \(parsed.width) x \(parsed.height) canvas"
                    ))
            }
            guard animated || (width == parsed.width && height == parsed.height) else {
                return .failure(
                    .corrupt("the image is \(width) x \(height) but the canvas \(parsed.width) x \(parsed.height)"))
            }
            parsed.hasAlpha = parsed.hasAlpha || iterator.has_alpha != 0
            let duration = max(0, Int(iterator.duration))
            frames.append(
                Animation.Frame(
                    width: width, height: height, x: x, y: y, delayMs: Double(duration),
                    delayNumerator: UInt16(clamping: duration), delayDenominator: 1000,
                    dispose: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? 1 : 0,
                    blend: iterator.blend_method == WEBP_MUX_BLEND ? 1 : 0, isDefaultImage: false, data: []))
        } while WebPDemuxNextFrame(&iterator) != 0
        guard frames.count == count else {
            return .failure(.invalidAnimation("the file announces \(count) frames but holds \(frames.count)"))
        }
        if animated {
            parsed.animation = Animation(frames: frames, loops: Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT)))
        } else if count > 1 {
            return .failure(.invalidAnimation("a still WebP holds \(count) frames"))
        }
        if flags & ICCP_FLAG.rawValue != 0 {
            var chunk = WebPChunkIterator()
            defer { WebPDemuxReleaseChunkIterator(&chunk) }
            if WebPDemuxGetChunk(demux, "ICCP", 1, &chunk) != 0 {
                guard chunk.chunk.size <= rules.maxAncillaryChunkBytes else {
                    return .failure(
                        .corrupt(
                            "its ICC profile is \(chunk.chunk.size) bytes; the limit is \(rules.maxAncillaryChunkBytes)"
                        ))
                }
                parsed.profile = Array(UnsafeBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size))
            }
        }
        return .success(parsed)
    }

    /// The file as stored and served: without its EXIF and XMP chunks, which can say who made it, where and when,
    /// whether or not the VP8X header admits to them (its flags for them cleared). Every other chunk, image data
    /// included, is kept byte for byte, so the file decodes to the same pictures.
    public var strippedBytes: [UInt8] {
        let privacy: Set<String> = ["EXIF", "XMP "]
        guard chunks.contains(where: { privacy.contains($0.type) }) else { return bytes }
        var body = Array("WEBP".utf8)
        for chunk in chunks where !privacy.contains(chunk.type) {
            var whole = Array(bytes[chunk.range])
            // VP8X's first byte holds the feature flags: EXIF is 0x08, XMP 0x04.
            if chunk.type == "VP8X", whole.count > 8 { whole[8] &= ~UInt8(0x0C) }
            body += whole
        }
        let size = body.count
        return Array("RIFF".utf8) + [
            UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size >> 16 & 0xFF), UInt8(size >> 24 & 0xFF),
        ] + body
    }
}
