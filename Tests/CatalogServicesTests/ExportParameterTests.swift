import CatalogCore
import CatalogServices
import StickerImage
import StickerPacks
import Testing

/// Every export parameter is checked whichever the platform: a parameter a platform ignores is still part of the query
/// (schemathesis found `telegram?author=` 129 characters long answered 200).
@Suite struct ExportParameterTests {
    static let tooLong = String(repeating: "a", count: 129)

    @Test(
        "A malformed publisher, author or bot is invalid_parameter for every platform",
        arguments: [
            ("publisher", tooLong), ("author", tooLong), ("author", " "), ("bot", "@stickerbot"),
        ])
    func malformed(key: String, value: String) {
        for platform in PackPlatform.allCases {
            // Telegram needs a bot; a good one keeps its absence from being the refusal.
            var parameters = [key: value]
            if key != "bot" { parameters["bot"] = "candy_stickers_bot" }
            #expect(throws: CatalogError.invalidParameter(name: key, rule: Self.rules[key]!), "\(platform) \(key)") {
                _ = try CatalogExport.exporter(platform, parameters: parameters, rules: StickerRules())
            }
        }
        // The Xcode export takes no exporter: its route checks the same parameters.
        #expect(throws: CatalogError.self) { try CatalogExport.checkParameters([key: value]) }
    }

    @Test("Well-formed parameters a platform ignores are accepted")
    func ignoredButWellFormed() throws {
        let parameters = ["publisher": "Candy Co", "author": "Candy Co", "bot": "candy_stickers_bot"]
        for platform in PackPlatform.allCases {
            _ = try CatalogExport.exporter(platform, parameters: parameters, rules: StickerRules())
        }
        try CatalogExport.checkParameters(parameters)
    }

    static let rules = [
        "publisher": "must be 1 to 128 characters of text",
        "author": "must be 1 to 128 characters of text",
        "bot": "must be a bot's username: 5-32 letters, digits and underscores, ending in bot, without @",
    ]
}
