/// The colour a client paints where a sticker will show before its image arrives, as `#rrggbbaa`: the still
/// picture's mean colour weighted by alpha, and its mean alpha (how much of its box the sticker covers).
///
/// The mean is taken in linear light, as the resampler works (`LinearImage`): an average of sRGB values comes out
/// darker than the picture looks (a black-and-white checkerboard averages to sRGB 128, which the eye reads as darker
/// than the pattern; its mean of light is sRGB 188). A transparent pixel's hidden colour has no weight.
public enum Placeholder {
    /// `#rrggbbaa` of `image` (8-bit sRGB, straight alpha); `#00000000` when every pixel is transparent.
    public static func colour(of image: RGBAImage) -> String {
        let table = LinearLight.toLinear
        var (red, green, blue, alpha): (Double, Double, Double, Double) = (0, 0, 0, 0)
        image.pixels.withUnsafeBufferPointer { bytes in
            var index = 0
            while index + 3 < bytes.count {
                let weight = Double(bytes[index + 3])
                if weight > 0 {
                    red += Double(table[Int(bytes[index])]) * weight
                    green += Double(table[Int(bytes[index + 1])]) * weight
                    blue += Double(table[Int(bytes[index + 2])]) * weight
                    alpha += weight
                }
                index += 4
            }
        }
        let pixels = max(image.width * image.height, 1)
        guard alpha > 0 else { return "#00000000" }
        let meanAlpha = UInt8(min(255, max(1, (alpha / Double(pixels)).rounded())))
        let scale = Double(LinearLight.toSRGB.count - 1)
        let channel = { (sum: Double) in LinearLight.toSRGB[Int(min(1, max(0, sum / alpha)) * scale + 0.5)] }
        return "#" + [channel(red), channel(green), channel(blue), meanAlpha].map(hex).joined()
    }

    /// The colour of a stored sticker, from its file: its still picture (an APNG's default image, an animated WebP's
    /// first frame), for images stored before placeholders were made at upload.
    public static func colour(ofFile bytes: [UInt8], rules: StickerRules = StickerRules()) throws -> String {
        var still: RGBAImage?
        try StickerSource(bytes, rules: rules).play(
            rules: rules, still: { still = still ?? $0 }, canvas: { _, _, _ in })
        guard let still else { throw PNGWriter.Failure(message: "the image did not decode") }
        return colour(of: still)
    }

    /// Whether `text` is a placeholder as this type writes them: `#` and eight lowercase hex digits.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 9 && bytes[0] == UInt8(ascii: "#")
            && bytes.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    private static func hex(_ value: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[Int(value >> 4)], digits[Int(value & 15)]], as: UTF8.self)
    }
}
