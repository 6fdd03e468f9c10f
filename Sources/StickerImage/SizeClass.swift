/// How large a group's stickers display in Messages: every sticker in a group shares one size class.
public enum SizeClass: String, Sendable, Codable, CaseIterable {
    case small
    case medium
    case large

    /// Display size in points (equal to pixels at @1x).
    public var points: Int {
        switch self {
        case .small: 100
        case .medium: 136
        case .large: 206
        }
    }

    /// Pixels per side at a display scale of 1, 2 or 3.
    public func pixels(scale: Int) -> Int { points * scale }
}
