import Foundation

/// What an admin asks of the usage counts: stickers or groups, a period of whole UTC days, one action, an order and a
/// page. Every parameter checked.
package struct UsageStatsQuery: Sendable, Hashable {
    package enum Subject: String, Sendable { case stickers, groups }
    package enum Order: String, CaseIterable, Sendable {
        case totalDescending = "-total"
        case total, name
        case nameDescending = "-name"
    }

    package static let maxDays = 401
    package static let defaultDays = 30
    package static let maxLimit = 500

    package var subject: Subject
    package var from: UsageDay
    package var to: UsageDay
    package var action = UsageAction.sent
    package var order = Order.totalDescending
    package var limit = 50
    package var offset = 0
    package var group: String?
    package var sticker: UUID?

    /// The days of the period, in order.
    package var days: [UsageDay] { Array(from...to) }

    /// From `from`, `to`, `action`, `sort`, `limit`, `group` and (stickers only) `sticker`; `today` when `to` is absent.
    package init(
        _ subject: Subject, parameters: [String: String], offset: Int, today: UsageDay
    ) throws(CatalogError) {
        self.subject = subject
        self.offset = offset
        to = try Self.day(parameters["to"], "to") ?? today
        from = try Self.day(parameters["from"], "from") ?? to.advanced(by: 1 - Self.defaultDays)
        guard from <= to, from.distance(to: to) < Self.maxDays else {
            throw .invalidParameter(name: "from", rule: "must be on or before to, at most \(Self.maxDays) days before")
        }
        if let raw = parameters["action"] {
            guard let value = UsageAction(rawValue: raw) else {
                throw .invalidParameter(name: "action", rule: "must be sent, viewed or tapped")
            }
            action = value
        }
        if let raw = parameters["sort"] {
            guard let value = Order(rawValue: raw) else {
                throw .invalidParameter(name: "sort", rule: "must be -total, total, name or -name")
            }
            order = value
        }
        if let raw = parameters["limit"] {
            guard let value = Int(raw), (1...Self.maxLimit).contains(value) else {
                throw .invalidParameter(name: "limit", rule: "must be a whole number from 1 to \(Self.maxLimit)")
            }
            limit = value
        }
        if let raw = parameters["group"] {
            guard Validate.isSlug(raw) else { throw .invalidParameter(name: "group", rule: "must be a group id") }
            group = raw
        }
        if subject == .stickers, let raw = parameters["sticker"] {
            guard raw.utf8.count == 36, let id = UUID(uuidString: raw) else {
                throw .invalidParameter(name: "sticker", rule: "must be a sticker id (a UUID)")
            }
            sticker = id
        }
    }

    private static func day(_ raw: String?, _ name: String) throws(CatalogError) -> UsageDay? {
        guard let raw else { return nil }
        guard let day = UsageDay(raw) else {
            throw .invalidParameter(name: name, rule: "must be a date such as 2026-11-28")
        }
        return day
    }
}

/// One page of counts: a row per sticker or group counted in the period, each with a count per day.
package struct UsageStats: Sendable, Equatable {
    package struct Row: Sendable, Equatable {
        package var id: String
        /// Its name now; nil when it was deleted.
        package var name: String?
        /// For a sticker: the group it was counted in (the latest, if it moved).
        package var group: String?
        package var total: Int64
        /// By day of the period.
        package var counts: [Int64]

        package init(id: String, name: String?, group: String?, total: Int64, counts: [Int64]) {
            (self.id, self.name, self.group, self.total, self.counts) = (id, name, group, total, counts)
        }
    }

    package var query: UsageStatsQuery
    /// Rows on every page.
    package var total: Int
    package var rows: [Row]

    package init(query: UsageStatsQuery, total: Int, rows: [Row]) {
        (self.query, self.total, self.rows) = (query, total, rows)
    }

    /// The offset of the next page; nil on the last.
    package var nextOffset: Int? {
        let end = query.offset + rows.count
        return end < total && !rows.isEmpty ? end : nil
    }
}
