import OpenAPIRuntime

/// A response body that ends in an error past `limit` bytes, so nothing from the network is buffered without bound;
/// with `lineLimit`, also past that many bytes without a line break (an event stream's lines and events).
struct BoundedBytes<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ArraySlice<UInt8> {
    typealias Element = ArraySlice<UInt8>
    let base: Base
    let limit: Int
    var lineLimit: Int?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let lineLimit: Int?
        var total = 0
        var line = 0

        mutating func next() async throws -> ArraySlice<UInt8>? {
            guard let chunk = try await base.next() else { return nil }
            total += chunk.count
            guard total <= limit else { throw StickerClientError.invalidAnswer("an answer longer than \(limit) bytes") }
            if let lineLimit {
                for byte in chunk {
                    line = byte == 0x0A || byte == 0x0D ? 0 : line + 1
                    if line > lineLimit { throw StickerClientError.invalidAnswer("an event line longer than \(lineLimit) bytes") }
                }
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), limit: limit, lineLimit: lineLimit)
    }
}

extension HTTPBody {
    /// This body, ending in an error past `limit` bytes (or a line past `lineLimit`).
    func bounded(to limit: Int, lineLimit: Int? = nil) -> HTTPBody {
        if case .known(let length) = self.length, length > limit {
            return HTTPBody(BoundedBytes(base: self, limit: 0, lineLimit: nil), length: .unknown, iterationBehavior: iterationBehavior)
        }
        return HTTPBody(BoundedBytes(base: self, limit: limit, lineLimit: lineLimit), length: length, iterationBehavior: iterationBehavior)
    }
}
