// libFuzzer entry point for the upload path's form reader, compiled together with Sources/FormData by scripts/fuzz.sh.
// The first byte picks how long the boundary is (taken from the next bytes, any bytes), the second how the rest is cut
// into chunks; the rest is the body. Any crash, leak, hang or sanitizer report is a finding; so is a form that
// does not read back the same after being written out again.

@_cdecl("LLVMFuzzerTestOneInput")
public func uploadFuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    let data = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    guard data.count >= 2 else { return 0 }
    let boundaryLength = Int(data[0]) % 80
    let chunkSize = Int(data[1]) + 1
    let rest = data.dropFirst(2)
    let boundaryText = String(decoding: rest.prefix(boundaryLength), as: UTF8.self)
    let body = Array(rest.dropFirst(boundaryLength))
    _ = HeaderParameters("multipart/form-data; boundary=" + boundaryText)
    guard let boundary = try? Boundary(boundaryText) else { return 0 }
    var limits = FormLimits(totalBytes: 64 * 1024, fileBytes: 16 * 1024)
    limits.fieldBytes = 1024
    var reader = FormReader(boundary: boundary, limits: limits)
    var offset = 0
    while offset < body.count {
        guard (try? reader.append(body[offset..<min(body.count, offset + chunkSize)])) != nil else { return 0 }
        offset += chunkSize
    }
    guard let parts = try? reader.parts() else { return 0 }
    precondition(parts.count <= limits.parts)
    // Written out again with the same boundary, the parts read back the same.
    var again = FormReader(boundary: boundary, limits: FormLimits(totalBytes: 1 << 24, fileBytes: 1 << 24))
    try? again.append(encode(parts, boundary: boundaryText))
    guard let reread = try? again.parts() else { return 0 }  // a part body may itself contain the delimiter's prefix
    // Names with a quote, CR or LF cannot be written as they are (browsers percent-encode those three).
    let writable = { (name: String) in !name.unicodeScalars.contains { $0 == "\"" || $0 == "\r" || $0 == "\n" } }
    guard parts.allSatisfy({ writable($0.name) && ($0.filename.map(writable) ?? true) }) else { return 0 }
    precondition(reread.map(\.name) == parts.map(\.name), "names differ after a round trip")
    return 0
}

/// A form with these parts, as browsers write one: names and filenames quoted, a backslash as itself (WHATWG's
/// encoding; the reader reads it so), bodies as they are.
func encode(_ parts: [FormPart], boundary: String) -> [UInt8] {
    var out: [UInt8] = []
    for part in parts {
        let quoted = { (text: String) in "\"" + text + "\"" }
        var disposition = "Content-Disposition: form-data; name=" + quoted(part.name)
        if let filename = part.filename { disposition += "; filename=" + quoted(filename) }
        out += Array("--\(boundary)\r\n\(disposition)\r\n\r\n".utf8) + part.body + Array("\r\n".utf8)
    }
    return out + Array("--\(boundary)--\r\n".utf8)
}
