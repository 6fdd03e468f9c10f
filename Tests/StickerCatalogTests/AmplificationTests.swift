import CLibPNG
import Foundation
@testable import StickerImage
import Testing

/// Files whose own encoding hides how much their animation amounts to: renditions stay within the sticker rules,
/// encode only what changed, and an animation too big at some size plays as its still there.
@Suite struct AmplificationTests {
    /// A palette APNG of `side` x `side` whose `frames - 1` frames after the first each change one pixel, as the review
    /// built it: every rule passes, and re-encoding each frame as a whole canvas made about 190 MB of renditions.
    static func amplifying(side: Int = 618, frames: Int = 100) -> [UInt8] {
        func deflated(_ raw: [UInt8]) -> [UInt8] {
            var size = compressBound(UInt(raw.count))
            var out = [UInt8](repeating: 0, count: Int(size))
            _ = compress2(&out, &size, raw, UInt(raw.count), 9)
            return Array(out.prefix(Int(size)))
        }
        var raw: [UInt8] = []
        for y in 0..<side { raw.append(0); for x in 0..<side { raw.append(UInt8((x / 40 + y / 40) % 16)) } }
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
            chunks.append(("fcTL", control(2 * frame - 1, width: 1, height: 1, x: frame * 6 % side, y: frame * 5 % side)))
            chunks.append(("fdAT", Samples.bigEndian(UInt32(2 * frame)) + deflated([0, UInt8(frame % 16)])))
        }
        chunks.append(("IEND", []))
        return Samples.assemble(chunks)
    }

    @Test func oneChangedPixelPerFrameStaysSmallAtEverySize() throws {
        // Setup
        let bytes = Self.amplifying()
        let info = try StickerValidator().validate(bytes)
        // Action
        let (_, renditions) = try StickerValidator().validateRendering(bytes)
        // Check: every rendition within the rules; those of each format together a few times the source, not 190 MB.
        let animated = renditions.filter { !$0.still }
        #expect(info.frames == 100 && animated.count == RenditionEdge.all.count * Renditions.formats.count)
        #expect(renditions.allSatisfy { $0.bytes.count <= StickerRules().maxBytes })
        #expect(animated.allSatisfy { $0.frames == 100 })
        for format in Renditions.formats {
            let total = renditions.filter { $0.format == format }.reduce(0) { $0 + $1.bytes.count }
            #expect(total < 40 * bytes.count, "\(format) renditions \(total) bytes for a \(bytes.count)-byte source")
            print("Amplifying APNG: source \(bytes.count) bytes, its \(format) renditions \(total) bytes")
            // The 412 px animation reads as 100 frames of that size, as APNG and as WebP.
            let rendition = try #require(animated.first { $0.edge == 412 && $0.format == format })
            let file = try StickerSource(rendition.bytes, rules: StickerRules())
            #expect(file.frameCount == 100 && file.width == 412 && file.format == format)
        }
    }

    @Test func theChangedRectangleIsExact() {
        let before = APNGWriter.solid(10, 8, 50)
        var after = before
        after.pixels[(3 * 10 + 2) * 4] = 9
        after.pixels[(5 * 10 + 7) * 4 + 3] = 0
        #expect(AnimatedRenditions.changed(from: before, to: before) == nil)
        let region = AnimatedRenditions.changed(from: before, to: after)
        #expect(region?.x == 2 && region?.y == 3 && region?.width == 6 && region?.height == 3)
    }

    @Test func anAnimationTooBigAtASizePlaysAtAFrameRateThatFits() throws {
        // Setup: the demo's 618 px, 30-frame sliding lollipop, whose every frame changes a large region.
        let bytes = try #require(DemoArt.animation("Lollipop"))
        // Action
        let (info, renditions) = try StickerValidator().validateRendering(bytes)
        // Check: every rendition within the limit; each animated one plays as long as the source, with fewer frames
        // where all of them would not fit, and every one reads as a well-formed APNG or animated WebP.
        for rendition in renditions where !rendition.still {
            #expect(rendition.bytes.count <= StickerRules().maxBytes, "\(rendition.edge): \(rendition.bytes.count) bytes")
            let file = try StickerSource(rendition.bytes, rules: StickerRules())
            #expect(file.frameCount == rendition.frames && rendition.frames > 1, "\(rendition.edge)")
            #expect(abs((file.animation?.durationMs ?? 0) - info.durationMs) <= 30, "\(rendition.edge)")
        }
        #expect(renditions.contains { !$0.still && $0.frames < info.frames }, "some size needed fewer frames")
    }
}
