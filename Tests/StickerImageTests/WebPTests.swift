import Foundation
import TestSupport
import Testing

@testable import StickerImage

/// WebP uploads through the validator, WebP renditions, and the round trips between APNG and animated WebP.
@Suite("WebP: uploads, renditions, round trips")
struct WebPTests {
    let validator = StickerValidator()

    @Test("A still WebP is read, validated and stored without its EXIF and XMP; its renditions come in both formats")
    func still() throws {
        // Setup: a demo sticker as a lossless WebP with metadata that names its author.
        let plain = WebPSamples.still()
        let tagged = WebPSamples.assemble(
            vp8x(WebPSamples.chunks(plain) + [("EXIF", Array("Exif\0\0author=someone".utf8))], flags: 0x08 | 0x10))
        // Action
        let info = try validator.validate(tagged)
        let (_, renditions) = try validator.validateRendering(plain)
        // Check
        #expect(
            info.format == .webp && info.width == 408 && info.height == 408 && !info.animated && info.frames == 1
                && info.hasAlpha)
        #expect(!String(decoding: info.storedBytes, as: UTF8.self).contains("author"), "EXIF is kept")
        #expect(WebPCodec.decode(info.storedBytes) == WebPCodec.decode(plain))
        #expect(renditions.count == Renditions.count(animated: false))
        for rendition in renditions {
            let file = try StickerSource(
                rendition.bytes,
                rules: {
                    var rules = StickerRules()
                    rules.sideRange = 1...618
                    return rules
                }())
            // Fitted in its box, or a larger picture of its format that takes fewer bytes.
            let fitted = RenditionEdge.fitted(width: 408, height: 408, edge: rendition.edge)
            #expect(
                file.format == rendition.format && (file.width, file.height) == (rendition.width, rendition.height)
                    && file.width >= fitted.width, "\(rendition.format) \(rendition.edge)")
            // At its own size, the WebP is the upload itself; the PNG there is made from it, losslessly.
            #expect(rendition.isOriginal == (rendition.format == .webp && rendition.width == 408))
            if rendition.format == .png, rendition.width == 408 {
                #expect(try PNGCodec.decode(rendition.bytes, maxPixels: 1 << 20) == WebPCodec.decode(plain))
            }
        }
    }

    /// `chunks` behind a VP8X chunk with `flags` and the canvas of the image, as a WebP with metadata needs.
    func vp8x(_ chunks: [(type: String, data: [UInt8])], flags: UInt8) -> [(type: String, data: [UInt8])] {
        let image = chunks.first { $0.type == "VP8L" }!.data
        // VP8L: a signature byte, then 14 bits of width - 1 and 14 of height - 1.
        let bits = Int(image[1]) | Int(image[2]) << 8 | Int(image[3]) << 16 | Int(image[4]) << 24
        let (width, height) = ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        return [
            ("VP8X", [flags, 0, 0, 0] + WebPSamples.littleEndian24(width - 1) + WebPSamples.littleEndian24(height - 1))
        ]
            + chunks.filter { $0.type == "VP8L" } + chunks.filter { $0.type != "VP8L" }
    }

    @Test("An animated WebP: frames, delays and loop count are read; its APNG renditions keep them")
    func animatedUpload() throws {
        // Setup
        let delays = [100, 50, 200, 70, 80]
        let webp = WebPSamples.animation(delays: delays, loops: 3)
        // Action
        let (info, renditions) = try validator.validateRendering(webp)
        // Check
        #expect(info.format == .webp && info.animated && info.frames == 5 && info.durationMs == 500 && info.loops == 3)
        let animated = renditions.filter { !$0.still }
        #expect(animated.count == RenditionEdge.all.count * 2)
        for rendition in animated {
            let file = try StickerSource(
                rendition.bytes,
                rules: {
                    var rules = StickerRules()
                    rules.sideRange = 1...618
                    return rules
                }())
            #expect(
                file.format == rendition.format && file.frameCount == 5 && file.animation?.loops == 3,
                "\(rendition.format) \(rendition.edge)")
            #expect(
                file.animation?.frames.map { Int($0.delayMs.rounded()) } == delays,
                "\(rendition.format) \(rendition.edge)")
        }
    }

    @Test(
        "An APNG's animated WebP renditions have its frames, delays and loop count, as Pillow reads both",
        .enabled(if: Pillow.available, "needs Pillow (make test installs it)"))
    func apngRoundTrip() throws {
        // Setup: frames with every dispose and blend op, delays of 100, 200, 30, 10 and 50 ms, two loops.
        let apng = Samples.everyOpAnimation
        // Action
        let renditions = try validator.validateRendering(apng).1.filter { !$0.still }
        // Check: Pillow reads the source and every rendition, APNG and WebP, with the same frames, delays and loops.
        let read = try Pillow.read([apng] + renditions.map(\.bytes))
        let source = read[0]
        #expect(source.frames == 5 && source.durations == [100, 200, 30, 10, 50] && source.loop == 2)
        for (rendition, info) in zip(renditions, read.dropFirst()) {
            #expect(info.format == (rendition.format == .webp ? "WEBP" : "PNG"))
            #expect(
                info.frames == source.frames && info.durations == source.durations && info.loop == source.loop,
                "\(rendition.format) \(rendition.edge): \(info)")
        }
    }

    @Test(
        "The full-size animated WebP shows what apngdis composites from the APNG, frame by frame",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/apngdis"), "needs apngdis"))
    func animatedPictures() async throws {
        let apng = Samples.everyOpAnimation
        let webp = try #require(
            try validator.validateRendering(apng).1.first { !$0.still && $0.format == .webp && $0.edge == 408 })
        let expected = try await blocking { try APNGRenditionTests.apngdis(apng) }
        var shown: [RGBAImage] = []
        try WebPFile(webp.bytes, rules: StickerRules()).decodeAllFrames(maxPixels: 1 << 20, rules: StickerRules()) {
            shown.append($1)
        }
        #expect(shown.count == expected.count)
        for (index, (ours, theirs)) in zip(shown, expected).enumerated() {
            // Lossy colour, lossless alpha: the alpha channel as apngdis blends it (to one level: its rounding of
            // "over" differs from ours, as APNGRenditionTests allows), colour close.
            #expect(
                stride(from: 3, to: ours.pixels.count, by: 4).allSatisfy {
                    abs(Int(ours.pixels[$0]) - Int(theirs.pixels[$0])) <= 1
                },
                "frame \(index) alpha")
            #expect(ours.psnr(theirs) > 30, "frame \(index)")
        }
    }

    @Test(
        "Still WebP renditions keep the PNG renditions' alpha exactly, at every size",
        .enabled(if: Pillow.available, "needs Pillow (make test installs it)"),
        arguments: ["Caramel", "Lollipop", "DarkChocolate"])
    func exactAlpha(name: String) async throws {
        // Each pair at its fitted size (served, a larger picture may stand in for one that takes more bytes).
        let renditions = try await blocking {
            let bytes = DemoArt.png(name)!
            return try Renditions.exact(StickerSource(bytes, rules: StickerRules()), stored: bytes)
        }
        let pairs = try renditions.filter { $0.format == .png }.map { png in
            (png, try #require(renditions.first { $0.format == .webp && $0.edge == png.edge && $0.still == png.still }))
        }
        let differences = try Pillow.alphaDifferences(pairs.map { ($0.0.bytes, $0.1.bytes) })
        #expect(
            differences.count == RenditionEdge.all.count && differences.allSatisfy { $0 == 0 },
            "\(name): \(differences)")
        for (png, webp) in pairs {
            // Colour is lossy and its chroma at half resolution (4:2:0): the red and white swirl of Lollipop at 100 px
            // measured 28.3 dB, cwebp -q 80 the same. A gross error (channels swapped, rows shifted) is under 15 dB.
            let (ours, reference) = (
                try #require(WebPCodec.decode(webp.bytes)), try PNGCodec.decode(png.bytes, maxPixels: 1 << 20)
            )
            #expect(ours.psnr(reference) > 26, "\(name) at \(png.edge)")
        }
    }

    @Test(
        "From a review: EXIF and XMP go whether or not the header admits to them; an APNG playing 70,000 times makes its WebPs"
    )
    func reviewFixes() throws {
        // A VP8X that flags alpha only, and an EXIF chunk after the image: libwebp's demuxer does not report it.
        let plain = WebPSamples.still()
        let hidden = WebPSamples.assemble(
            vp8x(
                WebPSamples.chunks(plain) + [
                    ("EXIF", Array("Exif\0\0gps=somewhere".utf8)), ("XMP ", Array("<x:xmpmeta/>".utf8)),
                ],
                flags: 0x10))
        let info = try validator.validate(hidden)
        #expect(
            !String(decoding: info.storedBytes, as: UTF8.self).contains("gps")
                && !String(decoding: info.storedBytes, as: UTF8.self).contains("xmpmeta"))
        #expect(WebPCodec.decode(info.storedBytes) == WebPCodec.decode(plain))
        let admitted = WebPSamples.assemble(
            vp8x(WebPSamples.chunks(plain) + [("EXIF", Array("Exif\0\0gps=somewhere".utf8))], flags: 0x18))
        let stored = try validator.validate(admitted).storedBytes
        #expect(
            WebPSamples.chunks(stored).first { $0.type == "VP8X" }?.data.first == 0x10,
            "the EXIF flag goes with the chunk")
        // An APNG's play count is 32 bits, a WebP's 16: more plays as many as a WebP can say.
        var writer = APNGWriter.animation(side: 300, frames: 3)
        writer.loops = 70_000
        let renditions = try validator.validateRendering(writer.bytes).1.filter { !$0.still && $0.format == .webp }
        #expect(renditions.count == RenditionEdge.all.count)
        for rendition in renditions {
            let file = try WebPFile(
                rendition.bytes,
                rules: {
                    var rules = StickerRules()
                    rules.sideRange = 1...618
                    return rules
                }())
            #expect(file.animation?.loops == WebPAnimation.maxLoops && file.frameCount == 3)
        }
    }

    @Test(
        "Hostile and broken WebPs are refused with their stable code, before anything large is allocated",
        arguments: HostileWebP.allCases)
    func hostile(_ file: HostileWebP) {
        #expect(throws: StickerRejection.self) { try validator.validate(file.bytes) }
        do {
            _ = try validator.validate(file.bytes)
        } catch {
            #expect(file.codes.contains(error.code), "\(file): \(error.code) \(error.detail)")
        }
    }

    @Test("Random damage to a WebP is refused or read, never a crash")
    func damage() {
        var generator = SystemRandomNumberGenerator()
        let sources = [WebPSamples.still(), WebPSamples.still(lossless: false), WebPSamples.animation(side: 300)]
        for round in 0..<300 {
            var bytes = sources[round % sources.count]
            for _ in 0..<(1 + round % 8) {
                let at = Int.random(in: 12..<bytes.count, using: &generator)
                bytes[at] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 5 == 0 { bytes.removeLast(Int.random(in: 1..<200, using: &generator)) }
            // Every tenth also makes its renditions (the validator decodes every frame either way).
            do {
                _ = round % 10 == 0 ? try validator.validateRendering(bytes).0 : try validator.validate(bytes)
            } catch is StickerRejection {} catch {
                Issue.record("round \(round): \(error)")
            }
        }
    }
}
