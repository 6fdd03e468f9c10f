import CLibPNG
import Foundation
import StickerImage

/// Generated images more than one test target uses.
extension Samples {
    /// A `width` x `height` opaque sticker with a gradient, so that resampling has something to do.
    package static func gradient(_ width: Int, _ height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 4
                (pixels[i], pixels[i + 1], pixels[i + 2]) = (
                    UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8((x ^ y) & 0xFF)
                )
            }
        }
        return PNGCodec.encode(RGBAImage(width: width, height: height, pixels: pixels))
    }

    /// An APNG whose frames use every dispose and blend op, with partly transparent pixels.
    package static let everyOpAnimation: [UInt8] = {
        func square(_ side: Int, _ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8) -> RGBAImage {
            RGBAImage(width: side, height: side, pixels: (0..<(side * side)).flatMap { _ in [r, g, b, a] })
        }
        let frames: [APNGEncoder.Frame] = [
            .init(image: square(408, 20, 40, 200, 255), delayNumerator: 1, delayDenominator: 10, dispose: 0, blend: 0),
            .init(
                image: square(200, 255, 0, 0, 128), x: 50, y: 60, delayNumerator: 2, delayDenominator: 10, dispose: 2,
                blend: 1),
            .init(
                image: square(150, 0, 255, 0, 200), x: 100, y: 100, delayNumerator: 3, delayDenominator: 100,
                dispose: 1, blend: 1),
            .init(
                image: square(120, 255, 255, 0, 60), x: 200, y: 150, delayNumerator: 1, delayDenominator: 0, dispose: 0,
                blend: 0),
            .init(
                image: square(300, 255, 0, 255, 90), x: 10, y: 10, delayNumerator: 5, delayDenominator: 100, dispose: 1,
                blend: 1),
        ]
        return try! APNGEncoder.encode(frames: frames, loops: 2)
    }()

    /// A palette APNG of `side` x `side` whose `frames - 1` frames after the first each change one pixel, as the review
    /// built it: every rule passes, and re-encoding each frame as a whole canvas made about 190 MB of renditions.
    package static func amplifying(side: Int = 618, frames: Int = 100) -> [UInt8] {
        func deflated(_ raw: [UInt8]) -> [UInt8] {
            var size = compressBound(UInt(raw.count))
            var out = [UInt8](repeating: 0, count: Int(size))
            _ = compress2(&out, &size, raw, UInt(raw.count), 9)
            return Array(out.prefix(Int(size)))
        }
        var raw: [UInt8] = []
        for y in 0..<side {
            raw.append(0)
            for x in 0..<side { raw.append(UInt8((x / 40 + y / 40) % 16)) }
        }
        var palette: [UInt8] = []
        for index in 0..<16 { palette += [UInt8(index * 16), UInt8(255 - index * 16), UInt8(index * 8)] }
        func control(_ sequence: Int, width: Int, height: Int, x: Int, y: Int) -> [UInt8] {
            let fields: [Int] = [sequence, width, height, x, y]
            let delay: [UInt8] = [0, 1, 0, 100, 0, 0]
            return fields.flatMap { Samples.bigEndian(UInt32($0)) } + delay
        }
        var chunks: [(type: String, data: [UInt8])] = [
            ("IHDR", Samples.bigEndian(UInt32(side)) + Samples.bigEndian(UInt32(side)) + [8, 3, 0, 0, 0]),
            ("PLTE", palette),
            ("acTL", Samples.bigEndian(UInt32(frames)) + Samples.bigEndian(0)),
            ("fcTL", control(0, width: side, height: side, x: 0, y: 0)),
            ("IDAT", deflated(raw)),
        ]
        for frame in 1..<frames {
            chunks.append(
                ("fcTL", control(2 * frame - 1, width: 1, height: 1, x: frame * 6 % side, y: frame * 5 % side)))
            chunks.append(("fdAT", Samples.bigEndian(UInt32(2 * frame)) + deflated([0, UInt8(frame % 16)])))
        }
        chunks.append(("IEND", []))
        return Samples.assemble(chunks)
    }
}
