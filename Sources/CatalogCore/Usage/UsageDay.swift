import Foundation

/// A UTC day as days since 1970-01-01, read and written as `YYYY-MM-DD` (JSON Schema's `date`).
package struct UsageDay: Sendable, Hashable, Comparable, Strideable {
    package var number: Int

    package init(number: Int) { self.number = number }

    /// The day `date` falls in (UTC).
    package init(_ date: Date) { number = Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }

    /// `YYYY-MM-DD`, a real day of year 1 to 9999; nil for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            text.utf8.allSatisfy({ $0 == 45 || ($0 >= 48 && $0 <= 57) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]), year >= 1,
            (1...12).contains(month), day >= 1,
            let number = RFC3339.daysSinceEpoch(year: year, month: month, day: day)
        else { return nil }
        self.number = number
    }

    /// `YYYY-MM-DD` (Howard Hinnant's `civil_from_days`).
    package var text: String {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    /// Midnight UTC beginning this day.
    package var start: Date { Date(timeIntervalSince1970: Double(number) * 86_400) }

    package static func < (lhs: Self, rhs: Self) -> Bool { lhs.number < rhs.number }
    package func distance(to other: Self) -> Int { other.number - number }
    package func advanced(by days: Int) -> Self { Self(number: number + days) }
}
