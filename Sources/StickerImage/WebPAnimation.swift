import CWebP

/// Writes animated WebP files through libwebpmux from frames encoded already: each frame a still WebP of the region
/// it covers, at an even offset (the format stores offsets halved), shown for whole milliseconds.
public enum WebPAnimation {
    /// A frame's picture as a still WebP file, where it goes on the canvas and how long it shows.
    public struct EncodedFrame: Sendable {
        public var data: [UInt8]
        public var x: Int
        public var y: Int
        public var durationMs: Int
        /// Drawn over what is there (true) or replacing its region (false).
        public var blend: Bool

        public init(data: [UInt8], x: Int = 0, y: Int = 0, durationMs: Int, blend: Bool = false) {
            (self.data, self.x, self.y, self.durationMs, self.blend) = (data, x, y, durationMs, blend)
        }
    }

    /// A frame that shows nothing new for `durationMs`: one transparent pixel drawn over the canvas. Keeps the
    /// animation's frame count and timing where the picture does not move.
    public static func unchanged(durationMs: Int) throws(PNGWriter.Failure) -> EncodedFrame {
        let pixel = try WebPCodec.encode(
            RGBAImage(width: 1, height: 1, pixels: [0, 0, 0, 0]), .init(quality: 100, lossless: true))
        return EncodedFrame(data: pixel, durationMs: durationMs, blend: true)
    }

    /// The most times a WebP can say an animation plays (its loop count is 16 bits); an APNG may say more.
    public static let maxLoops = 0xFFFF

    /// The animated WebP of a `width` x `height` canvas (transparent) playing `frames` `loops` times (0: forever; more
    /// than `maxLoops` plays `maxLoops` times, which no one watches to the end).
    public static func assemble(
        width: Int, height: Int, frames: [EncodedFrame], loops: Int
    ) throws(PNGWriter.Failure) -> [UInt8] {
        guard let mux = WebPMuxNew() else { throw PNGWriter.Failure(message: "libwebpmux is unavailable") }
        defer { WebPMuxDelete(mux) }
        guard WebPMuxSetCanvasSize(mux, Int32(width), Int32(height)) == WEBP_MUX_OK,
            WebPMuxSetAnimationParams(
                mux, [WebPMuxAnimParams(bgcolor: 0, loop_count: Int32(min(max(0, loops), maxLoops)))]) == WEBP_MUX_OK
        else {
            throw PNGWriter.Failure(message: "libwebpmux refused the canvas \(width) x \(height)")
        }
        for (index, frame) in frames.enumerated() {
            let status = frame.data.withUnsafeBufferPointer { data in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: data.baseAddress, size: data.count)
                (info.x_offset, info.y_offset) = (Int32(frame.x & ~1), Int32(frame.y & ~1))
                info.duration = Int32(clamping: min(frame.durationMs, 0xFF_FFFF))
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = WEBP_MUX_DISPOSE_NONE
                info.blend_method = frame.blend ? WEBP_MUX_BLEND : WEBP_MUX_NO_BLEND
                return WebPMuxPushFrame(mux, &info, 1)
            }
            guard status == WEBP_MUX_OK else {
                throw PNGWriter.Failure(message: "libwebpmux refused frame \(index) (\(status.rawValue))")
            }
        }
        var out = WebPData()
        guard WebPMuxAssemble(mux, &out) == WEBP_MUX_OK else {
            throw PNGWriter.Failure(message: "libwebpmux could not assemble the animation")
        }
        defer { WebPDataClear(&out) }
        return Array(UnsafeBufferPointer(start: out.bytes, count: out.size))
    }
}
