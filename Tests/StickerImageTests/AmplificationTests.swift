import CLibPNG
import Foundation
import TestSupport
import Testing

@testable import StickerImage

/// Files whose own encoding hides how much their animation amounts to: renditions stay within the sticker rules,
/// encode only what changed, and an animation too big at some size plays as its still there.
@Suite struct AmplificationTests {

    @Test func oneChangedPixelPerFrameStaysSmallAtEverySize() throws {
        // Setup
        let bytes = Samples.amplifying()
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
            // The 412 px animation reads as 100 frames of that size (or a larger one that takes fewer bytes), as APNG
            // and as WebP.
            let rendition = try #require(animated.first { $0.edge == 412 && $0.format == format })
            let file = try StickerSource(rendition.bytes, rules: StickerRules())
            #expect(
                file.frameCount == 100 && file.width == rendition.width && file.width >= 412 && file.format == format)
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
        // Setup: the demo's 618 px, 30-frame sliding lollipop, whose every frame changes a large region, and a size
        // limit of 150,000 bytes, which its larger renditions pass with all their frames.
        let bytes = try #require(DemoArt.animation("Lollipop"))
        var rules = StickerRules()
        rules.maxBytes = 150_000
        let info = try StickerValidator().validate(bytes)
        // Action
        let renditions = try Renditions.make(try StickerSource(bytes, rules: rules), stored: bytes, rules: rules)
        // Check: every rendition within the limit; each animated one plays as long as the source, with fewer frames
        // where all of them would not fit, and every one reads as a well-formed APNG or animated WebP.
        for rendition in renditions where !rendition.still {
            guard !rendition.isOriginal else { continue }
            #expect(rendition.bytes.count <= rules.maxBytes, "\(rendition.edge): \(rendition.bytes.count) bytes")
            let file = try StickerSource(rendition.bytes, rules: StickerRules())
            #expect(file.frameCount == rendition.frames && rendition.frames > 1, "\(rendition.edge)")
            #expect(abs((file.animation?.durationMs ?? 0) - info.durationMs) <= 30, "\(rendition.edge)")
        }
        #expect(renditions.contains { !$0.still && $0.frames < info.frames }, "some size needed fewer frames")
    }
}
