import Foundation
import Testing

@testable import StickerCatalogClient

/// The placeholder colour a manifest carries: read into sRGB components, a malformed one (a server's lie) read as none.
@Suite struct PlaceholderColourTests {
    @Test func aColourIsReadIntoItsComponents() throws {
        let colour = try #require(PlaceholderColour("#ff8000cc"))
        #expect(colour.red == 1 && colour.blue == 0 && colour.alpha == 0.8)
        #expect(abs(colour.green - 128.0 / 255) < 1e-9)
        #expect(PlaceholderColour("#FF8000CC") == colour)
    }

    @Test func aMalformedColourIsNone() {
        for text in ["ff8000cc", "#ff8000", "#ff8000cc0", "#ff8000cg", "#ff80 0cc", "", "#", "#\u{e9}f8000cc"] {
            #expect(PlaceholderColour(text) == nil, "\(text)")
        }
    }

    @Test func aManifestStickerCarriesItsColour() throws {
        var json = GroupIndexTests.sticker("s1")
        json["placeholder"] = "#10203040"
        let sticker = try JSONDecoder().decode(
            ManifestSticker.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(sticker.placeholderColour == PlaceholderColour("#10203040"))
        json["placeholder"] = "#nonsense"
        let lying = try JSONDecoder().decode(ManifestSticker.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(lying.placeholderColour == nil)
        json["placeholder"] = nil
        let older = try JSONDecoder().decode(ManifestSticker.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(older.placeholder == nil && older.placeholderColour == nil)
    }
}
