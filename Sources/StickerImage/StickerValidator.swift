/// Decides whether bytes are an acceptable sticker, cheapest checks first, pixels last.
public struct StickerValidator: Sendable {
    public let rules: StickerRules

    public init(rules: StickerRules = StickerRules()) {
        self.rules = rules
    }

    /// Validates an upload: size, format, the whole structure (a PNG's chunk stream and APNG layer, a WebP's RIFF
    /// container and frames), dimensions from the header, animation limits, then a bounded decode of every frame
    /// (libpng after a bounded inflate, libwebp).
    public func validate(_ bytes: [UInt8]) throws(StickerRejection) -> StickerImageInfo {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= rules.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: rules.maxBytes) }
        let file = try StickerSource(bytes, rules: rules)
        // Dimensions come from the header, so that a hostile one never reaches an allocation.
        try checkStickerLimits(file)
        let side = rules.sideRange.upperBound
        try file.decodeAll(maxPixels: side * side, rules: rules)
        return info(file, stored: file.strippedBytes)
    }

    /// The cheap checks alone (size, format, structure, dimensions and animation limits from the headers), no pixel
    /// decoded: what an upload is refused for first, before its other fields, since a file that is no sticker at all
    /// is the first thing its sender must hear of.
    public func preflight(_ bytes: [UInt8]) throws(StickerRejection) {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= rules.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: rules.maxBytes) }
        try checkStickerLimits(try StickerSource(bytes, rules: rules))
    }

    private func info(_ file: StickerSource, stored: [UInt8]) -> StickerImageInfo {
        StickerImageInfo(
            width: file.width, height: file.height, animated: file.animation != nil, frames: file.frameCount,
            durationMs: file.animation?.durationMs ?? 0, loops: file.animation?.loops ?? 0,
            hasAlpha: file.hasAlpha, format: file.format, storedBytes: stored)
    }

    /// Validates an upload as `validate` does and makes its renditions in the same decoding pass (every frame is
    /// decoded once, for both). Throws `StickerRejection` for a refused image, `PNGWriter.Failure` if encoding fails.
    public func validateRendering(_ bytes: [UInt8]) throws -> (StickerImageInfo, [Rendition]) {
        guard !bytes.isEmpty else { throw StickerRejection.empty }
        guard bytes.count <= rules.maxBytes else {
            throw StickerRejection.tooLarge(bytes: bytes.count, limit: rules.maxBytes)
        }
        let file = try StickerSource(bytes, rules: rules)
        try checkStickerLimits(file)
        let stored = file.strippedBytes
        var placeholder: String?
        let renditions = try Renditions.make(file, stored: stored, rules: rules) {
            placeholder = Placeholder.colour(of: $0)
        }
        var info = info(file, stored: stored)
        info.placeholder = placeholder
        return (info, renditions)
    }

    /// The sticker rules beyond the file format: dimensions, frame count, play time.
    func checkStickerLimits(_ file: StickerSource) throws(StickerRejection) {
        guard rules.sideRange.contains(file.width), rules.sideRange.contains(file.height) else {
            throw .dimensionsOutOfRange(width: file.width, height: file.height, range: rules.sideRange)
        }
        guard file.frameCount <= rules.maxFrames else {
            throw .tooManyFrames("it has \(file.frameCount) frames; a sticker may have at most \(rules.maxFrames)")
        }
        if let duration = file.animation?.durationMs, duration > rules.maxDurationMs {
            throw .animationTooLong(milliseconds: duration, limit: rules.maxDurationMs)
        }
    }

    /// Advice for an accepted image wherever it shows: no transparency (a JPEG never has any).
    public func warnings(for info: StickerImageInfo) -> [StickerWarning] {
        guard !info.hasAlpha else { return [] }
        let detail =
            info.format == .jpeg
            ? "A JPEG has no transparency: this sticker is opaque, a rectangle over message bubbles. A PNG, GIF or WebP with a transparent background sits better."
            : "The image has no transparency; stickers are laid over message bubbles, so a transparent background is recommended."
        return [StickerWarning(code: "no_alpha_channel", detail: detail)]
    }

    /// Advice for an accepted image that will show in a group of `sizeClass`.
    public func warnings(for info: StickerImageInfo, in sizeClass: SizeClass) -> [StickerWarning] {
        var warnings = warnings(for: info)
        let expected = sizeClass.pixels(scale: 3)
        if info.width != expected || info.height != expected {
            warnings.append(
                .init(
                    code: "not_size_class_exact",
                    detail:
                        "The group is \(sizeClass.rawValue) (\(expected) x \(expected) px at @3x); this \(info.width) x \(info.height) image will be scaled."
                ))
        }
        return warnings
    }
}
