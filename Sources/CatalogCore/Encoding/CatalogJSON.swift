import Foundation

extension JSONEncoder {
    /// Deterministic JSON (sorted keys, ISO 8601 dates): equal content gives equal bytes, so ETags agree across
    /// replicas.
    package static let catalog: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()
}
