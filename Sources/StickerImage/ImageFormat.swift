/// The kind of file an upload holds, told by its first bytes, never by its name or Content-Type.
public enum ImageFormat: String, Sendable, Hashable, Codable {
    case png
    case jpeg
    case gif
    case webp
    case unknown

    /// The eight bytes every PNG (and APNG) starts with.
    public static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Sniffs the format from the leading bytes.
    public init(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        if head.starts(with: Self.pngSignature) {
            self = .png
        } else if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if head.count == 12, head.starts(with: Array("RIFF".utf8)), Array(head[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            self = .unknown
        }
    }
}

extension ImageFormat {
    /// The extension of its file names and URLs.
    public var fileExtension: String { self == .webp ? "webp" : rawValue }

    /// Its media type (an APNG is served as image/png, which every browser animates).
    public var mediaType: String { self == .webp ? "image/webp" : "image/\(rawValue)" }
}
