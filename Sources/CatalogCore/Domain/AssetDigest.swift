/// An asset's SHA-256 as four words: parsed from the 64 lowercase hex digits of its URL without allocating, and
/// hashed and compared as integers (a cached asset is looked up on every asset request).
package struct AssetDigest: Hashable, Sendable {
    package let words: (UInt64, UInt64, UInt64, UInt64)

    /// Nil unless `hex` is exactly 64 lowercase hex digits.
    package init?(hex: Substring) {
        guard
            let parsed = hex.utf8.withContiguousStorageIfAvailable(Self.parse)
                ?? Array(hex.utf8).withUnsafeBufferPointer(Self.parse)
        else {
            return nil
        }
        words = parsed
    }

    /// The four words of 64 hex digits, read 16 to a word straight from the bytes.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64, UInt64, UInt64)? {
        guard bytes.count == 64 else { return nil }
        func word(_ start: Int) -> UInt64? {
            var word: UInt64 = 0
            for byte in bytes[start..<start + 16] {
                let nibble: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = byte &- UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = byte &- UInt8(ascii: "a") &+ 10
                default: return nil
                }
                word = word << 4 | UInt64(nibble)
            }
            return word
        }
        guard let a = word(0), let b = word(16), let c = word(32), let d = word(48) else { return nil }
        return (a, b, c, d)
    }

    /// The 64 lowercase hex digits.
    package var hex: String {
        [words.0, words.1, words.2, words.3].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }

    package static func == (a: AssetDigest, b: AssetDigest) -> Bool { a.words == b.words }

    /// One word of the four: a SHA-256's words are already uniform, and equal first words are told apart by `==`. A
    /// snapshot of 100,000 stickers hashes a million digests.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
    }
}
