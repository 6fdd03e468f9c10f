import Foundation

extension UsageBatch {
    /// The events of a batch written the way clients write them (`{"events": [{"sticker", "action", "at"}, ...]}`,
    /// keys in any order, strings without escapes, any whitespace), each field valid; nil for anything else, which
    /// `events(_:)` then reads with JSONSerialization to name what is wrong. Scanned by hand: JSONSerialization's
    /// objects cost three times a cached manifest's whole answer per batch, and apps send many.
    package static func scanned(_ body: [UInt8]) -> [UsageEvent]? {
        body.withUnsafeBufferPointer { bytes in
            var scanner = Scanner(bytes: bytes)
            return scanner.batch()
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var at = 0

        mutating func batch() -> [UsageEvent]? {
            guard take(UInt8(ascii: "{")), string() == "events", take(UInt8(ascii: ":")), take(UInt8(ascii: "["))
            else { return nil }
            var events: [UsageEvent] = []
            repeat {
                guard events.count < maxEvents, let event = event() else { return nil }
                events.append(event)
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "]")), take(UInt8(ascii: "}")) else { return nil }
            skipSpace()
            return at == bytes.count ? events : nil
        }

        private mutating func event() -> UsageEvent? {
            guard take(UInt8(ascii: "{")) else { return nil }
            var (sticker, action, moment): (UUID?, UsageAction?, Date?) = (nil, nil, nil)
            for number in 0..<3 {
                guard number == 0 || take(UInt8(ascii: ",")), let key = string(), take(UInt8(ascii: ":")),
                    let value = string()
                else { return nil }
                switch key {
                case "sticker" where sticker == nil && value.utf8.count == 36: sticker = UUID(uuidString: value)
                case "action" where action == nil: action = UsageAction(rawValue: value)
                case "at" where moment == nil: moment = RFC3339.date(value)
                default: return nil
                }
            }
            guard take(UInt8(ascii: "}")), let sticker, let action, let moment else { return nil }
            return UsageEvent(sticker: sticker, action: action, at: moment)
        }

        /// A string without escapes or control characters, after any whitespace.
        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = at
            while at < bytes.count, bytes[at] != UInt8(ascii: "\"") {
                guard bytes[at] != UInt8(ascii: "\\"), bytes[at] >= 0x20 else { return nil }
                at += 1
            }
            guard at < bytes.count else { return nil }
            defer { at += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<at]), as: UTF8.self)
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            skipSpace()
            guard at < bytes.count, bytes[at] == byte else { return false }
            at += 1
            return true
        }

        private mutating func skipSpace() {
            while at < bytes.count, bytes[at] == 0x20 || bytes[at] == 0x0A || bytes[at] == 0x0D || bytes[at] == 0x09 {
                at += 1
            }
        }
    }
}
