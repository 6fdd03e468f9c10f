import Hummingbird

/// A request's id: where it is kept, which incoming ones are accepted, and Hummingbird's own, read cheaply.
package enum RequestIdentity {
    /// The metadata key Hummingbird puts its request id under; log handlers print it as `request_id`.
    package static let logKey = "hb.request.id"

    /// 1-128 characters of letters, digits and `-._:`: enough for UUIDs and trace ids, nothing that could forge a
    /// log field or a header.
    package static func isSane(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"):
                    true
                default: false
                }
            }
    }

    /// The id Hummingbird gave the request, the very text `context.id` gives, without its cost: `context.id` formats
    /// the id through `String(_:radix:)`, a Character count and two concatenations on every call, 2% of a cached
    /// manifest's CPU (perf, issue 46). Hummingbird's `RequestID` is a prefix fixed for the process and one `UInt64`
    /// written as 16 hex digits; this reads the number and writes the digits. `prefix` checks that layout once, at
    /// first use, against `description`; with a Hummingbird whose `RequestID` differs, this is `context.id`.
    package static func id(of context: some RequestContext) -> String {
        guard let prefix, case .stringConvertible(let value) = context.logger[metadataKey: logKey],
            let id = value as? RequestID
        else { return context.id }
        return text(prefix: prefix, number: scrambled(number(of: id)))
    }

    /// `number` through a keyed permutation of 64-bit numbers (a four-round Feistel network over SipHash, keyed at
    /// random for the process by `Hasher`): still one id per request, but Hummingbird counts requests one by one,
    /// and ids in sequence would tell any client how many requests (admin work included) a replica serves.
    package static func scrambled(_ number: UInt64) -> UInt64 {
        var (left, right) = (UInt32(truncatingIfNeeded: number >> 32), UInt32(truncatingIfNeeded: number))
        for round in 0..<4 {
            var hasher = Hasher()
            hasher.combine(right)
            hasher.combine(round)
            (left, right) = (right, left ^ UInt32(truncatingIfNeeded: hasher.finalize()))
        }
        return UInt64(left) << 32 | UInt64(right)
    }

    /// Whether ids are read from `RequestID`'s number (false: through `context.id`, after a Hummingbird change).
    package static var readsTheNumber: Bool { prefix != nil }

    /// The prefix of every `RequestID`'s text in this process; nil when `RequestID` is not laid out as expected.
    private static let prefix: [UInt8]? = {
        guard MemoryLayout<RequestID>.size == MemoryLayout<UInt64>.size else { return nil }
        let samples = (0..<3).map { _ in RequestID() }
        let prefix = Array(samples[0].description.utf8.dropLast(16))
        let matches = samples.allSatisfy { text(prefix: prefix, number: number(of: $0)) == $0.description }
        return matches ? prefix : nil
    }()

    private static func number(of id: RequestID) -> UInt64 {
        // Unaligned: a `RequestID` of another layout must reach the check above, not trap here.
        withUnsafeBytes(of: id) { $0.loadUnaligned(as: UInt64.self) }
    }

    /// `prefix` followed by `number` as 16 lower-case hex digits.
    private static func text(prefix: [UInt8], number: UInt64) -> String {
        String(unsafeUninitializedCapacity: prefix.count + 16) { buffer in
            _ = buffer.initialize(from: prefix)
            for digit in 0..<16 {
                let nibble = UInt8(truncatingIfNeeded: number >> UInt64(60 - 4 * digit)) & 0xF
                buffer[prefix.count + digit] = nibble + (nibble < 10 ? UInt8(ascii: "0") : UInt8(ascii: "a") - 10)
            }
            return prefix.count + 16
        }
    }
}
