import FormData
import Testing

@Suite("multipart/form-data reader")
struct FormDataTests {
    static let limits = FormLimits(totalBytes: 4096, fileBytes: 1024)

    func parts(
        _ body: String, boundary: String = "b", limits: FormLimits = limits, chunk: Int = 7
    ) throws(FormDataError) -> [FormPart] {
        var reader = FormReader(boundary: try Boundary(boundary), limits: limits)
        let bytes = Array(body.utf8)
        for start in stride(from: 0, to: bytes.count, by: chunk) {
            try reader.append(bytes[start..<min(bytes.count, start + chunk)])
        }
        return try reader.parts()
    }

    func part(_ name: String, _ value: String, filename: String? = nil, boundary: String = "b") -> String {
        "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
            + (filename.map { "; filename=\"\($0)\"" } ?? "")
            + "\r\n\r\n\(value)\r\n"
    }

    @Test("Boundaries follow RFC 2046: 1-70 characters of its alphabet, not ending in a space")
    func boundaries() {
        for ok in ["b", "----WebKitFormBoundary7MA4YWxkTrZu0gW", "a'()+_,-./:=? z", String(repeating: "x", count: 70)] {
            #expect((try? Boundary(ok)) != nil, "\(ok)")
        }
        for bad in [
            "", " ", "   ", "ends ", String(repeating: "x", count: 71), "semi;colon", "quote\"", "tab\t", "é",
            "nul\u{0}",
        ] {
            #expect(throws: FormDataError.invalidBoundary, "\(bad)") { try Boundary(bad) }
        }
    }

    @Test("Header parameters: quoted strings with escapes, any case, first of a repeated name")
    func parameters() throws {
        let header = try #require(HeaderParameters(#"Form-Data; NAME="a \"b\"; c"; filename=x.png; name=second"#))
        #expect(header.value == "Form-Data" && header["name"] == #"a "b"; c"# && header["filename"] == "x.png")
        #expect(HeaderParameters(#"multipart/form-data; boundary="unclosed"#) == nil)
        #expect(HeaderParameters("multipart/form-data; boundary") == nil)
        #expect(HeaderParameters("multipart/form-data; boundary=\"\"")?["boundary"] == "")
    }

    @Test(
        "Form-data names and filenames keep a backslash as browsers and HTTP libraries write it; an empty name is a name"
    )
    func browserNames() throws {
        let parts = try parts(part(#"C:\"#, "x", filename: #"dir\a.png"#) + part("", "{}") + "--b--\r\n")
        #expect(parts.map(\.name) == [#"C:\"#, ""] && parts[0].filename == #"dir\a.png"#)
    }

    @Test("Parts come out whole, whatever the chunking; preamble and epilogue are skipped")
    func reading() throws {
        let body =
            "preamble\r\n" + part("name", "Lemon") + part("file", "PNGDATA\r\n--not-a-delimiter", filename: "a.png")
            + part("description", "") + "--b--\r\nepilogue"
        for chunk in [1, 2, 7, 1000] {
            let parts = try parts(body, chunk: chunk)
            #expect(parts.map(\.name) == ["name", "file", "description"])
            #expect(
                parts[1].isFile && parts[1].filename == "a.png"
                    && parts[1].body == Array("PNGDATA\r\n--not-a-delimiter".utf8))
            #expect(parts[2].body.isEmpty && !parts[0].isFile)
        }
    }

    @Test("Every byte counts against one budget, refused the moment it is passed")
    func budget() throws {
        var limits = Self.limits
        limits.totalBytes = 100
        var reader = FormReader(boundary: try Boundary("b"), limits: limits)
        try reader.append(Array(repeating: UInt8(ascii: "p"), count: 100))  // a preamble, exactly at the limit
        #expect(throws: FormDataError.tooLarge(limit: 100)) { try reader.append([0]) }
        // Huge part headers, many headers, many parts, a big epilogue: each refused.
        let longHeader =
            "--b\r\nContent-Disposition: form-data; name=\"x\"\r\nX-Pad: \(String(repeating: "a", count: 5000))\r\n\r\nv\r\n--b--"
        #expect(throws: FormDataError.tooLarge(limit: 4096)) {
            try parts(longHeader, limits: FormLimits(totalBytes: 10_000, fileBytes: 10))
        }
        let manyHeaders =
            "--b\r\nContent-Disposition: form-data; name=\"x\"\r\n" + String(repeating: "X: y\r\n", count: 9)
            + "\r\nv\r\n--b--"
        #expect(throws: FormDataError.tooManyHeaders(limit: 8)) { try parts(manyHeaders) }
        let manyParts = String(repeating: part("f", "v"), count: 33) + "--b--"
        #expect(throws: FormDataError.tooManyParts(limit: 32)) { try parts(manyParts) }
        #expect(throws: FormDataError.tooLarge(limit: 4096)) {
            try parts(part("a", "b") + "--b--" + String(repeating: "e", count: 5000))
        }
        #expect(throws: FormDataError.partTooLarge(name: "file", limit: 1024)) {
            try parts(part("file", String(repeating: "x", count: 1025)) + "--b--")
        }
        #expect(throws: FormDataError.partTooLarge(name: "name", limit: 8192)) {
            try parts(
                part("name", String(repeating: "x", count: 8193)) + "--b--",
                limits: FormLimits(totalBytes: 20_000, fileBytes: 10))
        }
    }

    @Test(
        "Malformed bodies are refused, never trapped on",
        arguments: [
            "no delimiter at all", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunclosed", "--bX",
            "--b\r\nNo colon here\r\n\r\nv\r\n--b--",
            "--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--",
            "--b\r\n Content-Disposition: form-data; name=\"a\"\r\n\r\nv\r\n--b--",
            "--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--", "",
        ])
    func malformed(body: String) {
        #expect(throws: FormDataError.self) { try parts(body) }
    }
}
