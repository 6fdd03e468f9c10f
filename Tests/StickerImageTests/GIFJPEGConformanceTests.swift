import Foundation
import StickerImage
import TestSupport
import Testing

/// GIF and JPEG uploads against a corpus made at test time (`scripts/corpus/gif_jpeg.py`): each file's verdict as an
/// upload, each composited frame against a reference decoder (the browsers' GIF rules, which agree with ImageMagick's
/// coalesced frames but in two cases where ImageMagick is not what browsers show; identical), Pillow's upright JPEG
/// (within 1 a channel), and the renditions playing the same animation.
@Suite struct GIFJPEGConformanceTests {
    let validator = StickerValidator()

    func corpus() throws -> GeneratedCorpus {
        switch GeneratedCorpus.shared {
        case .success(let corpus): return corpus
        case .failure(let failure): throw failure
        }
    }

    @Test("Every file of the corpus gets the verdict an upload of it must get")
    func verdicts() throws {
        let cases = try corpus().cases
        var agreed = 0
        for item in cases {
            let verdict = validator.judge(try item.bytes, file: item.name)
            let got = verdict.valid ? "ok" : verdict.code ?? "?"
            if got == item.expect {
                agreed += 1
            } else {
                Issue.record(
                    "\(item.name) (\(item.note)): expected \(item.expect), got \(got): \(verdict.detail ?? "")")
            }
        }
        print("GIF and JPEG verdicts: \(agreed) of \(cases.count) as expected")
        #expect(cases.count >= 40)
        #expect(cases.contains { $0.kind == "gif" && $0.expect != "ok" })
        #expect(cases.contains { $0.kind == "jpeg" && $0.expect != "ok" })
    }

