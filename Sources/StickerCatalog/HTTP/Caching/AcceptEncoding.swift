/// The content codings a cached body comes in.
enum ContentCoding: String, Sendable, CaseIterable {
    case brotli = "br"
    case gzip
    case identity
}

/// `Accept-Encoding` (RFC 9110 12.5.3): the best coding among those offered, by the client's q-values; on a tie
/// brotli before gzip before identity. Identity is acceptable unless the header refuses it, and is answered anyway
/// when nothing else is acceptable.
enum AcceptEncoding {
    static func preferred(_ header: String?, offered: [ContentCoding]) -> ContentCoding {
        guard let header, !header.isEmpty else { return .identity }
        var weights: [String: Double] = [:]
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";")
            let name = parts.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "q" {
                    weight = Double(pair[1].trimmingCharacters(in: .whitespaces)).map { min(max($0, 0), 1) } ?? 0
                }
            }
            if !name.isEmpty, weights[name] == nil { weights[name] = weight }
        }
        let wildcard = weights["*"]
        // Identity is acceptable unless refused, but not preferred over a coding the client asked for.
        func weight(_ coding: ContentCoding) -> Double {
            weights[coding.rawValue] ?? (coding == .identity ? (wildcard == 0 ? 0 : 0.001) : wildcard ?? 0)
        }
        let best = (offered + [.identity]).max { weight($0) < weight($1) } ?? .identity
        return weight(best) > 0 ? best : .identity
    }
}
