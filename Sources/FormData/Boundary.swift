/// A multipart boundary as RFC 2046 defines it: 1 to 70 characters from its alphabet, not ending in a space.
public struct Boundary: Sendable, Equatable {
    public let value: String
    /// `\r\n--` followed by the boundary: what ends every part body.
    let delimiter: [UInt8]

    /// Checks `value` (already unquoted) against RFC 2046's `boundary` rule.
    public init(_ value: String) throws(FormDataError) {
        let bytes = Array(value.utf8)
        guard (1...70).contains(bytes.count), bytes.last != UInt8(ascii: " "),
            bytes.allSatisfy(Self.isBoundaryCharacter)
        else {
            throw .invalidBoundary
        }
        self.value = value
        self.delimiter = Array("\r\n--".utf8) + bytes
    }

    /// bchars: DIGIT / ALPHA / ' ( ) + _ , - . / : = ? and space.
    static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            true
        default: Array("'()+_,-./:=? ".utf8).contains(byte)
        }
    }
}
