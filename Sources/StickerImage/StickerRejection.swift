/// Why an upload is refused: a stable code for programs and a detail for people.
public enum StickerRejection: Error, Sendable, Equatable {
    case empty
    case tooLarge(bytes: Int, limit: Int)
    case unsupportedFormat(ImageFormat)
    case dimensionsOutOfRange(width: Int, height: Int, range: ClosedRange<Int>)
    case corrupt(String)

    /// The stable problem code clients match on.
    public var code: String {
        switch self {
        case .empty: "validation_failed"
        case .tooLarge: "too_large"
        case .unsupportedFormat: "unsupported_format"
        case .dimensionsOutOfRange: "dimensions_out_of_range"
        case .corrupt: "corrupt_image"
        }
    }

    /// A sentence saying exactly what is wrong with the file.
    public var detail: String {
        switch self {
        case .empty:
            "The file is empty."
        case .tooLarge(let bytes, let limit):
            "The file is \(bytes) bytes; a sticker must be at most \(limit) bytes."
        case .unsupportedFormat(let format):
            switch format {
            case .png: "Unexpected PNG variant."
            case .unknown: "The file is not a PNG or APNG image; only PNG and APNG stickers are accepted."
            default: "The file is a \(format.rawValue.uppercased()) image; only PNG and APNG stickers are accepted."
            }
        case .dimensionsOutOfRange(let width, let height, let range):
            "The image is \(width) x \(height) pixels; each side must be \(range.lowerBound) to \(range.upperBound) pixels."
        case .corrupt(let reason):
            "The PNG data is corrupt: \(reason)."
        }
    }
}
