import Foundation
import Testing
@testable import StickerCatalog
import StickerImage

@Suite("Filtering, localisation and manifest building (pure functions)")
struct CatalogLogicTests {
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
        #expect(localized(names, locale: "pt-br", fallback: "Chocolate") == "Chocolate BR")
        #expect(localized(names, locale: "pt", fallback: "Chocolate") == "Chocolate BR")
        #expect(localized(names, locale: "de", fallback: "Chocolate") == "Chocolate")
        #expect(localized(names, locale: nil, fallback: "Chocolate") == "Chocolate")
    }

    @Test("Slugs, flags, language tags and product ids follow their rules")
    func fieldRules() {
        for ok in ["chocolate", "a", "x-1", String(repeating: "a", count: 64)] { #expect(Validate.isSlug(ok), "\(ok)") }
        for bad in ["", "-a", "a-", "Caps", "a b", "é", String(repeating: "a", count: 65)] { #expect(!Validate.isSlug(bad), "\(bad)") }
        for ok in ["chocolate", "dark_70", "x-y", String(repeating: "f", count: 32)] { #expect(Validate.isFlag(ok), "\(ok)") }
        for bad in ["", "1abc", "_a", "Dark", "a,b", String(repeating: "f", count: 33)] { #expect(!Validate.isFlag(bad), "\(bad)") }
        for ok in ["fr", "pt-BR", "pt_BR", "zh-Hant-TW", "gsw"] { #expect(Validate.isLocale(ok), "\(ok)") }
        for bad in ["", "f", "fren", "fr-", "fr--CA", "fr-C", "zh-Hant-TW-x1", "f1", " fr"] { #expect(!Validate.isLocale(bad), "\(bad)") }
        for ok in ["com.example.premium", "pack_1-a"] { #expect(Validate.isProductId(ok), "\(ok)") }
        for bad in ["", "com example", "ü", String(repeating: "p", count: 101)] { #expect(!Validate.isProductId(bad), "\(bad)") }
    }

    @Test("Manifest queries are validated and normalised", arguments: [
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
            #expect(error.code == code)
            #expect(error.status == .badRequest)
        }
    }

    @Test("Empty groups drop out, locked groups hide their stickers, the chosen cover wins")
    func build() throws {
        let now = Date()
        func group(_ id: String, product: String? = nil, cover: UUID? = nil) -> StickerGroup {
            StickerGroup(id: id, name: id, localizedNames: [:], sizeClass: .medium, flags: [], productId: product, position: 0,
                         published: true, coverStickerId: cover, createdAt: now, updatedAt: now)
        }
        func sticker(_ group: String, _ sha: String, flags: [String] = []) -> Sticker {
            Sticker(id: UUID(), groupId: group, name: sha, description: "", localizedDescriptions: [:], flags: flags, keywords: [],
                    emoji: [], position: 0, asset: Asset(sha256: sha, width: 408, height: 408, bytes: 1, animated: false, frames: 1, durationMs: 0, loops: 0),
                    createdAt: now, updatedAt: now)
        }
        let second = sticker("free", "b")
        let snapshot = CatalogSnapshot(
            revision: 7,
            groups: [group("empty"), group("free", cover: second.id), group("premium", product: "com.example.premium")],
            stickers: ["free": [sticker("free", "a", flags: ["x"]), second], "premium": [sticker("premium", "c")]],
            filters: ["x-only": StickerFilter(name: "x-only", title: "X", flags: ["x"])])
        let linker = AssetLinker(publicBaseURL: "https://cdn.example.com/")
        let manifest = try Manifest.build(from: snapshot, query: ManifestQuery(), linker: linker)
        #expect(manifest.revision == 7)
        #expect(manifest.groups.map(\.id) == ["free", "premium"])
        #expect(manifest.groups[0].cover?.sha256 == "b")
        #expect(manifest.groups[0].cover?.url == "https://cdn.example.com/v1/assets/b.png")
        #expect(manifest.groups[1].locked && manifest.groups[1].stickers.isEmpty && manifest.groups[1].cover?.sha256 == "c")
        let filtered = try Manifest.build(from: snapshot, query: ManifestQuery(filter: "x-only"), linker: linker)
        #expect(filtered.groups.map(\.id) == ["free"])
        #expect(filtered.groups[0].stickers.map(\.asset.sha256) == ["a"])
        #expect(throws: Problem.self) { try Manifest.build(from: snapshot, query: ManifestQuery(filter: "nope"), linker: linker) }
    }
}
