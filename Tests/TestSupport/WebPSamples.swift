import StickerImage

/// WebP files for tests, made with libwebp (`WebPCodec`, `WebPAnimation`), and edited at the RIFF chunk level to lie.
package enum WebPSamples {
    /// A demo sticker as a WebP: lossless, so its pixels are the PNG's.
    package static func still(_ name: String = "Caramel", lossless: Bool = true) -> [UInt8] {
        let image = try! PNGCodec.decode(DemoArt.png(name)!, maxPixels: 1 << 20)
        return try! WebPCodec.encode(image, .init(quality: 90, lossless: lossless))
    }

    /// A `side` x `side` animation of `delays.count` full frames, each a distinct shade with a transparent border,
    /// shown for its delay in milliseconds, playing `loops` times (0: forever).
    package static func animation(side: Int = 408, delays: [Int] = [100, 50, 200, 70, 80], loops: Int = 3) -> [UInt8] {
        let frames = delays.enumerated().map { index, delay in
            WebPAnimation.EncodedFrame(
                data: try! WebPCodec.encode(picture(side: side, shade: index), .init(quality: 90, lossless: true)),
                durationMs: delay)
        }
        return try! WebPAnimation.assemble(width: side, height: side, frames: frames, loops: loops)
    }

    /// A picture of one shade (varying with `shade`) inside a transparent border of a tenth of the side.
    package static func picture(side: Int, shade: Int) -> RGBAImage {
        var pixels = [UInt8](repeating: 0, count: side * side * 4)
        let border = side / 10
        for y in border..<(side - border) {
            for x in border..<(side - border) {
                let i = (y * side + x) * 4
                (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]) = (
                    UInt8(truncatingIfNeeded: 40 + shade * 45), 120, UInt8(x % 256), 255
                )
            }
        }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }

    /// The chunks after the RIFF header: four-character code and payload.
    package static func chunks(_ webp: [UInt8]) -> [(type: String, data: [UInt8])] {
        var chunks: [(String, [UInt8])] = []
        var offset = 12
        while offset + 8 <= webp.count {
            let size =
                Int(webp[offset + 4]) | Int(webp[offset + 5]) << 8 | Int(webp[offset + 6]) << 16 | Int(webp[offset + 7])
                << 24
            chunks.append(
                (
                    String(decoding: webp[offset..<(offset + 4)], as: UTF8.self),
                    Array(webp[(offset + 8)..<min(webp.count, offset + 8 + size)])
                ))
            offset += 8 + size + size % 2
        }
        return chunks
    }

    /// A RIFF WEBP file of `chunks`, with a true RIFF size.
    package static func assemble(_ chunks: [(type: String, data: [UInt8])]) -> [UInt8] {
        var body = Array("WEBP".utf8)
        for chunk in chunks {
            body +=
                Array(chunk.type.utf8) + littleEndian32(chunk.data.count) + chunk.data
                + (chunk.data.count % 2 == 1 ? [0] : [])
        }
        return Array("RIFF".utf8) + littleEndian32(body.count) + body
    }

    package static func littleEndian32(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF)]
    }

    package static func littleEndian24(_ value: Int) -> [UInt8] { Array(littleEndian32(value).prefix(3)) }
}
