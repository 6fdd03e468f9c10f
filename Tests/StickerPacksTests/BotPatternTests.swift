import Foundation
import StickerPacks
import Testing

/// openapi.yaml states the `bot` parameter's bound as the code applies it: schemathesis generates from the spec, and a
/// value the spec allows must not be refused (nor one it refuses served).
@Suite struct BotPatternTests {
    /// The `bot` parameter's pattern, read from openapi.yaml beside the sources.
    static func specPattern() throws -> String {
        let spec = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appending(path: "../../openapi.yaml")
        let lines = try String(contentsOf: spec, encoding: .utf8).components(separatedBy: "\n")
        let at = try #require(lines.firstIndex { $0.contains("- name: bot") })
        let schema = try #require(lines[at...].first { $0.contains("pattern: \"") })
        let quoted = try #require(
            schema.components(separatedBy: "pattern: \"").last?.components(separatedBy: "\"").first)
        return quoted.replacingOccurrences(of: "\\\\", with: "\\")
    }

    @Test("The spec's bot pattern accepts exactly the usernames the Telegram export accepts")
    func specMatchesCode() throws {
        let regex = try NSRegularExpression(pattern: try Self.specPattern())
        let candidates = [
            "Candy_bot", "candybot", "a_bot", "ab__cbot", "candy__bot", "_candybot", "1candybot", "candy", "CandyBOT",
            "c_a_n_d_y_bot", "candy_bot_", "Candy-bot", "abot", String(repeating: "a", count: 29) + "bot",
            String(repeating: "a", count: 30) + "bot", "caf\u{E9}bot", "candy__", "ab_bot",
        ]
        for name in candidates {
            let range = NSRange(name.startIndex..., in: name)
            let spec = regex.firstMatch(in: name, range: range) != nil
            #expect(spec == TelegramPacks.isBotUsername(name), "\(name): spec \(spec)")
        }
    }
}
