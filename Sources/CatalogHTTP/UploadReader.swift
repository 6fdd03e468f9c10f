import CatalogCore
import FormData
import Foundation
import Hummingbird
import NIOCore
import StickerImage

/// An upload's image bytes and its text fields.
package struct StickerUpload {
    package var image: [UInt8]
    package var fields: [String: String]
}

/// Reads a sticker upload while it streams in, refusing it as soon as it passes its byte budget, whether the client
/// declared a Content-Length or sends it chunked.
package enum UploadReader {
    /// Room for everything around the image in a form: delimiters, part headers, text fields, preamble, epilogue.
    package static let formOverhead = 64 * 1024

    package static func read(_ request: Request, imageLimit: Int) async throws -> StickerUpload {
        let contentType = request.headers[.contentType] ?? ""
        let header = HeaderParameters(contentType)
        switch header?.value.lowercased() ?? "" {
        case "image/png", "image/apng", "image/vnd.mozilla.apng", "image/webp", "image/gif", "image/jpeg":
            try checkDeclaredLength(request, limit: imageLimit)
            var image: [UInt8] = []
            for try await chunk in request.body {
                guard chunk.readableBytes <= imageLimit - image.count else {
                    throw FormDataError.tooLarge(limit: imageLimit)
                }
                image.append(contentsOf: chunk.readableBytesView)
            }
            let fields = Dictionary(
                request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { a, _ in a })
            return StickerUpload(image: image, fields: fields)
        case "multipart/form-data":
            guard let boundary = header?["boundary"] else { throw FormDataError.invalidBoundary }
            var limits = FormLimits(totalBytes: imageLimit + formOverhead, fileBytes: imageLimit)
            limits.fileFields = ["file"]
            var reader = FormReader(boundary: try Boundary(boundary), limits: limits)
            try checkDeclaredLength(request, limit: limits.totalBytes)
            for try await chunk in request.body { try reader.append(chunk.readableBytesView) }
            return try upload(from: reader.parts())
        case let other where other.hasPrefix("image/"):
            throw StickerRejection.unsupportedFormat(ImageFormat(mediaType: other))
        default:
            throw Problem(
                .unsupportedMediaType, "unsupported_format",
                "Send the sticker as multipart/form-data with a 'file' part, or as a raw image/png, image/webp, image/gif or image/jpeg body."
            )
        }
    }

    /// The single file part is the image; the other parts are text fields (the first of each name counts).
    package static func upload(from parts: [FormPart]) throws -> StickerUpload {
        let files = parts.filter(\.isFile)
        guard files.count == 1, let image = files.first?.body else {
            throw CatalogError.invalid(
                "file",
                files.isEmpty
                    ? "is required: add the image as a part named 'file'"
                    : "must be a single image; the form holds \(files.count) files")
        }
        var fields: [String: String] = [:]
        for part in parts where !part.isFile && fields[part.name] == nil {
            fields[part.name] = String(decoding: part.body, as: UTF8.self)
        }
        return StickerUpload(image: image, fields: fields)
    }

    /// Refuses at once a body whose declared length is over the limit, before reading any of it.
    private static func checkDeclaredLength(_ request: Request, limit: Int) throws {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw FormDataError.tooLarge(limit: limit)
        }
    }
}

extension ImageFormat {
    /// The format a Content-Type names, for a precise refusal.
    package init(mediaType: String) {
        switch mediaType {
        case "image/jpeg", "image/jpg": self = .jpeg
        case "image/gif": self = .gif
        case "image/webp": self = .webp
        default: self = .unknown
        }
    }
}
