#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The limits of one multipart/form-data body.
public struct FormLimits: Sendable {
    /// Every byte of the body: preamble, delimiters, part headers, part bodies and epilogue.
    public var totalBytes: Int
    /// One file part's body (a part with a filename, or one named in `fileFields`).
    public var fileBytes: Int
    /// One text field's body.
    public var fieldBytes = 8 * 1024
    public var parts = 32
    public var headersPerPart = 8
    /// One part's header section, CRLFs included.
    public var headerBytesPerPart = 4 * 1024
    /// Parts that hold a file even without a filename parameter.
    public var fileFields: Set<String> = ["file"]

    public init(totalBytes: Int, fileBytes: Int) {
        self.totalBytes = totalBytes
        self.fileBytes = fileBytes
    }
}

/// One part of a form: its name, its filename when it is a file, its Content-Type if it has one, and its body.
public struct FormPart: Sendable, Equatable {
    public var name: String
    public var filename: String?
    public var contentType: String?
    public var body: [UInt8]
    public var isFile: Bool

    public init(name: String, filename: String?, contentType: String? = nil, body: [UInt8], isFile: Bool) {
        (self.name, self.filename, self.contentType, self.body, self.isFile) = (
            name, filename, contentType, body, isFile
        )
    }
}

/// Collects a multipart/form-data body (RFC 7578) while it streams in, refusing it the moment it passes its byte
/// budget, then splits it into parts. Memory is bounded by `limits.totalBytes` whatever the client sends.
public struct FormReader: Sendable {
    public let boundary: Boundary
    public let limits: FormLimits
    private(set) var bytes: [UInt8] = []

    public init(boundary: Boundary, limits: FormLimits) {
        self.boundary = boundary
        self.limits = limits
    }

    /// Adds the next piece of the body; throws `tooLarge` as soon as the whole body passes the budget.
    public mutating func append(_ chunk: some Collection<UInt8>) throws(FormDataError) {
        guard chunk.count <= limits.totalBytes - bytes.count else { throw .tooLarge(limit: limits.totalBytes) }
        bytes.append(contentsOf: chunk)
    }

    /// The parts of the complete body, in order.
    public func parts() throws(FormDataError) -> [FormPart] {
        let dashBoundary = Array(boundary.delimiter.dropFirst(2))
        // The first delimiter opens the body or follows a preamble and a CRLF.
        var position: Int
        if bytes.starts(with: dashBoundary) {
            position = dashBoundary.count
        } else if let first = find(boundary.delimiter, from: 0) {
            position = first + boundary.delimiter.count
        } else {
            throw .malformed("the body has no opening delimiter")
        }
        var parts: [FormPart] = []
        while true {
            // the close delimiter
            if starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")], at: position) { return parts }
            while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t")
            { position += 1 }
            guard starts(with: Self.crlf, at: position) else { throw .malformed("a delimiter is not followed by CRLF") }
            position += 2
            guard parts.count < limits.parts else { throw .tooManyParts(limit: limits.parts) }
            let (headers, bodyStart) = try headerSection(from: position)
            guard let end = find(boundary.delimiter, from: bodyStart) else {
                throw .malformed("part \(parts.count + 1) is not closed by a delimiter")
            }
            parts.append(try part(headers: headers, body: bodyStart..<end))
            position = end + boundary.delimiter.count
        }
    }

    /// A part's header lines starting at `start`, and where its body starts.
    private func headerSection(from start: Int) throws(FormDataError) -> ([(String, String)], Int) {
        if starts(with: Self.crlf, at: start) { return ([], start + 2) }
        let window = min(bytes.count, start + limits.headerBytesPerPart)
        guard let end = find(Self.crlf + Self.crlf, from: start, before: window) else {
            throw bytes.count - start > limits.headerBytesPerPart
                ? .tooLarge(limit: limits.headerBytesPerPart)
                : .malformed("a part's headers do not end with an empty line")
        }
        var headers: [(String, String)] = []
        for line in bytes[start..<end].split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            let line = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
                line.first != UInt8(ascii: " "), line.first != UInt8(ascii: "\t")
            else {
                throw .malformed("a part header line is not 'Name: value'")
            }
            guard headers.count < limits.headersPerPart else { throw .tooManyHeaders(limit: limits.headersPerPart) }
            let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingSpaces
            headers.append((name, value))
        }
        return (headers, end + 4)
    }

    /// A part from its headers: Content-Disposition `form-data` with a `name` is required.
    private func part(headers: [(String, String)], body: Range<Int>) throws(FormDataError) -> FormPart {
        guard let disposition = headers.first(where: { $0.0 == "content-disposition" })?.1,
            let parameters = HeaderParameters(disposition, backslashEscapes: false),
            parameters.value.lowercased() == "form-data",
            let name = parameters["name"]
        else {
            throw .malformed("a part has no 'Content-Disposition: form-data; name=...' header")
        }
        let filename = parameters["filename"]
        let isFile = filename != nil || limits.fileFields.contains(name)
        let limit = isFile ? limits.fileBytes : limits.fieldBytes
        guard body.count <= limit else { throw .partTooLarge(name: name, limit: limit) }
        let contentType = headers.first { $0.0 == "content-type" }?.1
        return FormPart(
            name: name, filename: filename, contentType: contentType, body: Array(bytes[body]), isFile: isFile)
    }

    private static let crlf: [UInt8] = [13, 10]

    private func starts(with prefix: [UInt8], at offset: Int) -> Bool {
        offset <= bytes.count - prefix.count && bytes[offset..<(offset + prefix.count)].elementsEqual(prefix)
    }

    /// The offset of `needle` in `bytes[from..<before]`: memchr finds each candidate first byte, memcmp checks it.
    /// At most (body size x delimiter length) byte comparisons, a few milliseconds for the largest body allowed.
    private func find(_ needle: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let end = end ?? bytes.count
        guard let first = needle.first, start <= end, end - start >= needle.count else { return nil }
        return bytes.withUnsafeBytes { hay in
            needle.withUnsafeBytes { needle in
                let base = hay.baseAddress!
                var offset = start
                while offset <= end - needle.count {
                    guard let hit = memchr(base + offset, Int32(first), end - needle.count + 1 - offset) else {
                        return nil
                    }
                    offset = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + offset, needle.baseAddress!, needle.count) == 0 { return offset }
                    offset += 1
                }
                return nil
            }
        }
    }
}

extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        let start = scalars.firstIndex { $0 != " " && $0 != "\t" } ?? scalars.endIndex
        let end = scalars.lastIndex { $0 != " " && $0 != "\t" }.map { scalars.index(after: $0) } ?? start
        return start < end ? String(scalars[start..<end]) : ""
    }
}
