import CTurboJPEG

extension JPEGFile {
    /// Decodes the picture with libjpeg-turbo (any warning, such as data cut short, refuses it; progressive files past
    /// 500 scans are refused), turns it upright by its EXIF orientation and, with `sRGB`, converts an embedded RGB ICC
    /// profile to sRGB. CMYK (and YCCK) becomes RGB by the plain formula every browser and Pillow use without a
    /// profile, reading Adobe's inverted samples as Photoshop writes them. The picture is opaque.
    public func decode(maxPixels: Int, sRGB: Bool = false) throws(StickerRejection) -> RGBAImage {
        guard storedWidth * storedHeight <= maxPixels else {
            throw .corrupt("the image claims \(storedWidth) x \(storedHeight) pixels")
        }
        let cmyk = components == 4
        var pixels = [UInt8](repeating: 0, count: storedWidth * storedHeight * 4)
        let failure = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                Self.turbo(source, into: target, width: storedWidth, height: storedHeight, cmyk: cmyk)
            }
        }
        if let failure { throw .corrupt("libjpeg-turbo cannot decode it: \(failure)") }
        if cmyk { Self.rgb(fromCMYK: &pixels, inverted: adobe) }
        var image = orientation.upright(RGBAImage(width: storedWidth, height: storedHeight, pixels: pixels))
        if sRGB, let conversion = profile.flatMap(SRGBConversion.init(profile:)) { image = conversion.apply(image) }
        return image
    }

    /// Decodes `source` into `target` as RGBA, or CMYK for four components; libjpeg-turbo's message on failure.
    private static func turbo(
        _ source: UnsafeBufferPointer<UInt8>, into target: UnsafeMutableBufferPointer<UInt8>, width: Int, height: Int,
        cmyk: Bool
    ) -> String? {
        guard let handle = tjInitDecompress() else { return "it did not start" }
        defer { tjDestroy(handle) }
        var (w, h, subsampling, colourspace): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        let base = source.baseAddress
        guard tjDecompressHeader3(handle, base, UInt(source.count), &w, &h, &subsampling, &colourspace) == 0 else {
            return String(cString: tjGetErrorStr2(handle))
        }
        guard (Int(w), Int(h)) == (width, height) else { return "its header says \(w) x \(h)" }
        let format = cmyk ? TJPF_CMYK : TJPF_RGBA
        let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
        guard
            tjDecompress2(handle, base, UInt(source.count), target.baseAddress, w, 0, h, Int32(format.rawValue), flags)
                == 0
        else { return String(cString: tjGetErrorStr2(handle)) }
        return nil
    }

    /// CMYK samples (in place, four bytes a pixel) as opaque RGB: R = (255 - C) x (255 - K) / 255, and so on; Adobe's
    /// inverted samples are 255 - C already.
    static func rgb(fromCMYK pixels: inout [UInt8], inverted: Bool) {
        pixels.withUnsafeMutableBufferPointer { p in
            for at in Swift.stride(from: 0, to: p.count, by: 4) {
                let ink = { (value: UInt8) in inverted ? Int(value) : 255 - Int(value) }
                let k = ink(p[at + 3])
                for channel in 0..<3 { p[at + channel] = UInt8((ink(p[at + channel]) * k + 127) / 255) }
                p[at + 3] = 255
            }
        }
    }
}

extension EXIFOrientation {
    /// `image` as stored, turned upright: orientation 6 is turned a quarter clockwise, 8 anticlockwise, 2 and 4
    /// mirrored, 3 half a turn, 5 and 7 mirrored across a diagonal.
    func upright(_ image: RGBAImage) -> RGBAImage {
        guard self != .up else { return image }
        let (w, h) = (image.width, image.height)
        let (outWidth, outHeight) = swapsSides ? (h, w) : (w, h)
        var out = [UInt8](repeating: 0, count: image.pixels.count)
        image.pixels.withUnsafeBytes { source in
            let source = source.bindMemory(to: UInt32.self)
            out.withUnsafeMutableBytes { target in
                let target = target.bindMemory(to: UInt32.self)
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let (sx, sy) =
                            switch self {
                            case .up: (x, y)
                            case .mirrored: (w - 1 - x, y)
                            case .upsideDown: (w - 1 - x, h - 1 - y)
                            case .upsideDownMirrored: (x, h - 1 - y)
                            case .leftMirrored: (y, x)
                            case .right: (y, h - 1 - x)
                            case .rightMirrored: (w - 1 - y, h - 1 - x)
                            case .left: (w - 1 - y, x)
                            }
                        target[y * outWidth + x] = source[sy * w + sx]
                    }
                }
            }
        }
        return RGBAImage(width: outWidth, height: outHeight, pixels: out)
    }
}
