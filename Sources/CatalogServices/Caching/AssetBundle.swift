import CatalogCore
import NIOCore

/// `POST /v1/assets/bundle`: many images in one answer, for a client's first sync (10,000 requests for 10,000 files
/// cost a client and the service more than the bytes). The body names the images as a manifest's links do (digest,
/// and `exp`/`sig` for premium ones); the answer is one frame per image, in the order asked: a status byte, the
/// length as four bytes big-endian, then that many bytes of the image (none unless the status is `ok`).
package enum AssetBundle {
    /// The images asked for.
    package struct Request: Decodable, Sendable {
        package struct Item: Decodable, Sendable {
            package let sha256: String
            package let exp: String?
            package let sig: String?

            private enum CodingKeys: String, CodingKey { case sha256, exp, sig }

            /// `exp` and `sig` may be left out, not null: the schema says strings.
            package init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                sha256 = try container.decode(String.self, forKey: .sha256)
                for key in [CodingKeys.exp, .sig] where try container.contains(key) && container.decodeNil(forKey: key)
                {
                    throw DecodingError.valueNotFound(
                        String.self, .init(codingPath: [key], debugDescription: "\(key.rawValue) is null"))
                }
                exp = try container.decodeIfPresent(String.self, forKey: .exp)
                sig = try container.decodeIfPresent(String.self, forKey: .sig)
            }
        }

        package let assets: [Item]
    }

    /// Each frame's first byte.
    package enum Status: UInt8, CaseIterable {
        case ok = 0
        case notFound = 1
        case signatureRequired = 2
        case signatureExpired = 3
        case signatureInvalid = 4
        /// Past the answer's byte budget: ask for it again (in another bundle or alone).
        case skipped = 5
    }

    /// At most this many images per request: a body of about 40 KB with signatures.
    package static let maxItems = 256
    /// Images are added to an answer until it holds this many bytes; the rest are `skipped`.
    package static let maxBytes = 16 << 20
    /// The media type of the answer.
    package static let mediaType = "application/vnd.stickercatalog.bundle"

    /// What is wrong with `request`, field by field.
    package static func issues(_ request: Request) -> [FieldIssue] {
        var errors = FieldErrors()
        errors.check((1...maxItems).contains(request.assets.count), "assets", "must list 1 to \(maxItems) images")
        errors.check(
            request.assets.allSatisfy { AssetDigest(hex: Substring($0.sha256)) != nil }, "assets.sha256",
            "must be 64 lowercase hex digits")
        errors.check(
            request.assets.allSatisfy { $0.exp.map(isDecimal) ?? true }, "assets.exp", "must be 1 to 19 digits")
        errors.check(
            request.assets.allSatisfy { $0.sig.map(isBase64URL) ?? true }, "assets.sig",
            "must be 1 to 64 base64url characters")
        return errors.issues
    }

    /// A frame's first five bytes.
    package static func header(_ status: Status, length: Int) -> ByteBuffer {
        var buffer = ByteBuffer()
        buffer.writeInteger(status.rawValue)
        buffer.writeInteger(UInt32(length), endianness: .big)
        return buffer
    }

    private static func isDecimal(_ text: String) -> Bool {
        (1...19).contains(text.utf8.count)
            && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    private static func isBase64URL(_ text: String) -> Bool {
        (1...64).contains(text.utf8.count)
            && text.utf8.allSatisfy {
                switch $0 {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }
}
