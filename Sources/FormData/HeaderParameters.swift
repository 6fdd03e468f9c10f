/// A header value with parameters, such as `multipart/form-data; boundary="xyz"` or
/// `form-data; name="file"; filename="a.png"` (RFC 9110 parameters; quoted strings with backslash escapes).
public struct HeaderParameters: Sendable, Equatable {
    /// The part before the first `;`, trimmed.
    public let value: String
    /// Parameter names are lowercased; the first of repeated names wins.
    public let parameters: [String: String]

    /// Nil when a parameter is not `name=value` or a quoted string is not closed. `backslashEscapes: false` reads a
    /// backslash as itself, as browsers and HTTP libraries write form-data names and filenames (WHATWG's encoding
    /// escapes `"`, CR and LF as %22, %0D, %0A and nothing else: `name="C:\"` is the name `C:\`).
    public init?(_ header: String, backslashEscapes: Bool = true) {
        var scalars = Substring(header).unicodeScalars[...]
        value = String(String.UnicodeScalarView(Self.take(&scalars) { $0 != ";" })).trimmingSpaces
        var parameters: [String: String] = [:]
        while scalars.first == ";" {
            scalars.removeFirst()
            Self.skipSpaces(&scalars)
            if scalars.isEmpty { break }
            let name = String(String.UnicodeScalarView(Self.take(&scalars) { $0 != "=" && $0 != ";" })).trimmingSpaces
                .lowercased()
            guard !name.isEmpty, scalars.first == "=" else { return nil }
            scalars.removeFirst()
            Self.skipSpaces(&scalars)
            var parameter = String.UnicodeScalarView()
            let quoted = scalars.first == "\""
            if quoted {
                scalars.removeFirst()
                var closed = false
                while let scalar = scalars.popFirst() {
                    if scalar == "\"" {
                        closed = true
                        break
                    }
                    if backslashEscapes, scalar == "\\", let escaped = scalars.popFirst() {
                        parameter.append(escaped)
                    } else {
                        parameter.append(scalar)
                    }
                }
                guard closed else { return nil }
                Self.skipSpaces(&scalars)
            } else {
                parameter.append(contentsOf: Self.take(&scalars) { $0 != ";" })
            }
            // A quoted value is kept exactly, spaces included (a boundary may hold spaces, though not at its end).
            if parameters[name] == nil {
                parameters[name] = quoted ? String(parameter) : String(parameter).trimmingSpaces
            }
        }
        guard scalars.isEmpty else { return nil }
        self.parameters = parameters
    }

    public subscript(name: String) -> String? { parameters[name] }

    private static func take(
        _ scalars: inout Substring.UnicodeScalarView.SubSequence, while keep: (Unicode.Scalar) -> Bool
    ) -> Substring.UnicodeScalarView.SubSequence {
        let end = scalars.firstIndex { !keep($0) } ?? scalars.endIndex
        defer { scalars = scalars[end...] }
        return scalars[..<end]
    }

    private static func skipSpaces(_ scalars: inout Substring.UnicodeScalarView.SubSequence) {
        while scalars.first == " " || scalars.first == "\t" { scalars.removeFirst() }
    }
}
