/// Why an upload is refused: a stable code for programs and a detail for people.
public enum StickerRejection: Error, Sendable, Equatable {
    case empty
    case tooLarge(bytes: Int, limit: Int)
    case unsupportedFormat(ImageFormat)
    case dimensionsOutOfRange(width: Int, height: Int, range: ClosedRange<Int>)
    case corrupt(String)
    case invalidAnimation(String)
    case tooManyFrames(String)
    case animationTooLong(milliseconds: Int, limit: Int)
    /// A rendition the sticker must be served as would pass the size limit (a still of noise at a large size).
    case renditionTooLarge(edge: Int, bytes: Int, limit: Int)

    /// The stable problem code clients match on.
    public var code: String {
        switch self {
        case .empty: "validation_failed"
        case .tooLarge: "too_large"
        case .unsupportedFormat: "unsupported_format"
        case .dimensionsOutOfRange: "dimensions_out_of_range"
        case .corrupt: "corrupt_image"
        case .invalidAnimation: "invalid_animation"
        case .tooManyFrames: "too_many_frames"
        case .animationTooLong: "animation_too_long"
        case .renditionTooLarge: "rendition_too_large"
        }
    }

    /// A sentence saying exactly what is wrong with the file.
    public var detail: String {
        switch self {
        case .empty:
            "The file is empty."
        case .tooLarge(let bytes, let limit):
            "The file is \(bytes) bytes; a sticker must be at most \(limit) bytes."
        case .unsupportedFormat:
            "The file is not a PNG, APNG, GIF, JPEG or WebP image; only those stickers are accepted."
        case .dimensionsOutOfRange(let width, let height, let range):
            "The image is \(width) x \(height) pixels; each side must be \(range.lowerBound) to \(range.upperBound) pixels."
        case .corrupt(let reason):
            "The image data is corrupt: \(reason)."
        case .invalidAnimation(let reason):
            "The animation is invalid: \(reason)."
        case .tooManyFrames(let reason):
            "The animation is too big: \(reason)."
        case .animationTooLong(let milliseconds, let limit):
            "The animation plays for \(milliseconds) ms; a sticker animation may last at most \(limit) ms."
        case .renditionTooLarge(let edge, let bytes, let limit):
            "At \(edge) x \(edge) the picture takes \(bytes) bytes, over the \(limit) a sticker file may have; fewer colours or less noise would fit."
        }
    }
}
