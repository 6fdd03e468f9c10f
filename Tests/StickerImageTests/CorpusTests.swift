import Foundation
import StickerImage
import TestSupport
import Testing

/// The public corpora in ../shared/testdata/png, each file with its expected verdict in MANIFEST.tsv.
@Suite("Validator on public corpora")
struct CorpusTests {
    /// Our decision for the files the manifest leaves to us (README.md, "Validation decisions").
    static func decision(kind: String, notes: String) -> Bool? {
        switch kind {
        case "valid": true
        case "invalid", "invalid-apng": false
        // A palette index past PLTE: libpng 1.6.39 and browsers draw it (as black); accepted.
        case "invalid-but-commonly-accepted" where notes.contains("palette index"): true
        // A broken or CRC-damaged iCCP profile: every chunk's CRC and zlib stream is checked; refused.
        case "invalid-but-commonly-accepted": false
        // zTXt chunks that inflate to megabytes: a decompression bomb; refused.
        case "valid-but-hostile": false
        default: nil
        }
    }

    @Test(
        "The format check agrees with every verdict in MANIFEST.tsv",
        .enabled(if: TestData.available, "needs ../shared/testdata (absent here)"))
    func corpus() throws {
        let manifest = try String(contentsOf: TestData.root.appending(path: "png/MANIFEST.tsv"), encoding: .utf8)
        let validator = StickerValidator()
        var agreed = 0
        var total = 0
        for line in manifest.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let (path, kind, notes) = (fields[0], fields[6], fields[9])
            let expected = try #require(
                Self.decision(kind: kind, notes: notes) as Bool?, "unknown verdict \(kind) for \(path)")
            var refusal: StickerRejection?
            do { try validator.checkFormat(try TestData.png(path)) } catch let error as StickerRejection {
                refusal = error
            }
            total += 1
            if (refusal == nil) == expected {
                agreed += 1
            } else {
                Issue.record(
                    "\(path) (\(kind)): valid=\(refusal == nil) \(refusal?.code ?? "") \(refusal?.detail ?? "")")
            }
        }
        print("Corpus agreement: \(agreed) of \(total) files")
        #expect(total == 405)
        #expect(agreed == total)
    }
}
