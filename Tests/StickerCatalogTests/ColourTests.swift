import CLibPNG
import Foundation
@testable import StickerImage
import Testing

/// Colour as libpng reads it: 16-bit files are sRGB like any other, and every frame of an APNG is read in the file's
/// colour space, not just the first.
@Suite struct ColourTests {
    /// A `side` x `side` 16-bit greyscale PNG, every sample `value`, without gAMA or sRGB.
    static func grey16(side: Int, value: UInt16) -> [UInt8] {
        var raw: [UInt8] = []
        for _ in 0..<side { raw.append(0); for _ in 0..<side { raw += [UInt8(value >> 8), UInt8(value & 0xFF)] } }
        var size = compressBound(UInt(raw.count))
        var deflated = [UInt8](repeating: 0, count: Int(size))
        _ = compress2(&deflated, &size, raw, UInt(raw.count), 9)
        let ihdr = Samples.bigEndian(UInt32(side)) + Samples.bigEndian(UInt32(side)) + [16, 0, 0, 0, 0]
        return Samples.assemble([("IHDR", ihdr), ("IDAT", Array(deflated.prefix(Int(size)))), ("IEND", [])])
    }

    @Test func sixteenBitGreyWithoutGammaIsReadAsSRGB() throws {
        // Action
        let image = try PNGCodec.decode(Self.grey16(side: 300, value: 0x8080), maxPixels: 1 << 20)
        // Check: 0x8080 is 128 in eight bits; read as linear light it came out at 186.
        #expect(Array(image.pixels.prefix(4)) == [128, 128, 128, 255])
        #expect(try StickerValidator().validate(Self.grey16(side: 300, value: 0x8080)).width == 300)
    }

    @Test func everyFrameOfAnAPNGIsReadWithTheFilesGamma() throws {
        // Setup: two identical frames, in a file whose gAMA says its samples are linear (gamma 1.0).
        let frame = APNGWriter.solid(300, 300, 128)
        let plain = APNGWriter(frames: [.init(image: frame, delayNumerator: 1, delayDenominator: 10),
                                        .init(image: frame, delayNumerator: 1, delayDenominator: 10)]).bytes
        var chunks = Samples.chunks(plain)
        chunks.insert(("gAMA", Samples.bigEndian(100_000)), at: 1)
        let file = try PNGFile(Samples.assemble(chunks), rules: StickerRules())
        // Action
        var decoded: [RGBAImage] = []
        try file.decodeAllFrames(maxPixels: 1 << 20, rules: StickerRules()) { picture in
            switch picture {
            case .defaultImage(let image): decoded.append(image)
            case .frame(let index, let image) where index > 0: decoded.append(image)
            case .frame: break
            }
        }
        // Check: both converted from linear alike (128 linear is about 188 in sRGB), so the animation does not flicker.
        #expect(decoded.count == 2 && decoded[0] == decoded[1])
        #expect(decoded[0].pixels[0] > 170)
    }
}
