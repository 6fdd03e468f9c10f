import CWebP

/// An animated WebP's canvases one at a time, as shown (libwebp's animation decoder blends and disposes), for a
/// reader that cannot take them all at once.
final class WebPAnimationReader {
    private let data: UnsafeMutableBufferPointer<UInt8>
    private var webpData: WebPData
    private let decoder: OpaquePointer
    let width: Int
    let height: Int

    init(_ bytes: [UInt8]) throws(StickerRejection) {
        data = .allocate(capacity: bytes.count)
        _ = data.initialize(from: bytes)
        webpData = WebPData(bytes: UnsafePointer(data.baseAddress), size: data.count)
        var options = WebPAnimDecoderOptions()
        _ = WebPAnimDecoderOptionsInit(&options)
        options.color_mode = MODE_RGBA
        var info = WebPAnimInfo()
        guard let decoder = WebPAnimDecoderNew(&webpData, &options) else {
            data.deallocate()
            throw .corrupt("libwebp cannot read the animation")
        }
        guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else {
            WebPAnimDecoderDelete(decoder)
            data.deallocate()
            throw .corrupt("libwebp cannot read the animation")
        }
        (self.decoder, width, height) = (decoder, Int(info.canvas_width), Int(info.canvas_height))
    }

    deinit {
        WebPAnimDecoderDelete(decoder)
        data.deallocate()
    }

    /// The next canvas, nil after the last or when a frame does not decode.
    func next() -> RGBAImage? {
        guard WebPAnimDecoderHasMoreFrames(decoder) != 0 else { return nil }
        var canvas: UnsafeMutablePointer<UInt8>?
        var timestamp: Int32 = 0
        guard WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else { return nil }
        return RGBAImage(
            width: width, height: height, pixels: Array(UnsafeBufferPointer(start: canvas, count: width * height * 4)))
    }
}
