import Foundation
import StickerImage

/// Images for tests: valid stickers drawn by the demo art, and precise corruptions of them.
package enum Samples {
    /// A valid 408 x 408 sticker with transparency.
    package static let sticker = DemoArt.png("Caramel")!
    package static let otherSticker = DemoArt.png("Lollipop")!

    /// The same picture without an alpha channel.
    package static let opaqueSticker: [UInt8] = {
        let image = try! PNGCodec.decode(sticker, maxPixels: 1 << 20)
        return PNGCodec.encode(image, alpha: false)
    }()

    /// A 32 x 32 RGBA image: valid PNG, too small for a sticker.
    package static let tiny = PNGCodec.encode(
        RGBAImage(width: 32, height: 32, pixels: [UInt8](repeating: 200, count: 32 * 32 * 4)))

    package static let jpeg: [UInt8] =
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 0, count: 64)
    /// The first bytes of a BMP and of an HEIC (an iPhone's photos): formats no sticker is taken in.
    package static let bmp: [UInt8] = Array("BM".utf8) + [UInt8](repeating: 0, count: 60)
    package static let heic: [UInt8] = [0, 0, 0, 24] + Array("ftypheic".utf8) + [UInt8](repeating: 0, count: 40)
    package static let gif: [UInt8] = Array("GIF89a".utf8) + [0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x3B]

    /// The chunks of a PNG as (type, data).
    package static func chunks(_ png: [UInt8]) -> [(type: String, data: [UInt8])] {
        try! PNGChunkWalker.chunks(of: png).get().map {
            ($0.type, Array(png[$0.dataOffset..<($0.dataOffset + $0.length)]))
        }
    }

    /// A PNG made of `chunks`, each with a correct CRC.
    package static func assemble(_ chunks: [(type: String, data: [UInt8])]) -> [UInt8] {
        chunks.reduce(ImageFormat.pngSignature) { $0 + PNGChunkWalker.encode(type: $1.type, data: $1.data) }
    }

    package static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The sticker with a damaged zlib stream inside a chunk whose CRC is right: only a full decode notices.
    package static let corruptPixels: [UInt8] = assemble(
        chunks(sticker).map { chunk in
            guard chunk.type == "IDAT" else { return chunk }
            var data = chunk.data
            for i in stride(from: data.count / 2, to: min(data.count, data.count / 2 + 16), by: 1) { data[i] ^= 0x5A }
            return (chunk.type, data)
        })

    /// The sticker with one bit flipped in its IDAT, CRC left as it was.
    package static let badCRC: [UInt8] = {
        var bytes = sticker
        let idat = try! PNGChunkWalker.chunks(of: sticker).get().first { $0.type == "IDAT" }!
        bytes[idat.dataOffset + 10] ^= 0x01
        return bytes
    }()

    /// A header claiming `width` x `height`, followed by the sticker's own data.
    package static func claiming(width: UInt32, height: UInt32) -> [UInt8] {
        assemble(
            chunks(sticker).map { chunk in
                chunk.type == "IHDR" ? (chunk.type, bigEndian(width) + bigEndian(height) + chunk.data[8...]) : chunk
            })
    }
}

/// ../shared/testdata, or STICKER_TESTDATA; tests that need it are skipped, saying so, when it is absent.
package enum TestData {
    package static let root: URL = {
        if let path = ProcessInfo.processInfo.environment["STICKER_TESTDATA"] { return URL(fileURLWithPath: path) }
        let package = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return package.deletingLastPathComponent().appending(path: "shared/testdata")
    }()

    package static var available: Bool {
        FileManager.default.fileExists(atPath: root.appending(path: "png/MANIFEST.tsv").path)
    }

    package static func png(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: root.appending(path: "png/\(path)")))
    }
}
