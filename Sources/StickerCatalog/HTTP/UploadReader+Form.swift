import Hummingbird
import MultipartKit
import NIOCore

extension UploadReader {
    /// Parses multipart/form-data chunk by chunk: the `file` part (or any part with a filename) is the image,
    /// other parts are text fields. Limits are checked as bytes arrive.
    static func readForm(_ body: RequestBody, boundary: String, imageLimit: Int) async throws -> StickerUpload {
        let parser = MultipartParser(boundary: boundary)
        var state = FormState()
        parser.onHeader = { name, value in
            guard name.lowercased() == "content-disposition" else { return }
            state.partName = parameter("name", of: value) ?? ""
            state.partIsFile = state.partName == "file" || parameter("filename", of: value) != nil
        }
        parser.onBody = { chunk in
            guard state.failure == nil else { return }
            let limit = state.partIsFile ? imageLimit : maxFieldBytes
            guard state.part.count + chunk.readableBytes <= limit else {
                state.failure = state.partIsFile ? Problem.tooLarge(limit: imageLimit)
                    : Problem.validationFailed(state.partName, "must be at most \(maxFieldBytes) bytes")
                return
            }
            state.part.append(contentsOf: chunk.readableBytesView)
        }
        parser.onPartComplete = {
            state.finishPart()
        }
        for try await chunk in body {
            do {
                try parser.execute(chunk)
            } catch {
                throw Problem.invalidBody("The multipart/form-data body is malformed.")
            }
            if let failure = state.failure { throw failure }
        }
        if let failure = state.failure { throw failure }
        guard state.files.count == 1, let image = state.files.first else {
            throw state.files.isEmpty
                ? Problem.validationFailed("file", "is required: add the image as a part named 'file'")
                : Problem.validationFailed("file", "must be a single image; the form holds \(state.files.count) files")
        }
        return StickerUpload(image: image, fields: state.fields)
    }
}

/// What the multipart callbacks have gathered so far.
private struct FormState {
    var partName = ""
    var partIsFile = false
    var part: [UInt8] = []
    var files: [[UInt8]] = []
    var fields: [String: String] = [:]
    var failure: Problem?
    var partCount = 0

    mutating func finishPart() {
        partCount += 1
        if partCount > UploadReader.maxParts, failure == nil {
            failure = Problem.validationFailed("form", "must have at most \(UploadReader.maxParts) parts")
        }
        if partIsFile {
            files.append(part)
        } else if !partName.isEmpty {
            fields[partName] = String(decoding: part, as: UTF8.self)
        }
        (partName, partIsFile, part) = ("", false, [])
    }
}
