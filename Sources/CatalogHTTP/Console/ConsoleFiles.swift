import Crypto
import Foundation
import NIOCore

/// The admin console's files as the binary carries them (`console/`, embedded at build time), each with its
/// media type and a strong ETag made from its bytes once, at start-up.
package struct ConsoleFiles: Sendable {
    package struct File: Sendable {
        package let body: ByteBuffer
        package let contentType: String
        package let etag: String
    }

    private let files: [String: File]

    package init(_ embedded: [(path: String, text: String)] = embeddedConsoleFiles) {
        var files: [String: File] = [:]
        for (path, text) in embedded {
            let bytes = Array(text.utf8)
            let digest = SHA256.hash(data: bytes).prefix(16).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            files[path] = File(
                body: ByteBuffer(bytes: bytes), contentType: Self.contentType(of: path), etag: "\"\(digest)\"")
        }
        self.files = files
    }

    /// The file named `path` (`index.html`, `app.js`), nil when the console has none such.
    package subscript(path: String) -> File? { files[path] }

    /// Every file's name, sorted.
    package var paths: [String] { files.keys.sorted() }

    package static func contentType(of path: String) -> String {
        switch path.split(separator: ".").last {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "ts": "text/plain; charset=utf-8"
        case "svg": "image/svg+xml"
        default: "application/octet-stream"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