    @Test("Each frame is composited as the reference decoder composites it, with its delay and loop count")
    func frames() throws {
        var (files, frames) = (0, 0)
        for item in try corpus().cases where item.expect == "ok" {
            let bytes = try item.bytes
            let source = try StickerSource(bytes, rules: validator.rules)
            #expect((source.width, source.height) == (item.width, item.height), "\(item.name)")
            let reference = try item.referenceFrames()
            var pictures: [RGBAImage] = []
            var delays: [Int] = []
            try source.play(rules: validator.rules) {
                pictures.append($0)
            } canvas: { _, canvas, frame in
                pictures.append(canvas)
                delays.append(Int(frame.delayMs.rounded()))
            }
            // A still gives its picture once; an animation its first canvas as the still, then every canvas.
            let played = source.animation == nil ? pictures : Array(pictures.dropFirst())
            #expect(played.count == item.frames, "\(item.name): \(played.count) frames, \(item.frames) expected")
            for (index, (ours, theirs)) in zip(played, reference).enumerated() {
                let (worst, at) = GeneratedCorpus.worstDifference(ours.pixels, theirs)
                #expect(
                    worst <= item.tolerance,
                    "\(item.name) frame \(index): off by \(worst) at pixel (\(at % item.width), \(at / item.width))")
                frames += 1
            }
            if source.animation != nil {
                #expect(delays == item.delaysMs, "\(item.name): delays \(delays), expected \(item.delaysMs)")
                #expect(source.animation?.loops == item.loops, "\(item.name): loops")
            }
            files += 1
        }
        print("GIF and JPEG frames: \(frames) frames of \(files) files compared with the reference decoder")
        #expect(files >= 20)
    }

    @Test("A GIF's APNG rendition at its own size plays the reference's frames exactly; its WebP the same timing")
    func renditions() throws {
        var compared = 0
        for item in try corpus().cases where item.kind == "gif" && item.expect == "ok" && item.frames > 1 {
            let bytes = try item.bytes
            let (info, renditions) = try validator.validateRendering(bytes)
            #expect(info.format == .gif && info.frames == item.frames)
            let apng = try #require(
                renditions.first { !$0.still && $0.format == .png && $0.width == item.width }, "\(item.name)")
            let replay = try StickerSource(apng.bytes, rules: validator.rules)
            var canvases: [RGBAImage] = []
            try replay.play(rules: validator.rules) { _ in
            } canvas: { _, canvas, _ in
                canvases.append(canvas)
            }
            let reference = try item.referenceFrames()
            #expect(canvases.count == reference.count, "\(item.name)")
            for (index, (ours, theirs)) in zip(canvases, reference).enumerated() {
                let (worst, _) = GeneratedCorpus.worstDifference(ours.pixels, theirs)
                #expect(worst == 0, "\(item.name): APNG frame \(index) off by \(worst)")
            }
            #expect(replay.animation?.loops == item.loops)
            #expect(replay.animation?.durationMs == item.delaysMs.reduce(0, +))
            for webp in renditions where !webp.still && webp.format == .webp {
                let played = try StickerSource(webp.bytes, rules: validator.rules)
                #expect(played.animation?.frames.count == item.frames, "\(item.name) WebP \(webp.edge)")
                #expect(played.animation?.durationMs == item.delaysMs.reduce(0, +), "\(item.name) WebP \(webp.edge)")
                guard webp.width == item.width else { continue }
                // At its own size, frames drawn over the one before: the alpha of every canvas is the reference's
                // exactly (WebP keeps alpha lossless), the colour close.
                var shown: [RGBAImage] = []
                try played.play(rules: validator.rules) { _ in
                } canvas: { _, canvas, _ in
                    shown.append(canvas)
                }
                for (index, (ours, theirs)) in zip(shown, reference).enumerated() {
                    let alpha = Swift.stride(from: 3, to: theirs.count, by: 4).allSatisfy {
                        ours.pixels[$0] == theirs[$0]
                    }
                    #expect(alpha, "\(item.name): WebP frame \(index) alpha")
                    let image = RGBAImage(width: item.width, height: item.height, pixels: theirs)
                    #expect(ours.psnr(image) > 30, "\(item.name): WebP frame \(index)")
                }
            }
            compared += 1
        }
        #expect(compared >= 5)
    }

    @Test("Every EXIF orientation stands upright: all eight decode to orientation 1's picture")
    func orientations() throws {
        let cases = try corpus().cases.filter { $0.name.hasPrefix("jpeg-orientation-") }
        #expect(cases.count == 8)
        let upright = try #require(cases.first { $0.name.hasSuffix("-1") })
        let expected = try JPEGFile(try upright.bytes, rules: validator.rules).decode(maxPixels: 1 << 20)
        for item in cases {
            let file = try JPEGFile(try item.bytes, rules: validator.rules)
            let picture = try file.decode(maxPixels: 1 << 20)
            #expect((picture.width, picture.height) == (expected.width, expected.height), "\(item.name)")
            // Each is its own JPEG of the turned picture: the same within JPEG's loss, on average.
            let total = zip(picture.pixels, expected.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            #expect(Double(total) / Double(picture.pixels.count) < 2, "\(item.name): mean difference")
            // The stored file keeps the orientation and nothing else of its EXIF.
            let stored = try JPEGFile(file.strippedBytes, rules: validator.rules)
            #expect(stored.orientation == file.orientation)
        }
    }

    @Test("What is stored keeps the pictures and drops what can say who made them, where and when")
    func privacy() throws {
        let cases = try corpus().cases
        let secret = Array("Secret Camera at 51.5N".utf8)
        // A JPEG with EXIF (a camera's make), XMP and a comment, each saying the secret.
        let jpeg = try #require(cases.first { $0.name == "jpeg-orientation-6" })
        var bytes = try jpeg.bytes
        let exif =
            Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x0F, 0, 2]
            + [0, 0, 0, UInt8(secret.count), 0, 0, 0, 26, 0, 0, 0, 0] + secret
        let xmp = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + secret
        for (marker, body) in [(UInt8(0xE1), exif), (0xE1, xmp), (0xFE, secret)] {
            bytes.insert(
                contentsOf: [0xFF, marker, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body, at: 2)
        }
        let file = try JPEGFile(bytes, rules: validator.rules)
        let stored = file.strippedBytes
        #expect(!contains(stored, secret) && contains(bytes, secret))
        let kept = try JPEGFile(stored, rules: validator.rules)
        #expect(kept.orientation == .right && (kept.width, kept.height) == (file.width, file.height))
        #expect(try kept.decode(maxPixels: 1 << 20) == file.decode(maxPixels: 1 << 20))
        // A GIF with a comment and an application's XMP block: both gone, the frames and the loop count kept.
        let gif = try #require(cases.first { $0.kind == "gif" && $0.expect == "ok" && $0.frames > 1 })
        var animation = try gif.bytes
        let comment: [UInt8] = [0x21, 0xFE, UInt8(secret.count)] + secret + [0]
        let application: [UInt8] = [0x21, 0xFF, 11] + Array("XMP DataXMP".utf8) + [UInt8(secret.count)] + secret + [0]
        animation.insert(contentsOf: comment + application, at: animation.count - 1)
        let source = try GIFFile(animation, rules: validator.rules)
        #expect(!contains(source.strippedBytes, secret) && contains(animation, secret))
        let reread = try GIFFile(source.strippedBytes, rules: validator.rules)
        #expect(reread.animation == source.animation)
    }

    private func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        bytes.indices.dropLast(needle.count - 1).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
