import CWebP

extension WebPFile {
    /// Decodes every frame through libwebp, one canvas at a time, handing each to `each` and keeping none: a still's
    /// picture, or each canvas an animation shows (libwebp's animation decoder blends and disposes the frames). The
    /// canvas is bounded by `maxPixels` and all canvases together by `rules.maxDecodedBytes` before anything is
    /// decoded. With `sRGB`, a file with an ICC profile is converted to sRGB, as renditions need it.
    public func decodeAllFrames(
        maxPixels: Int, rules: StickerRules, sRGB: Bool = false,
        each: (Int, RGBAImage) -> Void = { _, _ in }
    ) throws(StickerRejection) {
        try rules.checkDecodable(width: width, height: height, frames: frameCount, maxPixels: maxPixels)
        let conversion = sRGB ? profile.flatMap(SRGBConversion.init(profile:)) : nil
        let result = withoutActuallyEscaping(each) { each in
            let deliver = { (index: Int, image: RGBAImage) in each(index, conversion?.apply(image) ?? image) }
            return bytes.withUnsafeBufferPointer { buffer in
                animation == nil ? decodeStill(buffer, deliver) : decodeAnimation(buffer, deliver)
            }
        }
        try result.get()
    }

    private func decodeStill(
        _ buffer: UnsafeBufferPointer<UInt8>, _ deliver: (Int, RGBAImage) -> Void
    ) -> Result<Void, StickerRejection> {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let decoded = pixels.withUnsafeMutableBufferPointer { out in
            WebPDecodeRGBAInto(buffer.baseAddress, buffer.count, out.baseAddress, out.count, Int32(width * 4)) != nil
        }
        guard decoded else { return .failure(.corrupt("libwebp cannot decode the image data")) }
        deliver(0, RGBAImage(width: width, height: height, pixels: pixels))
        return .success(())
    }

    private func decodeAnimation(
        _ buffer: UnsafeBufferPointer<UInt8>, _ deliver: (Int, RGBAImage) -> Void
    ) -> Result<Void, StickerRejection> {
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else {
            return .failure(.corrupt("libwebp's animation decoder is unavailable"))
        }
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        var data = WebPData(bytes: buffer.baseAddress, size: buffer.count)
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            return .failure(.corrupt("libwebp cannot read the animation"))
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var index = 0
        while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
            var canvas: UnsafeMutablePointer<UInt8>?
            var timestamp: Int32 = 0
            guard index < frameCount, WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) != 0, let canvas else {
                return .failure(.corrupt("frame \(index) does not decode"))
            }
            deliver(
                index,
                RGBAImage(
                    width: width, height: height,
                    pixels: Array(UnsafeBufferPointer(start: canvas, count: width * height * 4))))
            index += 1
        }
        return index == frameCount ? .success(()) : .failure(.corrupt("only \(index) of \(frameCount) frames decode"))
    }
}
