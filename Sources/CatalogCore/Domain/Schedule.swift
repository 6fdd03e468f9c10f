import Foundation

/// When a group or a sticker is visible: from `publishAt` (inclusive) until `unpublishAt` (exclusive); either end open.
/// The database decides it (`in_schedule`, sql/0013_schedules.sql), so every replica decides it alike.
package struct Schedule: Sendable, Equatable {
    package var publishAt: Date?
    package var unpublishAt: Date?

    package init(publishAt: Date? = nil, unpublishAt: Date? = nil) {
        (self.publishAt, self.unpublishAt) = (publishAt, unpublishAt)
    }

    /// The earliest moments a schedule may name: a date before them is a mistake (a year typed wrong, a zero date).
    package static let earliest = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
    package static let latest = Date(timeIntervalSince1970: 32_503_680_000)  // 3000-01-01T00:00:00Z
}

/// RFC 3339 timestamps as the API reads and writes them: `2026-12-24T00:00:00Z`, with or without fractions, with any
/// offset, `t`/`z` in either case; a date that is not on the calendar (30 February) is none.
package enum RFC3339 {
    /// The moment `text` names, nil when it is not an RFC 3339 date-time (a leap second counts as the second before).
    package static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard (20...40).contains(bytes.count) else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[from..<from + count] {
                guard (48...57).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        func byte(_ at: Int, _ allowed: String) -> Bool { at < bytes.count && allowed.utf8.contains(bytes[at]) }
        guard let year = number(0, 4), byte(4, "-"), let month = number(5, 2), byte(7, "-"), let day = number(8, 2),
            byte(10, "Tt "),
            let hour = number(11, 2), byte(13, ":"), let minute = number(14, 2), byte(16, ":"),
            let second = number(17, 2),
            hour < 24, minute < 60, second <= 60
        else { return nil }
        var at = 19
        var fraction = 0.0
        if byte(at, ".") {
            var scale = 0.1
            at += 1
            let start = at
            while at < bytes.count, (48...57).contains(bytes[at]) {
                fraction += Double(bytes[at] - 48) * scale
                scale /= 10
                at += 1
            }
            guard at > start else { return nil }
        }
        var offset = 0
        if byte(at, "Zz") {
            at += 1
        } else if byte(at, "+-"), let hours = number(at + 1, 2), byte(at + 3, ":"), let minutes = number(at + 4, 2),
            hours < 24, minutes < 60
        {
            offset = (hours * 60 + minutes) * 60 * (bytes[at] == UInt8(ascii: "-") ? -1 : 1)
            at += 6
        } else {
            return nil
        }
        guard at == bytes.count, let days = daysSinceEpoch(year: year, month: month, day: day) else { return nil }
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offset) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// `date` in UTC, with milliseconds only when it has them.
    package static func string(_ date: Date) -> String {
        let fraction = date.timeIntervalSince1970.truncatingRemainder(dividingBy: 1) != 0
        let formatter = ISO8601DateFormatter()  // one per call: not Sendable, and schedules are written rarely
        formatter.formatOptions = fraction ? [.withInternetDateTime, .withFractionalSeconds] : [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date, nil when the day is not in its month.
    package static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int? {
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard (1...12).contains(month), (1...lengths[month - 1]).contains(day) else { return nil }
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

extension FieldErrors {
    /// A schedule's fields: each an RFC 3339 date-time from 2000 to 3000, `unpublishAt` after `publishAt` when both
    /// are given (the database checks the pair again against what is stored).
    package mutating func schedule(publishAt: String?, unpublishAt: String?) -> (publishAt: Date?, unpublishAt: Date?) {
        let publish = moment(publishAt, "publishAt")
        let unpublish = moment(unpublishAt, "unpublishAt")
        if let publish, let unpublish, publish >= unpublish { refuse("unpublishAt", "must be later than publishAt") }
        return (publish, unpublish)
    }

    private mutating func moment(_ text: String?, _ field: String) -> Date? {
        guard let text else { return nil }
        guard let date = RFC3339.date(text) else {
            refuse(field, "must be an RFC 3339 date-time such as 2026-12-24T00:00:00Z")
            return nil
        }
        if date < Schedule.earliest || date >= Schedule.latest {
            refuse(field, "must be a moment from the year 2000 to 2999")
        }
        return date
    }

    private mutating func refuse(_ field: String, _ message: String) {
        scheduleIssues.append(FieldIssue(field: field, message: message))
    }
}

/// A PATCH's changes to a schedule: each end absent (kept), null (opened) or a moment.
package struct SchedulePatch: Sendable {
    package var publishAt: PatchField<String>
    package var unpublishAt: PatchField<String>

    /// Whether the PATCH sets `publishAt` (a moment or null), and the moment.
    package var setsPublish: Bool { publishAt != .absent }
    package var setsUnpublish: Bool { unpublishAt != .absent }
    package var publish: Date? { publishAt.value.flatMap(RFC3339.date) }
    package var unpublish: Date? { unpublishAt.value.flatMap(RFC3339.date) }

    package init(publishAt: PatchField<String>, unpublishAt: PatchField<String>) {
        self.publishAt = publishAt
        self.unpublishAt = unpublishAt
    }
}
