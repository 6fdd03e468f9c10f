import Foundation

/// Each sticker's trending score in each window, read at one moment; higher is hotter. Stickers never sent have none.
package struct StickerScores: Sendable, Equatable {
    package var day: [UUID: Double]
    package var week: [UUID: Double]

    package init(day: [UUID: Double] = [:], week: [UUID: Double] = [:]) {
        (self.day, self.week) = (day, week)
    }

    package subscript(window: TrendWindow) -> [UUID: Double] { window == .day ? day : week }

    /// Scores from hourly send counts (sticker, hour, sends) seen at `now` (hours since 1970): each window's decayed
    /// sum over its lookback. The store sums in SQL; this is the same rule, for tests and for a store without SQL.
    package init(sends: [(sticker: UUID, hour: Int64, count: Int64)], now: Double) {
        var day: [UUID: Double] = [:]
        var week: [UUID: Double] = [:]
        for (sticker, hour, count) in sends {
            for window in TrendWindow.allCases where Double(hour) >= now - Double(window.lookbackHours) {
                let score = Double(count) * window.weight(hour: hour, now: now)
                if window == .day { day[sticker, default: 0] += score } else { week[sticker, default: 0] += score }
            }
        }
        self.init(day: day, week: week)
    }
}
