extension AnimatedRenditions {
    /// The changed `region` of `picture` as a frame drawn over the one before (blend op "over"): the pixels that did
    /// not change since `previous` made transparent, so they keep what is there and compress to nothing (a GIF draws
    /// its frames this way). Nil when a changed pixel is not opaque, since drawing over cannot make a pixel more
    /// transparent: the frame then replaces its region instead.
    static func over(
        _ picture: RGBAImage, previous: RGBAImage, region: (x: Int, y: Int, width: Int, height: Int)
    ) -> RGBAImage? {
        var out = [UInt8](repeating: 0, count: region.width * region.height * 4)
        let width = picture.width
        let drawable = picture.pixels.withUnsafeBufferPointer { new in
            previous.pixels.withUnsafeBufferPointer { old in
                out.withUnsafeMutableBufferPointer { out in
                    for row in 0..<region.height {
                        for column in 0..<region.width {
                            let at = ((region.y + row) * width + region.x + column) * 4
                            guard
                                new[at] != old[at] || new[at + 1] != old[at + 1] || new[at + 2] != old[at + 2]
                                    || new[at + 3] != old[at + 3]
                            else { continue }
                            guard new[at + 3] == 255 else { return false }
                            let to = (row * region.width + column) * 4
                            for k in 0..<4 { out[to + k] = new[at + k] }
                        }
                    }
                    return true
                }
            }
        }
        return drawable ? RGBAImage(width: region.width, height: region.height, pixels: out) : nil
    }
}

extension FrameLayout {
    /// Transparent black is a colour of the layout: frames can be drawn over the one before.
    var hasTransparent: Bool {
        switch self {
        case .rgba: true
        case .rgb: false
        case .palette(let entries): entries.contains(0)
        }
    }
}

extension WebPCodec {
    /// The file is lossless (VP8L), as the encoder writes one without metadata.
    static func isLossless(_ bytes: [UInt8]) -> Bool {
        bytes.count > 16 && bytes[12..<16].elementsEqual("VP8L".utf8)
    }
}
