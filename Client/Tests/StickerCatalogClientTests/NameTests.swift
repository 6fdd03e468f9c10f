import Testing

@testable import StickerCatalogExport

@Suite struct NameTests {
    @Test func namesAreSafeForXcodeAndUnique() {
        var used = Set<String>()
        #expect(XCStickers.safeName("Choc. bar/2 🍫") == "Choc- bar-2")
        #expect(XCStickers.safeName("...") == "Sticker")
        #expect(
            XCStickers.unique("Toffee", in: &used) == "Toffee" && XCStickers.unique("toffee", in: &used) == "toffee-2")
    }
}
