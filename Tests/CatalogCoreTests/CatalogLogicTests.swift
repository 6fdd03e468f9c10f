import CatalogCore
import Foundation
import StickerImage
import TestSupport
import Testing

@Suite("Filtering, localisation and manifest building (pure functions)")
struct CatalogLogicTests {
    @Test("A WebP view of a sticker without WebP renditions gets its PNG rendition of that size, never the full upload")
    func webpFallsBackToThePNGRendition() {
        let upload = Asset(
            sha256: String(repeating: "a", count: 64), width: 618, height: 618, bytes: 400_000, animated: true,
            frames: 30,
            durationMs: 1000, loops: 0)
        let png = { (edge: Int, still: Bool) in
            StickerRendition(
                edge: edge, still: still, format: .png,
                asset: Asset(
                    sha256: String(repeating: still ? "b" : "c", count: 63) + "\(edge % 10)", width: edge, height: edge,
                    bytes: edge, animated: !still, frames: still ? 1 : 30, durationMs: 0, loops: 0))
        }
        var sticker = Sticker(
            id: UUID(), groupId: "g", name: "n", description: "d", localizedDescriptions: [:], flags: [], keywords: [],
            emoji: [],
            position: 0, asset: upload, createdAt: Date(), updatedAt: Date())
        sticker.renditions = [png(200, true), png(200, false)]
        #expect(sticker.picture(edge: 200, format: .webp) == png(200, false).asset)
        #expect(sticker.picture(edge: 200, still: true, file: .webp) == png(200, true).asset)
        #expect(
            sticker.picture(edge: 300, format: .webp) == upload,
            "no rendition of that size at all: the upload, as before")
    }

    @Test("A group flag covers its stickers; a sticker flag selects only that sticker")
    func selection() {
        #expect(isSelected(requiredFlags: ["chocolate"], groupFlags: ["chocolate"], stickerFlags: []))
        #expect(isSelected(requiredFlags: ["chocolate"], groupFlags: [], stickerFlags: ["chocolate"]))
        #expect(!isSelected(requiredFlags: ["chocolate"], groupFlags: [], stickerFlags: ["caramel"]))
        #expect(isSelected(requiredFlags: ["chocolate", "dark"], groupFlags: ["chocolate"], stickerFlags: ["dark"]))
        #expect(!isSelected(requiredFlags: ["chocolate", "dark"], groupFlags: ["chocolate"], stickerFlags: []))
        #expect(isSelected(requiredFlags: [], groupFlags: [], stickerFlags: []))
    }

    @Test("Localised text falls back from region to language to the default")
    func localisation() {
        let names = ["fr": "Chocolat", "pt-BR": "Chocolate BR"]
        #expect(localized(names, locale: "fr", fallback: "Chocolate") == "Chocolat")
        #expect(localized(names, locale: "fr-CA", fallback: "Chocolate") == "Chocolat")
        #expect(localized(names, locale: LocaleTag.canonical("pt_br"), fallback: "Chocolate") == "Chocolate BR")
        #expect(localized(names, locale: "pt", fallback: "Chocolate") == "Chocolate BR")
        #expect(localized(names, locale: "de", fallback: "Chocolate") == "Chocolate")
        #expect(localized(names, locale: nil, fallback: "Chocolate") == "Chocolate")
    }

    @Test("The language fallback is the alphabetically first region, whatever the dictionary's order")
    func deterministicFallback() {
        // Many dictionaries with the same content have many iteration orders; the pick must not follow them.
        for seed in 0..<50 {
            var names: [String: String] = [:]
            var generator = SplitMix(seed)
            for tag in ["pt-PT", "pt-BR", "pt-AO", "pt-MZ"].shuffled(using: &generator) { names[tag] = tag }
            #expect(localized(names, locale: "pt", fallback: "x") == "pt-AO")
            #expect(localized(names, locale: "pt-CV", fallback: "x") == "pt-AO")
            #expect(localized(names, locale: "pt-PT", fallback: "x") == "pt-PT")
        }
    }

    @Test("Language tags are stored in canonical BCP 47 form")
    func canonicalTags() {
        let cases = [
            "fr": "fr", "FR": "fr", "pt_br": "pt-BR", "PT-br": "pt-BR", "zh_hant_tw": "zh-Hant-TW", "es-419": "es-419",
            "gsw": "gsw", "de-CH-1996": "de-CH-1996",
        ]
        for (tag, canonical) in cases { #expect(LocaleTag.canonical(tag) == canonical, "\(tag)") }
        for bad in ["", "f", "fren", "fr-", "fr--CA", "fr-C", "zh-Hant-TW-x1", "f1", " fr", "fr\u{0}"] {
            #expect(LocaleTag.canonical(bad) == nil, "\(bad)")
        }
        #expect(LocaleTag.lookupChain("zh-Hant-TW") == ["zh-Hant-TW", "zh-Hant", "zh"])
    }

    @Test("Requested tags that resolve to the same catalog locale read the same texts, for every field")
    func resolution() {
        let fields: [[String: String]] = [
            ["fr": "a", "pt-BR": "b"], ["pt": "c", "pt-PT": "d"], ["zh-Hant": "e"], ["de-CH": "f"], [:],
        ]
        let catalog = Set(fields.flatMap(\.keys))
        let requests = [
            "fr", "fr-CA", "fr-Latn-FR", "pt", "pt-BR", "pt-PT", "pt-AO", "zh", "zh-Hant", "zh-Hant-TW", "de", "de-AT",
            "de-CH", "en", "en-GB", "xx",
        ]
        for a in requests {
            let resolved = resolvedLocale(a, catalogLocales: catalog)
            // Resolving is idempotent, and the resolved tag reads what the request reads.
            #expect(resolvedLocale(resolved, catalogLocales: catalog) == resolved, "\(a)")
            for field in fields {
                #expect(
                    localized(field, locale: a, fallback: "-") == localized(field, locale: resolved, fallback: "-"),
                    "\(a) vs \(resolved ?? "nil")")
            }
        }
        #expect(resolvedLocale("en-GB", catalogLocales: catalog) == nil)
        #expect(resolvedLocale("de-AT", catalogLocales: catalog) == "de")
        #expect(resolvedLocale("pt-AO", catalogLocales: catalog) == "pt")
        #expect(resolvedLocale("zh-Hant-TW", catalogLocales: catalog) == "zh-Hant")
    }

    @Test("Texts are 1 to N code points (as PostgreSQL counts) with no control characters")
    func textRules() {
        #expect(Validate.isText("Caramel", maxLength: 100))
        #expect(!Validate.isText("", maxLength: 100))
        #expect(!Validate.isText("   ", maxLength: 100))
        #expect(!Validate.isText("a\u{0}b", maxLength: 100))
        #expect(!Validate.isText("line\nbreak", maxLength: 100))
        // A family emoji is one grapheme but five code points: PostgreSQL's char_length says 5.
        let family = "👨‍👩‍👧"
        #expect(family.count == 1 && family.unicodeScalars.count == 5)
        #expect(Validate.isText(String(repeating: family, count: 30), maxLength: 150))
        #expect(!Validate.isText(String(repeating: family, count: 31), maxLength: 150))
    }

    @Test("Slugs, flags, language tags and product ids follow their rules")
    func fieldRules() {
        for ok in ["chocolate", "a", "x-1", String(repeating: "a", count: 64)] { #expect(Validate.isSlug(ok), "\(ok)") }
        for bad in ["", "-a", "a-", "Caps", "a b", "é", String(repeating: "a", count: 65)] {
            #expect(!Validate.isSlug(bad), "\(bad)")
        }
        for ok in ["chocolate", "dark_70", "x-y", String(repeating: "f", count: 32)] {
            #expect(Validate.isFlag(ok), "\(ok)")
        }
        for bad in ["", "1abc", "_a", "Dark", "a,b", String(repeating: "f", count: 33)] {
            #expect(!Validate.isFlag(bad), "\(bad)")
        }
        for ok in ["com.example.premium", "pack_1-a"] { #expect(Validate.isProductId(ok), "\(ok)") }
        for bad in ["", "com example", "ü", String(repeating: "p", count: 101)] {
            #expect(!Validate.isProductId(bad), "\(bad)")
        }
    }

    @Test(
        "Manifest queries are validated and normalised",
        arguments: [
            (["flags": "b,a,b"], nil as String?),
            (["scale": "4"], "invalid_parameter"),
            (["size": "huge"], "invalid_parameter"),
            (["locale": "not a locale"], "invalid_parameter"),
            (["flags": "UPPER"], "invalid_parameter"),
            (["filter": "../x"], "invalid_parameter"),
        ])
    func queries(parameters: [String: String], code: String?) {
        do {
            let query = try ManifestQuery(parameters: parameters)
            #expect(code == nil)
            #expect(query.flags == ["a", "b"])
        } catch {
            // ManifestQuery throws CatalogError only; HTTP's problem for it is tested through the API.
            guard case .invalidParameter = error else {
                Issue.record("\(error)")
                return
            }
            #expect(code == "invalid_parameter")
        }
    }

    @Test("Empty groups drop out, locked groups hide their stickers, the chosen cover wins")
    func build() throws {
        let now = Date()
        func group(_ id: String, product: String? = nil, cover: UUID? = nil) -> StickerGroup {
            StickerGroup(
                id: id, name: id, localizedNames: [:], sizeClass: .medium, flags: [], productId: product, position: 0,
                published: true, coverStickerId: cover, createdAt: now, updatedAt: now)
        }
        func sticker(_ group: String, _ sha: String, flags: [String] = []) -> Sticker {
            Sticker(
                id: UUID(), groupId: group, name: sha, description: "", localizedDescriptions: [:], flags: flags,
                keywords: [],
                emoji: [], position: 0,
                asset: Asset(
                    sha256: sha, width: 408, height: 408, bytes: 1, animated: false, frames: 1, durationMs: 0, loops: 0),
                createdAt: now, updatedAt: now)
        }
        let second = sticker("free", "b")
        let snapshot = CatalogSnapshot(
            revision: 7,
            groups: [
                group("empty"), group("free", cover: second.id), group("premium", product: "com.example.premium"),
            ],
            stickers: ["free": [sticker("free", "a", flags: ["x"]), second], "premium": [sticker("premium", "c")]],
            filters: ["x-only": StickerFilter(name: "x-only", title: "X", flags: ["x"])])
        let linker = AssetLinker(publicBaseURL: "https://cdn.example.com/")
        let manifest = try Manifest.build(from: snapshot, query: ManifestQuery(), linker: linker)
        #expect(manifest.revision == 7)
        #expect(manifest.groups.map(\.id) == ["free", "premium"])
        #expect(manifest.groups[0].cover?.sha256 == "b")
        #expect(manifest.groups[0].cover?.url == "https://cdn.example.com/v1/assets/b.png")
        #expect(
            manifest.groups[1].locked && manifest.groups[1].stickers.isEmpty && manifest.groups[1].cover?.sha256 == "c")
        let filtered = try Manifest.build(from: snapshot, query: ManifestQuery(filter: "x-only"), linker: linker)
        #expect(filtered.groups.map(\.id) == ["free"])
        #expect(filtered.groups[0].stickers.map(\.asset.sha256) == ["a"])
        #expect(throws: CatalogError.unknownFilter("nope")) {
            try Manifest.build(from: snapshot, query: ManifestQuery(filter: "nope"), linker: linker)
        }
    }
}
