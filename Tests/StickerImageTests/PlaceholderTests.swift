import Testing

@testable import StickerImage

/// The placeholder colour: the still's mean colour weighted by alpha, in linear light, with its mean alpha.
@Suite struct PlaceholderTests {
    /// A `side` x `side` picture whose pixel at (x, y) is `pixel(x, y)`.
    static func picture(side: Int, _ pixel: (Int, Int) -> [UInt8]) -> RGBAImage {
        var pixels: [UInt8] = []
        for y in 0..<side { for x in 0..<side { pixels += pixel(x, y) } }
        return RGBAImage(width: side, height: side, pixels: pixels)
    }

    @Test func blackAndWhiteAverageInLinearLight() {
        let checkers = Self.picture(side: 64) { x, y in (x + y) % 2 == 0 ? [0, 0, 0, 255] : [255, 255, 255, 255] }
        // Half the light is sRGB 188 (0xbc); a mean of sRGB values would say 128 (0x80), darker than the pattern looks.
        #expect(Placeholder.colour(of: checkers) == "#bcbcbcff")
    }

    @Test func transparentPixelsWeighNothingAndLowerTheAlpha() {
        // The left half opaque red, the right half transparent with a hidden green that must not tint it.
        let half = Self.picture(side: 64) { x, _ in x < 32 ? [255, 0, 0, 255] : [0, 255, 0, 0] }
        #expect(Placeholder.colour(of: half) == "#ff000080")
        // A faint pixel counts for its alpha: blue at a quarter beside opaque red is mostly red.
        let faint = RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 64])
        let colour = Placeholder.colour(of: faint)
        #expect(colour.hasPrefix("#") && colour.hasSuffix("a0"), "\(colour)")
        let red = Int(colour.dropFirst().prefix(2), radix: 16) ?? 0
        let blue = Int(colour.dropFirst(5).prefix(2), radix: 16) ?? 0
        #expect(red > blue && blue > 0, "\(colour)")
    }

    @Test func anInvisiblePictureIsTransparent() {
        let clear = Self.picture(side: 8) { _, _ in [200, 100, 50, 0] }
        #expect(Placeholder.colour(of: clear) == "#00000000")
    }

    @Test func aStoredFileGivesTheColourItsUploadGave() throws {
        let art = Self.picture(side: 320) { x, y in
            x < 160 ? [UInt8(x), UInt8(y / 2), 90, 255] : [20, 200, 40, UInt8(255 - y / 2)]
        }
        let file = PNGCodec.encode(art)
        let (info, _) = try StickerValidator().validateRendering(file)
        let placeholder = try #require(info.placeholder)
        #expect(placeholder == Placeholder.colour(of: art))
        #expect(try Placeholder.colour(ofFile: file) == placeholder)
        #expect(Placeholder.isValid(placeholder))
        // Only validated (an image stored already), there is none: the stored one stays.
        #expect(try StickerValidator().validate(file).placeholder == nil)
    }

    @Test func onlyItsOwnFormIsValid() {
        #expect(Placeholder.isValid("#0a1b2c3d"))
        for text in ["#0A1B2C3D", "0a1b2c3d", "#0a1b2c", "#0a1b2c3d4", "#0a1b2c3g", "", "#"] {
            #expect(!Placeholder.isValid(text), "\(text)")
        }
    }
}
