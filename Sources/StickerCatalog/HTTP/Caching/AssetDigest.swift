/// An asset's SHA-256 as four words: parsed from the 64 lowercase hex digits of its URL without allocating, and
/// hashed and compared as integers (a cached asset is looked up on every asset request).
struct AssetDigest: Hashable, Sendable {
    let words: (UInt64, UInt64, UInt64, UInt64)

    /// Nil unless `hex` is exactly 64 lowercase hex digits.
    init?(hex: Substring) {
        var parsed: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var count = 0
        for byte in hex.utf8 {
            let nibble: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = UInt64(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = UInt64(byte - UInt8(ascii: "a") + 10)
            default: return nil
            }
            switch count / 16 {
            case 0: parsed.0 = parsed.0 << 4 | nibble
            case 1: parsed.1 = parsed.1 << 4 | nibble
            case 2: parsed.2 = parsed.2 << 4 | nibble
            case 3: parsed.3 = parsed.3 << 4 | nibble
            default: return nil
            }
            count += 1
        }
        guard count == 64 else { return nil }
        words = parsed
    }

    /// The 64 lowercase hex digits.
    var hex: String {
        [words.0, words.1, words.2, words.3].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    static func == (a: AssetDigest, b: AssetDigest) -> Bool { a.words == b.words }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }
}
