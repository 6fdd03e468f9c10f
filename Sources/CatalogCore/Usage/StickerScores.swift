import Foundation

/// Each sticker's trending score in each window, read at one moment; higher is hotter. Stickers never sent have none.
/// PostgreSQL sums them (`UsageRepository.scores`) by the rule `TrendWindow` states.
package struct StickerScores: Sendable, Equatable {
    package var day: [UUID: Double]
    package var week: [UUID: Double]

    package init(day: [UUID: Double] = [:], week: [UUID: Double] = [:]) {
        (self.day, self.week) = (day, week)
    }

    package subscript(window: TrendWindow) -> [UUID: Double] { window == .day ? day : week }
}
