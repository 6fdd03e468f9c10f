/// `stickerd validate`'s judgement of one file: the verdict an upload of it gets, from the same validator and the
/// same rules, renditions made and thrown away, nothing stored.
public struct Verdict: Sendable, Equatable, Encodable {
    public var file: String
    /// An upload of the file is accepted.
    public var valid: Bool
    /// Why an upload is refused (the problem's `code` and `detail`); nil when it is accepted.
    public var code: String?
    public var detail: String?
    /// "png", "apng", "webp", "gif" or "jpeg" (animated or still: see `frames`), when the file's structure reads.
    public var format: String?
    public var width: Int?
    public var height: Int?
    public var frames: Int?
    /// What an admin is told about an accepted file (a JPEG is opaque, say); empty when refused.
    public var warnings: [StickerWarning] = []

    public init(file: String, valid: Bool, code: String? = nil, detail: String? = nil) {
        (self.file, self.valid, self.code, self.detail) = (file, valid, code, detail)
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
        try c.encode(warnings, forKey: .warnings)
    }

    enum CodingKeys: String, CodingKey { case file, valid, code, detail, format, width, height, frames, warnings }
}

extension StickerValidator {
    /// Judges `bytes` exactly as an upload is judged (`validateRendering`: size, structure, sticker rules, every frame
    /// decoded, every rendition made within the size limit), so that a file this passes is a file the service takes.
    public func judge(_ bytes: [UInt8], file: String) -> Verdict {
        var verdict = Verdict(file: file, valid: false)
        if let source = try? StickerSource(bytes, rules: rules) {
            verdict.format =
                switch source.format {
                case .png: source.animation == nil ? "png" : "apng"
                default: source.format.rawValue
                }
            (verdict.width, verdict.height, verdict.frames) = (source.width, source.height, source.frameCount)
        }
        do {
            let (info, _) = try validateRendering(bytes)
            verdict.valid = true
            verdict.warnings = warnings(for: info)
        } catch let rejection as StickerRejection {
            (verdict.code, verdict.detail) = (rejection.code, rejection.detail)
        } catch {
            (verdict.code, verdict.detail) = ("rendition_failed", "The renditions could not be made: \(error).")
        }
        return verdict
    }

    /// Largest image `checkFormat` decodes: 64 megapixels (256 MiB of RGBA); larger files are refused, not decoded.
    public static let maxCheckedPixels = 64 * 1024 * 1024

    /// Checks `bytes` as a well-formed image of its format whatever its size or the sticker rules (structure and full
    /// decode of every frame): what the PNG conformance corpus, whose files are 32 px, is judged by.
    public func checkFormat(_ bytes: [UInt8]) throws(StickerRejection) {
        guard !bytes.isEmpty else { throw .corrupt("the file is empty") }
        var relaxed = rules
        relaxed.maxFrames = .max
        let file = try StickerSource(bytes, rules: relaxed)
        guard file.width * file.height <= Self.maxCheckedPixels else {
            throw .corrupt(
                "\(file.width) x \(file.height) is more than \(Self.maxCheckedPixels) pixels, too large to decode")
        }
        try file.decodeAll(maxPixels: Self.maxCheckedPixels, rules: relaxed)
    }
}
