import Foundation
import TestSupport
import Testing

@testable import StickerImage

@Suite("Hostile and broken input, generated")
struct HostileInputTests {
    let validator = StickerValidator()

    func code(_ bytes: [UInt8]) -> String? {
        do {
            _ = try validator.validate(bytes)
            return nil
        } catch { return error.code }
    }

    @Test("Truncating a valid still or animated sticker at any chunk boundary is refused")
    func truncation() {
        for sample in [Samples.sticker, APNGWriter.animation(side: 408, frames: 3).bytes] {
            let chunks = try! PNGChunkWalker.chunks(of: sample).get()
            for chunk in chunks {
                for cut in [chunk.whole.lowerBound, chunk.dataOffset, chunk.whole.upperBound - 1]
                where cut < sample.count {
                    #expect(code(Array(sample.prefix(cut))) != nil, "cut at \(cut) in \(chunk.type)")
                }
            }
        }
    }

    @Test("A flipped bit in any chunk, data or CRC, is refused")
    func bitFlips() {
        let sample = APNGWriter.animation(side: 408, frames: 3).bytes
        for chunk in try! PNGChunkWalker.chunks(of: sample).get() {
            for offset in [chunk.whole.lowerBound + 5, chunk.dataOffset + chunk.length / 2, chunk.whole.upperBound - 1]
            {
                var bytes = sample
                bytes[offset] ^= 0x10
                #expect(code(bytes) != nil, "bit flipped at \(offset) in \(chunk.type)")
            }
        }
    }

    @Test("Hostile headers and streams are refused before anything large is allocated")
    func hostile() {
        #expect(code(Samples.claiming(width: 100_000, height: 100_000)) == "dimensions_out_of_range")
        let judged = validator.judge(Samples.claiming(width: 100_000, height: 100_000), file: "x")
        #expect(!judged.valid && judged.code == "dimensions_out_of_range")
        #expect(throws: StickerRejection.corrupt("100000 x 100000 is more than 67108864 pixels, too large to decode")) {
            try validator.checkFormat(Samples.claiming(width: 100_000, height: 100_000))
        }
        // 1 GiB of zeros behind a 408 x 408 header: refused after inflating only what the image needs.
        let chunks = Samples.chunks(Samples.sticker)
        let bomb = Samples.assemble([chunks[0], ("IDAT", Samples.zeros(megabytes: 1024)), ("IEND", [])])
        let verdict = validator.judge(bomb, file: "bomb.png")
        #expect(!verdict.valid && verdict.code == "too_large", "an upload's first check is its size")
        do {
            try validator.checkFormat(bomb)
            Issue.record("the bomb was decoded")
        } catch {
            #expect(error.detail.contains("decompression bomb"), "\(error.detail)")
        }
        // A 2 MiB zTXt in a file of a few KB.
        let text = Array("Comment".utf8) + [0, 0] + Samples.zeros(megabytes: 2)
        let zTXt = Samples.assemble([chunks[0], ("zTXt", text)] + chunks.dropFirst())
        #expect(zTXt.count < 20_000)
        #expect(code(zTXt) == "corrupt_image")
        #expect(code(Samples.sticker + [0, 0, 0, 0]) == "corrupt_image")
        #expect(code(Samples.assemble(chunks.dropLast())) == "corrupt_image")
        #expect(code(Samples.assemble([chunks[0], ("ZZZZ", [1])] + chunks.dropFirst())) == "corrupt_image")
        #expect(code(Samples.jpeg) == "corrupt_image")
    }

    @Test(
        "Broken animations are refused with invalid_animation",
        arguments: [
            "outside", "gap", "repeat", "start", "zero", "low", "high", "dispose", "blend", "noActl", "empty",
            "offsetDefault",
        ])
    func brokenAnimations(kind: String) {
        var apng = APNGWriter.animation(side: 408, frames: 3)
        switch kind {
        case "outside": apng.frames[1] = .init(image: APNGWriter.solid(200, 200, 9), x: 300, y: 0)
        case "offsetDefault": apng.frames[0].x = 1
        case "gap": apng.sequenceMap = { $0 >= 3 ? $0 + 1 : $0 }
        case "repeat": apng.sequenceMap = { $0 == 3 ? 2 : $0 }
        case "start": apng.sequenceMap = { $0 + 1 }
        case "zero": apng.announcedFrames = 0
        case "low": apng.announcedFrames = 2
        case "high": apng.announcedFrames = 4
        case "dispose": apng.frames[1].dispose = 3
        case "blend": apng.frames[2].blend = 2
        default: break
        }
        var bytes = apng.bytes
        if kind == "noActl" {
            bytes = Samples.assemble(Samples.chunks(bytes).filter { $0.type != "acTL" })
        }
        if kind == "empty" {
            // The last frame's fcTL claims a width of 0.
            var chunks = Samples.chunks(bytes)
            let last = chunks.lastIndex { $0.type == "fcTL" }!
            chunks[last].data.replaceSubrange(4..<8, with: [0, 0, 0, 0])
            bytes = Samples.assemble(chunks)
        }
        #expect(code(bytes) == "invalid_animation", "\(kind)")
    }

    @Test("Valid animations report frames, play time and loops; limits give their own codes")
    func animationLimits() throws {
        var apng = APNGWriter.animation(side: 408, frames: 30, delay: 1, denominator: 0)
        apng.loops = 3
        let info = try validator.validate(apng.bytes)
        #expect(info.animated && info.frames == 30 && info.durationMs == 300 && info.loops == 3)
        #expect(code(APNGWriter.animation(side: 300, frames: 101).bytes) == "too_many_frames")
        #expect(
            code(APNGWriter.animation(side: 300, frames: 11, delay: 1, denominator: 1).bytes) == "animation_too_long")
        let tenThousand = APNGWriter.animation(side: 1, frames: 10_000).bytes
        let judged = validator.judge(tenThousand, file: "x")
        #expect(!judged.valid && judged.frames == 10_000 && judged.code == "too_large")
        #expect(throws: Never.self) { try validator.checkFormat(tenThousand) }
        var frames = StickerRules()
        frames.sideRange = 1...618
        #expect(throws: StickerRejection.self) { try StickerValidator(rules: frames).validate(tenThousand) }
    }

    @Test("Privacy metadata is stripped from what is stored, without touching the image data")
    func stripping() throws {
        let chunks = Samples.chunks(Samples.sticker)
        let exif: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8]
        let text: [UInt8] = Array("Author".utf8) + [0] + Array("Jane".utf8)
        let international: [UInt8] = Array("Where".utf8) + [0, 0, 0, 0, 0] + Array("Paris".utf8)
        var metadata: [(type: String, data: [UInt8])] = [
            chunks[0], ("tEXt", text), ("tIME", [7, 234, 11, 22, 1, 2, 3]), ("eXIf", exif),
        ]
        metadata += chunks.dropFirst()
        metadata.insert(("iTXt", international), at: metadata.count - 1)
        let tagged = Samples.assemble(metadata)
        let info = try validator.validate(tagged)
        let kept = Samples.chunks(info.storedBytes).map(\.type)
        #expect(!kept.contains("tEXt") && !kept.contains("tIME") && !kept.contains("eXIf") && !kept.contains("iTXt"))
        #expect(info.storedBytes == Samples.sticker)
        #expect(
            try PNGCodec.decode(info.storedBytes, maxPixels: 1 << 20) == PNGCodec.decode(tagged, maxPixels: 1 << 20))
    }
}
