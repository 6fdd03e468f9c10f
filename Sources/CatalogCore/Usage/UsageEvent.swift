import Foundation

/// What a user did with a sticker, as apps report it.
package enum UsageAction: String, CaseIterable, Sendable, Hashable, Comparable {
    case sent, viewed, tapped

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One use of one sticker, as an app reported it: nothing of who.
package struct UsageEvent: Sendable, Hashable {
    package var sticker: UUID
    package var action: UsageAction
    package var at: Date

    package init(sticker: UUID, action: UsageAction, at: Date) {
        (self.sticker, self.action, self.at) = (sticker, action, at)
    }
}

/// A `POST /v1/usage` body: `{"events": [{"sticker", "action", "at"}]}`, 1 to `maxEvents` of them, every field
/// checked and named when wrong (`events[3].action`). Read with JSONSerialization rather than Codable: a number where a
/// string belongs is a field's problem (422 naming it), not an unreadable body.
package enum UsageBatch {
    package static let maxEvents = 100
    /// The largest body read: 100 events of about 120 bytes, with room for spaces.
    package static let maxBytes = 32 << 10

    /// The events of `body`; nil when it is not JSON at all; `invalid` naming each bad field.
    package static func events(_ body: [UInt8]) throws(CatalogError) -> [UsageEvent]? {
        if let events = scanned(body) { return events }
        return try serialized(body)
    }

    /// `events(_:)` read with JSONSerialization alone: what the scan must agree with.
    package static func serialized(_ body: [UInt8]) throws(CatalogError) -> [UsageEvent]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) else { return nil }
        guard let root = object as? [String: Any] else { throw invalid("", "must be a JSON object") }
        guard let list = root["events"] as? [Any] else { throw invalid("events", "must be an array of events") }
        guard (1...maxEvents).contains(list.count) else {
            throw invalid("events", "must hold 1 to \(maxEvents) events")
        }
        var errors = FieldErrors()
        var events: [UsageEvent] = []
        events.reserveCapacity(list.count)
        for (number, item) in list.enumerated() {
            if let event = event(item, field: "events[\(number)]", errors: &errors) { events.append(event) }
        }
        try errors.throwIfAny()
        return events
    }

    private static func event(_ item: Any, field: String, errors: inout FieldErrors) -> UsageEvent? {
        guard let fields = item as? [String: Any] else {
            errors.check(false, field, "must be an object with sticker, action and at")
            return nil
        }
        let sticker = (fields["sticker"] as? String).flatMap(Self.uuid)
        let action = (fields["action"] as? String).flatMap(UsageAction.init(rawValue:))
        let at = (fields["at"] as? String).flatMap(RFC3339.date)
        errors.check(sticker != nil, "\(field).sticker", "must be a sticker id (a UUID)")
        errors.check(action != nil, "\(field).action", "must be sent, viewed or tapped")
        errors.check(at != nil, "\(field).at", "must be an RFC 3339 date-time such as 2026-11-28T09:30:00Z")
        guard let sticker, let action, let at else { return nil }
        return UsageEvent(sticker: sticker, action: action, at: at)
    }

    /// A UUID in its 36-character form only (Foundation also takes other lengths of nothing).
    private static func uuid(_ text: String) -> UUID? {
        text.utf8.count == 36 ? UUID(uuidString: text) : nil
    }

    private static func invalid(_ field: String, _ message: String) -> CatalogError {
        .invalid([FieldIssue(field: field.isEmpty ? "body" : field, message: message)])
    }
}
