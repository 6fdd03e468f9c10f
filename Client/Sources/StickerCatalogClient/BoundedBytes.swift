import OpenAPIRuntime

/// A response body that ends in an error past `limit` bytes, so nothing from the network is buffered without bound;
/// with `lineLimit`, also past that many bytes in a line, and `eventLimit` in an event (the bytes up to a blank line:
/// the runtime's event decoder keeps an event's `data:` lines until one comes). An answer whose declared length is
/// past `limit` fails at its first read, before a byte is taken, with both lengths in the error.
struct BoundedBytes<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element == ArraySlice<UInt8> {
    typealias Element = ArraySlice<UInt8>
    let base: Base
    let limit: Int
    var lineLimit: Int?
    var eventLimit = Int.max
    /// The length the answer declared (`Content-Length`), if it did.
    var declared: Int64?

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        let limit: Int
        let lineLimit: Int?
        let eventLimit: Int
        let declared: Int64?
        var total = 0
        var line = 0
        var event = 0
        var previous: UInt8 = 0

        mutating func next() async throws -> ArraySlice<UInt8>? {
            if let declared, declared > limit {
                throw StickerClientError.invalidAnswer(
                    "an answer of \(declared) bytes, past this client's bound of \(limit) bytes")
            }
            guard let chunk = try await base.next() else { return nil }
            try SyncDeadline.check()
            total += chunk.count
            guard total <= limit else { throw StickerClientError.invalidAnswer("an answer longer than \(limit) bytes") }
            if let lineLimit {
                for byte in chunk {
                    defer { previous = byte }
                    if byte == 0x0A && previous == 0x0D { continue }  // CRLF is one line ending
                    if byte == 0x0A || byte == 0x0D {
                        if line == 0 { event = 0 }  // a blank line ends the event
                        line = 0
                        continue
                    }
                    (line, event) = (line + 1, event + 1)
                    if line > lineLimit {
                        throw StickerClientError.invalidAnswer("an event line longer than \(lineLimit) bytes")
                    }
                    if event > eventLimit {
                        throw StickerClientError.invalidAnswer("an event longer than \(eventLimit) bytes")
                    }
                }
            }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            base: base.makeAsyncIterator(), limit: limit, lineLimit: lineLimit, eventLimit: eventLimit,
            declared: declared)
    }
}

extension HTTPBody {
    /// This body, ending in an error past `limit` bytes (or a line past `lineLimit`, an event past `eventLimit`); at
    /// once when its declared length is past `limit`. (That error once named a bound of 0: a declared length too long
    /// was failed by a bound set to 0.)
    func bounded(to limit: Int, lineLimit: Int? = nil, eventLimit: Int = .max) -> HTTPBody {
        let declared: Int64? = if case .known(let length) = self.length { length } else { nil }
        return HTTPBody(
            BoundedBytes(
                base: self, limit: limit, lineLimit: lineLimit, eventLimit: eventLimit, declared: declared),
            length: (declared ?? 0) > limit ? .unknown : length, iterationBehavior: iterationBehavior)
    }
}
