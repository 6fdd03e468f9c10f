import Foundation
import Hummingbird
import NIOCore
import StickerImage

/// An upload's image bytes and its text fields.
struct StickerUpload {
    var image: [UInt8]
    var fields: [String: String]
}

/// Reads a sticker upload while it streams in, refusing it as soon as it passes a limit.
enum UploadReader {
    /// Room for the text fields and multipart framing around the image.
    static let formOverhead = 64 * 1024
    static let maxFieldBytes = 8 * 1024
    static let maxParts = 32

    static func read(_ request: Request, imageLimit: Int) async throws -> StickerUpload {
        let contentType = request.headers[.contentType] ?? ""
        let mediaType = contentType.prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces).lowercased()
        switch mediaType {
        case "image/png", "image/apng", "image/vnd.mozilla.apng":
            try checkDeclaredLength(request, limit: imageLimit)
            var image: [UInt8] = []
            for try await chunk in request.body {
                guard image.count + chunk.readableBytes <= imageLimit else { throw Problem.tooLarge(limit: imageLimit) }
                image.append(contentsOf: chunk.readableBytesView)
            }
            let fields = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { a, _ in a })
            return StickerUpload(image: image, fields: fields)
        case "multipart/form-data":
            guard let boundary = parameter("boundary", of: contentType) else {
                throw Problem.invalidBody("A multipart/form-data body needs a boundary parameter in its Content-Type.")
            }
            try checkDeclaredLength(request, limit: imageLimit + formOverhead)
            return try await readForm(request.body, boundary: boundary, imageLimit: imageLimit)
        case let other where other.hasPrefix("image/"):
            throw Problem.image(.unsupportedFormat(ImageFormat(mediaType: other)))
        default:
            throw Problem(.unsupportedMediaType, "unsupported_format",
                          "Send the sticker as multipart/form-data with a 'file' part, or as a raw image/png body.")
        }
    }

    /// Refuses at once a body whose declared length is over the limit, before reading any of it.
    private static func checkDeclaredLength(_ request: Request, limit: Int) throws {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw Problem.tooLarge(limit: limit)
        }
    }

    /// The value of `name=` in a header such as `multipart/form-data; boundary=xyz` (quotes removed).
    static func parameter(_ name: String, of header: String) -> String? {
        for part in header.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == name {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}

extension ImageFormat {
    /// The format a Content-Type names, for a precise refusal.
    init(mediaType: String) {
        switch mediaType {
        case "image/jpeg", "image/jpg": self = .jpeg
        case "image/gif": self = .gif
        case "image/webp": self = .webp
        default: self = .unknown
        }
    }
}
