/// `stickerd validate`'s judgement of one file: first as a PNG/APNG or WebP whatever its size, then against the sticker
/// rules.
public struct Verdict: Sendable, Equatable, Encodable {
    public var file: String
    /// The file is a well-formed PNG, APNG or WebP that decodes completely.
    public var valid: Bool
    /// Why it is not valid; nil when it is.
    public var code: String?
    public var detail: String?
    /// "png", "apng", "webp" (still or animated: see `frames`), or nil when the file is none of them.
    public var format: String?
    public var width: Int?
    public var height: Int?
    public var frames: Int?
    /// "ok", or the code of the first sticker rule it breaks (size in bytes, dimensions, frames, play time).
    public var sticker: String

    public init(file: String, valid: Bool, code: String? = nil, detail: String? = nil, sticker: String) {
        (self.file, self.valid, self.code, self.detail, self.sticker) = (file, valid, code, detail, sticker)
    }

    /// Keeps nulls, so every object has the same keys.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(file, forKey: .file)
        try c.encode(valid, forKey: .valid)
        try c.encode(code, forKey: .code)
        try c.encode(detail, forKey: .detail)
        try c.encode(format, forKey: .format)
        try c.encode(width, forKey: .width)
        try c.encode(height, forKey: .height)
        try c.encode(frames, forKey: .frames)
        try c.encode(sticker, forKey: .sticker)
    }

    enum CodingKeys: String, CodingKey { case file, valid, code, detail, format, width, height, frames, sticker }
}

extension StickerValidator {
    /// Largest image `judge` decodes: 64 megapixels (256 MiB of RGBA); larger files are refused, not decoded.
    public static let maxJudgedPixels = 64 * 1024 * 1024

    /// Judges `bytes` as a PNG/APNG or WebP (structure and full decode, any dimensions up to the decoder's cap),
    /// then as a sticker.
    public func judge(_ bytes: [UInt8], file: String) -> Verdict {
        var verdict = Verdict(file: file, valid: false, sticker: "")
        do throws(StickerRejection) {
            guard !bytes.isEmpty else { throw StickerRejection.corrupt("the file is empty") }
            let file = try StickerSource(bytes, rules: rules)
            verdict.format = file.format == .webp ? "webp" : file.animation == nil ? "png" : "apng"
            (verdict.width, verdict.height, verdict.frames) = (file.width, file.height, file.frameCount)
            guard file.width * file.height <= Self.maxJudgedPixels else {
                throw StickerRejection.corrupt(
                    "\(file.width) x \(file.height) is more than \(Self.maxJudgedPixels) pixels, too large to decode")
            }
            try file.decodeAll(maxPixels: Self.maxJudgedPixels, rules: rules)
            verdict.valid = true
            if bytes.count > rules.maxBytes {
                throw StickerRejection.tooLarge(bytes: bytes.count, limit: rules.maxBytes)
            }
            try checkStickerLimits(file)
            verdict.sticker = "ok"
        } catch {
            if verdict.valid {
                verdict.sticker = error.code
            } else {
                (verdict.code, verdict.detail, verdict.sticker) = (error.code, error.detail, error.code)
            }
        }
        return verdict
    }
}
