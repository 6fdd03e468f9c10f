import Foundation

/// The frames of `POST /v1/assets/bundle`'s answer, read as they arrive: per image asked for, in order, a status byte,
/// a length (four bytes, big-endian) and that many bytes. Nothing the server says is believed past what was asked: an
/// image's length must be the one its manifest states (so no frame is buffered beyond it), a refusal carries no
/// bytes, and no frame comes after the last image.
enum BundleFrames {
    /// A status byte and a length.
    static let headerBytes = 5

    /// What a frame says of one image, as it arrives: an image's bytes come in parts, never buffered here.
    enum Frame: Sendable {
        /// An image begins: as many bytes as the manifest states follow (their digest is still to be checked).
        case begins
        /// The next of its bytes.
        case bytes(ArraySlice<UInt8>)
        /// It is whole.
        case ends
        /// The service did not send it (not found, a signature refused, past the answer's budget): fetch it alone.
        case withheld(status: UInt8)
    }

    /// Reads `body`, calling `each` with every frame and its image's place in `assets`; throws `invalidAnswer` for a
    /// frame that breaks the format (the images before it were given to `each`) or an image past `largest` bytes.
    static func read<Body: AsyncSequence>(
        _ body: Body, for assets: [AssetLink], largest: Int,
        each: (Int, Frame) async throws -> Void
    ) async throws where Body.Element == ArraySlice<UInt8> {
        var header: [UInt8] = []
        var wanted = 0  // bytes of the current image still to come
        var index = 0
        for try await chunk in body {
            var chunk = chunk[...]
            while !chunk.isEmpty {
                if wanted > 0 {
                    let part = chunk.prefix(wanted)
                    (chunk, wanted) = (chunk.dropFirst(part.count), wanted - part.count)
                    try await each(index - 1, .bytes(part))
                    if wanted == 0 { try await each(index - 1, .ends) }
                    continue
                }
                let part = chunk.prefix(headerBytes - header.count)
                header.append(contentsOf: part)
                chunk = chunk.dropFirst(part.count)
                guard header.count == headerBytes else { continue }
                guard index < assets.count else {
                    throw StickerClientError.invalidAnswer("a bundle with more frames than images asked for")
                }
                let length = header.dropFirst().reduce(0) { $0 << 8 | Int($1) }
                let (status, expected) = (header[0], assets[index].bytes)
                header.removeAll(keepingCapacity: true)
                index += 1
                if status != 0 {
                    guard length == 0 else {
                        throw StickerClientError.invalidAnswer("a withheld image with bytes in a bundle")
                    }
                    try await each(index - 1, .withheld(status: status))
                } else {
                    guard length == expected, (1...largest).contains(length) else {
                        throw StickerClientError.invalidAnswer(
                            "an image of \(length) bytes in a bundle where its manifest states \(expected)")
                    }
                    wanted = length
                    try await each(index - 1, .begins)
                }
            }
        }
        guard wanted == 0, header.isEmpty, index == assets.count else {
            throw StickerClientError.invalidAnswer("a bundle cut short")
        }
    }
}
