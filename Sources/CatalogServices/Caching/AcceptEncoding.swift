/// The content codings a cached body comes in.
package enum ContentCoding: String, Sendable, CaseIterable {
    case brotli = "br"
    case gzip
    case identity
}

/// `Accept-Encoding` (RFC 9110 12.5.3): the best coding among those offered, by the client's q-values; on a tie
/// brotli before gzip before identity; `*` stands for gzip, never brotli. Identity is acceptable unless the header
/// refuses it, but is not preferred over a coding the client asked for; it is answered anyway when nothing else is
/// acceptable.
/// Parsed byte by byte without allocating: it runs on every manifest request.
package enum AcceptEncoding {
    package static func preferred(_ header: String?, offered: [ContentCoding]) -> ContentCoding {
        guard var text = header, !text.isEmpty else { return .identity }
        var weights = Weights()
        text.withUTF8 { bytes in
            var index = 0
            while index < bytes.count {
                // One item: a token, then parameters, up to a comma.
                while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 { index += 1 }
                let start = index
                while index < bytes.count, bytes[index] != 44, bytes[index] != 59, bytes[index] != 32, bytes[index] != 9
                { index += 1 }
                let name = Coding(bytes[start..<index])
                var weight = 1.0
                while index < bytes.count, bytes[index] != 44 {
                    if bytes[index] == 59 {  // ;q=value
                        index += 1
                        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 { index += 1 }
                        if index + 1 < bytes.count, bytes[index] | 0x20 == 113, bytes[index + 1] == 61 {
                            index += 2
                            let valueStart = index
                            while index < bytes.count, bytes[index] != 44, bytes[index] != 59 { index += 1 }
                            weight = quality(bytes[valueStart..<index])
                            continue
                        }
                    }
                    index += 1
                }
                weights.set(name, weight)
                index += 1
            }
        }
        // Identity is acceptable unless refused, but not preferred over a coding the client asked for.
        func weight(_ coding: ContentCoding) -> Double {
            switch coding {
            // Brotli only when named, as nginx does: many HTTP libraries send `*` and can undo gzip but not brotli.
            case .brotli: weights.brotli ?? 0
            case .gzip: weights.gzip ?? weights.wildcard ?? 0
            case .identity: weights.identity ?? (weights.wildcard == 0 ? 0 : 0.001)
            }
        }
        var best = ContentCoding.identity
        for coding in offered where weight(coding) > weight(best) { best = coding }
        return weight(best) > 0 ? best : .identity
    }

    private enum Coding {
        case brotli, gzip, identity, wildcard, other

        package init(_ token: Slice<UnsafeBufferPointer<UInt8>>) {
            func equals(_ name: StaticString) -> Bool {
                token.count == name.utf8CodeUnitCount
                    && zip(token, UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)).allSatisfy
                    { $0 | 0x20 == $1 }
            }
            self =
                token.count == 1 && token.first == 42
                ? .wildcard
                : equals("br")
                    ? .brotli : equals("gzip") || equals("x-gzip") ? .gzip : equals("identity") ? .identity : .other
        }
    }

    private struct Weights {
        package var brotli: Double?
        package var gzip: Double?
        package var identity: Double?
        package var wildcard: Double?

        /// The first mention of a coding counts.
        package mutating func set(_ coding: Coding, _ weight: Double) {
            switch coding {
            case .brotli where brotli == nil: brotli = weight
            case .gzip where gzip == nil: gzip = weight
            case .identity where identity == nil: identity = weight
            case .wildcard where wildcard == nil: wildcard = weight
            default: break
            }
        }
    }

    /// A qvalue: "0", "0.5", "1.000"; anything else counts as 0.
    private static func quality(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Double {
        var value = 0.0
        var scale = 1.0
        var seenDot = false
        var digits = 0
        for byte in text where byte != 32 && byte != 9 {
            if byte == 46, !seenDot {
                seenDot = true
            } else if (48...57).contains(byte) {
                digits += 1
                if seenDot { scale /= 10 }
                value = seenDot ? value + Double(byte - 48) * scale : value * 10 + Double(byte - 48)
            } else {
                return 0
            }
        }
        return digits == 0 ? 0 : min(max(value, 0), 1)
    }
}
