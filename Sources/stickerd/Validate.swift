import ArgumentParser
import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogServices
import CatalogStore
import Foundation
import StickerImage

struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check sticker files offline exactly as an upload is checked.",
        discussion: """
            Each PNG, APNG, WebP, GIF or JPEG file gets the verdict an upload of it would get, from the same \
            validator and rules: at most 512000 bytes, sides of 300-618 px, at most 100 frames and 10 s, the whole \
            structure, every frame decoded and every rendition made within the size limit (and thrown away). \
            Refusals print the upload's problem code. Exit status 0 when every file would be accepted, 1 otherwise.
            """)

    @Flag(help: "Print one JSON object per file: file, valid, code, detail, format, width, height, frames, warnings.")
    var json = false

    @Option(
        help: ArgumentHelp(
            "Validate each file this many times and print the mean time per validation, next to one plain libpng decode (benchmarking).",
            visibility: .hidden))
    var repeatCount: Int?

    @Argument(help: "The files to check.")
    var files: [String]

    @OptionGroup(title: "Animated stickers") var limits: LimitOptions

    func run() throws {
        let validator = StickerValidator(rules: limits.rules)
        var allValid = true
        for file in files {
            let verdict: Verdict
            if let data = FileManager.default.contents(atPath: file) {
                verdict = validator.judge(Array(data), file: file)
            } else {
                verdict = Verdict(file: file, valid: false, code: "unreadable", detail: "The file cannot be read.")
            }
            allValid = allValid && verdict.valid
            if let repeatCount, let data = FileManager.default.contents(atPath: file) {
                Self.time(Array(data), file: file, times: repeatCount, validator: validator)
            }
            print(json ? String(decoding: try JSONEncoder.catalog.encode(verdict), as: UTF8.self) : Self.line(verdict))
        }
        if !allValid { throw ExitCode(1) }
    }

    /// Mean wall time of the upload's validation (no renditions) and of one libpng decode (the default image).
    static func time(_ bytes: [UInt8], file: String, times: Int, validator: StickerValidator) {
        let clock = ContinuousClock()
        // The validation an upload runs before its renditions: what a decode is the yardstick for (the verdict above
        // also made every rendition).
        let validation = clock.measure { for _ in 0..<times { _ = try? validator.validate(bytes) } }
        let decode = clock.measure { for _ in 0..<times { _ = try? PNGCodec.decode(bytes, maxPixels: 1 << 26) } }
        let mean = { (d: Duration) in
            Double(d.components.seconds) * 1000 / Double(times) + Double(d.components.attoseconds) / 1e15
                / Double(times)
        }
        FileHandle.standardError.write(
            Data(
                String(
                    format: "%@: validation %.3f ms, one libpng decode %.3f ms (mean of %d)\n",
                    file, mean(validation), mean(decode), times
                ).utf8))
    }

    static func line(_ v: Verdict) -> String {
        guard v.valid else { return "\(v.file): refused (\(v.code ?? "?")): \(v.detail ?? "")" }
        let shape =
            "\(v.format ?? "png") \(v.width ?? 0)x\(v.height ?? 0)"
            + ((v.frames ?? 1) > 1 ? ", \(v.frames ?? 1) frames" : "")
        return "\(v.file): accepted, \(shape)" + v.warnings.map { "\n  warning (\($0.code)): \($0.detail)" }.joined()
    }
}
