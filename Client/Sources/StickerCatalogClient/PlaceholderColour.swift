import StickerCatalogAPI

#if canImport(SwiftUI)
    import SwiftUI
#endif

/// The colour to paint where a sticker will show before its picture arrives (the service's `placeholder`,
/// `#rrggbbaa`: the still picture's mean colour weighted by alpha, and its mean alpha), as sRGB components from 0 to 1.
public struct PlaceholderColour: Sendable, Hashable {
    public let red: Double
    public let green: Double
    public let blue: Double
    public let alpha: Double

    /// Nil unless `text` is `#` and eight hex digits: a malformed colour from a server paints nothing.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 9, bytes[0] == UInt8(ascii: "#") else { return nil }
        var values: [Double] = []
        for index in stride(from: 1, to: 9, by: 2) {
            guard let high = Self.nibble(bytes[index]), let low = Self.nibble(bytes[index + 1]) else { return nil }
            values.append(Double(high << 4 | low) / 255)
        }
        (red, green, blue, alpha) = (values[0], values[1], values[2], values[3])
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension ManifestSticker {
    /// `placeholder`, read; nil when the service sent none (an image stored before placeholders) or a malformed one.
    public var placeholderColour: PlaceholderColour? { placeholder.flatMap(PlaceholderColour.init) }
}

extension SearchResult {
    /// `placeholder`, read; nil when locked, absent or malformed.
    public var placeholderColour: PlaceholderColour? { placeholder.flatMap(PlaceholderColour.init) }
}

#if canImport(SwiftUI)
    extension Color {
        /// The placeholder as a SwiftUI colour, in sRGB: `Rectangle().fill(Color(colour))` behind an image loading.
        public init(_ colour: PlaceholderColour) {
            self.init(.sRGB, red: colour.red, green: colour.green, blue: colour.blue, opacity: colour.alpha)
        }
    }
#endif
