import TestSupport
import Testing

@testable import StickerImage

@Suite("Sticker image validation")
struct StickerValidatorTests {
    let validator = StickerValidator()

    @Test("A drawn sticker passes and reports its size and alpha")
    func validSticker() throws {
        let info = try validator.validate(Samples.sticker)
        #expect(info.width == 408 && info.height == 408 && info.hasAlpha)
        #expect(!info.animated && info.frames == 1 && info.durationMs == 0)
        #expect(info.storedBytes == Samples.sticker)
        #expect(validator.warnings(for: info, in: .medium).isEmpty)
    }

    @Test("An opaque sticker passes with a no_alpha_channel warning; a size mismatch warns too")
    func warnings() throws {
        let info = try validator.validate(Samples.opaqueSticker)
        #expect(!info.hasAlpha)
        #expect(validator.warnings(for: info, in: .medium).map(\.code) == ["no_alpha_channel"])
        #expect(
            validator.warnings(for: try validator.validate(Samples.sticker), in: .small).map(\.code) == [
                "not_size_class_exact"
            ])
    }

    @Test(
        "Each refusal has its precise reason",
        arguments: [
            // A JPEG and a GIF header with nothing behind them are read as such, and are damaged.
            (Samples.jpeg, "corrupt_image"),
            (Samples.gif, "corrupt_image"),
            (Samples.bmp, "unsupported_format"),
            (Samples.heic, "unsupported_format"),
            (Array("just some text".utf8), "unsupported_format"),
            (Samples.tiny, "dimensions_out_of_range"),
            (Samples.claiming(width: 100_000, height: 100_000), "dimensions_out_of_range"),
            (Samples.claiming(width: 619, height: 408), "dimensions_out_of_range"),
            (Samples.badCRC, "corrupt_image"),
            (Samples.corruptPixels, "corrupt_image"),
            (Array(Samples.sticker.prefix(Samples.sticker.count - 12)), "corrupt_image"),
            (Array(Samples.sticker.prefix(100)), "corrupt_image"),
            ([UInt8](), "validation_failed"),
        ])
    func refusals(bytes: [UInt8], code: String) {
        let error = #expect(throws: StickerRejection.self) { try validator.validate(bytes) }
        #expect(error?.code == code, "\(error?.detail ?? "")")
    }

    @Test("An APNG's default image passes the same checks, and the sticker is reported as animated")
    func apngDefaultImage() throws {
        let chunks = Samples.chunks(Samples.sticker)
        let actl = (type: "acTL", data: Samples.bigEndian(1) + Samples.bigEndian(0))
        let fctl = (
            type: "fcTL",
            data: Samples.bigEndian(0) + Samples.bigEndian(408) + Samples.bigEndian(408)
                + Samples.bigEndian(0) + Samples.bigEndian(0) + [0, 1, 0, 10, 0, 0]
        )
        let apng = Samples.assemble([chunks[0], actl, fctl] + chunks.dropFirst())
        let info = try validator.validate(apng)
        #expect(info.animated && info.frames == 1 && info.width == 408)
        let broken = Samples.assemble([chunks[0], actl, fctl] + Samples.chunks(Samples.corruptPixels).dropFirst())
        #expect(throws: StickerRejection.self) { try validator.validate(broken) }
    }

    @Test("Files over 500 KiB are refused before they are parsed")
    func tooLarge() {
        let bytes = Samples.sticker + [UInt8](repeating: 0, count: 500 * 1024)
        #expect(throws: StickerRejection.tooLarge(bytes: bytes.count, limit: 512_000)) { try validator.validate(bytes) }
    }

    @Test("The JPEG and GIF refusals name the format")
    func formatNamed() {
        #expect(StickerRejection.unsupportedFormat(ImageFormat(sniffing: Samples.jpeg)).detail.contains("JPEG"))
        #expect(StickerRejection.unsupportedFormat(ImageFormat(sniffing: Samples.gif)).detail.contains("GIF"))
    }

    @Test(
        "PngSuite: broken files are corrupt, small valid ones are out of range",
        .enabled(if: TestData.available, "needs ../shared/testdata (absent here)"))
    func pngSuite() throws {
        let cases = [
            ("pngsuite/xcsn0g01.png", "corrupt_image"), ("pngsuite/xhdn0g08.png", "corrupt_image"),
            ("pngsuite/basn6a08.png", "dimensions_out_of_range"), ("pngsuite/xs1n0g01.png", "unsupported_format"),
        ]
        for (path, code) in cases {
            let bytes = try TestData.png(path)
            let error = #expect(throws: StickerRejection.self, "\(path)") { try validator.validate(bytes) }
            #expect(error?.code == code, "\(path): \(error?.detail ?? "")")
        }
    }
}

@Suite("Demo art")
struct DemoArtTests {
    @Test("All nine candies draw as distinct, valid, transparent 408 x 408 stickers")
    func demoArt() throws {
        var digests = Set<[UInt8]>()
        for name in DemoArt.names {
            let png = try #require(DemoArt.png(name))
            let info = try StickerValidator().validate(png)
            #expect(info.width == 408 && info.height == 408 && info.hasAlpha, "\(name)")
            let pixels = try PNGCodec.decode(png, maxPixels: 408 * 408).pixels
            #expect(pixels[3] == 0, "\(name): the corner is transparent")
            digests.insert(pixels)
        }
        #expect(digests.count == 9)
        #expect(DemoArt.png("Marshmallow") == nil)
    }
}
