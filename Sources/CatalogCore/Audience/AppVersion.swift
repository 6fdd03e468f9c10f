/// An app's version as apps state it: `major[.minor[.patch]]`, each a number up to 999,999; missing parts are 0
/// (`2.3` is `2.3.0`). Pre-release and build suffixes are not taken: an audience compares releases.
package struct AppVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let parts: [Int]

    package init?(_ text: some StringProtocol) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(pieces.count) else { return nil }
        var parts: [Int] = []
        for piece in pieces {
            guard (1...6).contains(piece.utf8.count), piece.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
                let number = Int(piece)
            else { return nil }
            parts.append(number)
        }
        self.parts = parts + Array(repeating: 0, count: 3 - parts.count)
    }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.parts.lexicographicallyPrecedes(rhs.parts) }

    package var description: String { parts.map(String.init).joined(separator: ".") }
}
