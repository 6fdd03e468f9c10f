import Crypto
import FormData
import Foundation
import Hummingbird

/// What a request means, hashed, to tell a retry from another request under the same `Idempotency-Key`: its method,
/// path, query parameters (sorted by name: their order means nothing), media type and body. A multipart form counts
/// by its parts (names, filenames, content types and bytes), not its framing: curl and browsers draw a new random
/// boundary for every attempt, so a retry's bytes differ while its parts do not. A JSON body counts by its value, keys
/// sorted: a client that encodes a dictionary again may order its keys otherwise (Foundation on Linux does).
package enum RequestFingerprint {
    package static func of(_ request: Request, body: ByteBuffer) -> String {
        var hash = SHA256()
        // Every field is length-prefixed, so that no two different requests hash the same bytes.
        func add(_ bytes: some Collection<UInt8>) {
            withUnsafeBytes(of: UInt64(bytes.count).bigEndian) { hash.update(bufferPointer: $0) }
            hash.update(data: Array(bytes))
        }
        add(request.method.rawValue.utf8)
        add(request.uri.path.utf8)
        let query = request.uri.queryParameters.map { (key: $0.key, value: $0.value) }
        add(Array("\(query.count)".utf8))
        // Stable: of repeated names the first counts, so their order among themselves does mean something.
        for (key, value) in query.enumerated().sorted(by: { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) })
            .map(\.element)
        {
            add(key.utf8)
            add(value.utf8)
        }
        let header = HeaderParameters(request.headers[.contentType] ?? "")
        let mediaType = header?.value.lowercased() ?? ""
        add(mediaType.utf8)
        if mediaType == "multipart/form-data", let parts = formParts(body, boundary: header?["boundary"]) {
            add(Array("\(parts.count) parts".utf8))
            for part in parts {
                add(part.name.utf8)
                add(Array((part.filename.map { "1" + $0 } ?? "0").utf8))
                add(Array((part.contentType.map { "1" + $0 } ?? "0").utf8))
                add(part.body)
            }
        } else if mediaType == "application/json", let canonical = canonicalJSON(body) {
            add(Array("json".utf8))
            add(canonical)
        } else {
            // A raw image, or a form that does not parse (its handler refuses it, and nothing is kept).
            add(body.readableBytesView)
        }
        return hash.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// `body` as JSON with sorted keys, nil when it is not JSON (then its bytes count).
    private static func canonicalJSON(_ body: ByteBuffer) -> [UInt8]? {
        guard
            let value = try? JSONSerialization.jsonObject(
                with: Data(body.readableBytesView), options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed])
        else { return nil }
        return Array(data)
    }

    /// The parts of a form body, nil when it is not a well-formed one.
    private static func formParts(_ body: ByteBuffer, boundary: String?) -> [FormPart]? {
        guard let boundary, let boundary = try? Boundary(boundary) else { return nil }
        // The body is whole and within the middleware's bound already: these limits only let it through.
        var limits = FormLimits(totalBytes: body.readableBytes, fileBytes: body.readableBytes)
        limits.fieldBytes = body.readableBytes
        var reader = FormReader(boundary: boundary, limits: limits)
        guard (try? reader.append(body.readableBytesView)) != nil else { return nil }
        return try? reader.parts()
    }
}
