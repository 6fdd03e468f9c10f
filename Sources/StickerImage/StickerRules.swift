/// The limits an uploaded sticker must meet (Apple's Messages rules, BRIEF.md).
public struct StickerRules: Sendable {
    /// Each file under 500 KB.
    public var maxBytes = 500 * 1024
    /// Each side at @3x, from small (300) to large (618).
    public var sideRange = 300...618

    public init() {}
}

/// What the validator learned about an accepted sticker image.
public struct StickerImageInfo: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let animated: Bool
    /// Frames the APNG announces in acTL; 1 for a still image.
    public let frames: Int
    public let hasAlpha: Bool
}

/// Something allowed but unwise about an accepted upload.
public struct StickerWarning: Sendable, Equatable, Codable {
    public let code: String
    public let detail: String

    public init(code: String, detail: String) {
        self.code = code
        self.detail = detail
    }
}
