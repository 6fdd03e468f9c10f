import CatalogCore
import Logging
import NIOPosix
import StickerImage

/// The candy catalog every newcomer sees first (BRIEF.md): three groups, nine stickers, the chocoholic filter.
package enum DemoCatalog {
    package struct Item {
        package let name: String
        package let description: String
        package let keywords: [String]
        package let emoji: [String]
    }

    package static let groups:
        [(id: String, name: String, flags: [String], localized: [String: String], items: [Item])] = [
            (
                "chewy", "Chewy", [], ["fr": "Moelleux", "de": "Weich"],
                [
                    Item(
                        name: "Caramel", description: "A golden caramel square in its twisted wrapper",
                        keywords: ["caramel", "toffee"], emoji: ["🍮"]),
                    Item(
                        name: "GummiBear", description: "A red gummi bear", keywords: ["gummy", "bear"], emoji: ["🧸"]),
                    Item(
                        name: "SourCandy", description: "A round green sour candy dusted with sugar",
                        keywords: ["sour", "lime", "lemon"], emoji: ["🍋"]),
                ]
            ),
            (
                "chocolate", "Chocolate", ["chocolate"], ["fr": "Chocolat", "de": "Schokolade"],
                [
                    Item(
                        name: "ChocolateBar", description: "A milk chocolate bar half out of its red wrapper",
                        keywords: ["bar", "milk"], emoji: ["🍫"]),
                    Item(
                        name: "ChocolateChip", description: "A cookie studded with chocolate chips",
                        keywords: ["cookie", "chip"], emoji: ["🍪"]),
                    Item(
                        name: "DarkChocolate", description: "A bar of dark chocolate", keywords: ["dark", "cocoa"],
                        emoji: ["🍫"]),
                ]
            ),
            (
                "crunchy", "Crunchy", [], ["fr": "Croquant", "de": "Knusprig"],
                [
                    Item(
                        name: "CandyCane", description: "A red and white striped candy cane",
                        keywords: ["cane", "peppermint"], emoji: ["🍬"]),
                    Item(
                        name: "JawBreaker", description: "A jawbreaker cut open to show its colourful layers",
                        keywords: ["jawbreaker", "gobstopper"], emoji: ["🍬"]),
                    Item(
                        name: "Lollipop", description: "A pink and yellow swirl lollipop",
                        keywords: ["lollipop", "swirl"], emoji: ["🍭"]),
                ]
            ),
        ]

    /// Each group's line under its name in a browse list, with its translations.
    package static let descriptions: [String: (text: String, localized: [String: String])] = [
        "chewy": ("Soft sweets to chew on", ["fr": "Des douceurs moelleuses", "de": "Weiche Süßigkeiten zum Kauen"]),
        "chocolate": ("For chocoholics", ["fr": "Pour les accros au chocolat", "de": "Für Schokoladensüchtige"]),
        "crunchy": ("Hard candy that crunches", ["fr": "Des bonbons qui croquent", "de": "Bonbons, die knacken"]),
    ]

    /// The demo as a seed: the art is drawn by `DemoArt`, validated and rendered like any upload, off the event loop.
    package static func seed(validator: StickerValidator) async throws -> CatalogSeed {
        try await NIOThreadPool.singleton.runIfActive {
            let seeded = try Self.groups.map { group in
                CatalogSeed.Group(
                    draft: GroupDraft(
                        id: group.id, name: group.name, localizedNames: group.localized, flags: group.flags,
                        description: descriptions[group.id]?.text,
                        localizedDescriptions: descriptions[group.id]?.localized),
                    items: try group.items.map { item in
                        var draft = StickerDraft(name: item.name, description: item.description)
                        (draft.keywords, draft.emoji) = (item.keywords, item.emoji)
                        let (info, renditions) = try validator.validateRendering(DemoArt.png(item.name) ?? [])
                        return CatalogSeed.Item(draft: draft, info: info, renditions: renditions)
                    })
            }
            return CatalogSeed(
                groups: seeded,
                filters: [StickerFilter(name: "chocoholic", title: "Chocoholic mode", flags: ["chocolate"])])
        }
    }

    /// Loads the demo when no group exists yet, all of it or nothing.
    package static func loadIfEmpty(
        into catalog: any CatalogSeeding, validator: StickerValidator, logger: Logger
    ) async throws {
        if try await catalog.loadIfEmpty(try await seed(validator: validator)) {
            logger.info("Loaded the demo catalog: Chewy, Chocolate and Crunchy, with the chocoholic filter")
        } else {
            logger.info("Catalog is not empty; demo catalog not loaded")
        }
    }
}
