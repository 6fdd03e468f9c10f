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
    /// Whether EXIF or XMP chunks are present (removed from what is stored).
    let hasMetadata: Bool

    public var frameCount: Int { animation?.frames.count ?? 1 }

    /// Checks the container of `bytes`; refuses anything libwebp cannot read completely, trailing bytes, frames
    /// outside the canvas and chunks past `rules`' ancillary bound.
    public init(_ bytes: [UInt8], rules: StickerRules) throws(StickerRejection) {
        let format = ImageFormat(sniffing: bytes)
        guard format == .webp else { throw .unsupportedFormat(format) }
        let riff = Int(bytes[4]) | Int(bytes[5]) << 8 | Int(bytes[6]) << 16 | Int(bytes[7]) << 24
        guard riff + 8 <= bytes.count else {
            throw .corrupt("the RIFF header announces \(riff + 8) bytes but the file holds \(bytes.count): it is truncated")
        }
        guard riff + 8 == bytes.count else { throw .corrupt("\(bytes.count - riff - 8) bytes follow the end of the RIFF container") }
        let read = bytes.withUnsafeBufferPointer { Self.read($0, rules: rules) }
        let parsed = try read.get()
        self.bytes = bytes
        (width, height, hasAlpha, animation, profile, hasMetadata) =
            (parsed.width, parsed.height, parsed.hasAlpha, parsed.animation, parsed.profile, parsed.hasMetadata)
    }

    private struct Parsed {
        var width = 0, height = 0, hasAlpha = false
        var animation: Animation?
        var profile: [UInt8]?
        var hasMetadata = false
    }

    private static func read(_ buffer: UnsafeBufferPointer<UInt8>, rules: StickerRules) -> Result<Parsed, StickerRejection> {
        var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
        guard let demux = WebPDemux(&data) else { return .failure(.corrupt("libwebp cannot read its chunks: a truncated or malformed WebP")) }
        defer { WebPDemuxDelete(demux) }
        var parsed = Parsed()
        let flags = WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS)
        (parsed.width, parsed.height) = (Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT)))
        let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        guard count >= 1, parsed.width > 0, parsed.height > 0 else { return .failure(.corrupt("the file holds no image")) }
        let animated = flags & ANIMATION_FLAG.rawValue != 0
        parsed.hasMetadata = flags & (EXIF_FLAG.rawValue | XMP_FLAG.rawValue) != 0
        var frames: [Animation.Frame] = []
        var iterator = WebPIterator()
        guard WebPDemuxGetFrame(demux, 1, &iterator) != 0 else { return .failure(.corrupt("the first frame cannot be read")) }
        defer { WebPDemuxReleaseIterator(&iterator) }
        repeat {
            let index = frames.count
            let (x, y, width, height) = (Int(iterator.x_offset), Int(iterator.y_offset), Int(iterator.width), Int(iterator.height))
            guard iterator.complete != 0, width > 0, height > 0 else { return .failure(.corrupt("frame \(index) is incomplete")) }
            guard x + width <= parsed.width, y + height <= parsed.height else {
                return .failure(.invalidAnimation("frame \(index) (\(width) x \(height) at \(x),\(y)) lies outside the \(parsed.width) x \(parsed.height) canvas"))
            }
            guard animated || (width == parsed.width && height == parsed.height) else {
                return .failure(.corrupt("the image is \(width) x \(height) but the canvas \(parsed.width) x \(parsed.height)"))
            }
            parsed.hasAlpha = parsed.hasAlpha || iterator.has_alpha != 0
            let duration = max(0, Int(iterator.duration))
            frames.append(Animation.Frame(width: width, height: height, x: x, y: y, delayMs: Double(duration),
                                          delayNumerator: UInt16(clamping: duration), delayDenominator: 1000,
                                          dispose: iterator.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? 1 : 0,
                                          blend: iterator.blend_method == WEBP_MUX_BLEND ? 1 : 0, isDefaultImage: false, data: []))
        } while WebPDemuxNextFrame(&iterator) != 0
        guard frames.count == count else { return .failure(.invalidAnimation("the file announces \(count) frames but holds \(frames.count)")) }
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
                    return .failure(.corrupt("its ICC profile is \(chunk.chunk.size) bytes; the limit is \(rules.maxAncillaryChunkBytes)"))
                }
                parsed.profile = Array(UnsafeBufferPointer(start: chunk.chunk.bytes, count: chunk.chunk.size))
            }
        }
        return .success(parsed)
    }

    /// The file as stored and served: without its EXIF and XMP chunks, which can say who made it, where and when.
    /// Every other chunk, image data included, is kept as it was.
    public var strippedBytes: [UInt8] {
        guard hasMetadata else { return bytes }
        return bytes.withUnsafeBufferPointer { buffer in
            var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
            guard let mux = WebPMuxCreate(&data, 0) else { return bytes }
            defer { WebPMuxDelete(mux) }
            _ = WebPMuxDeleteChunk(mux, "EXIF")
            _ = WebPMuxDeleteChunk(mux, "XMP ")
            var out = WebPData()
            guard WebPMuxAssemble(mux, &out) == WEBP_MUX_OK else { return bytes }
            defer { WebPDataClear(&out) }
            return Array(UnsafeBufferPointer(start: out.bytes, count: out.size))
        }
    }
}
