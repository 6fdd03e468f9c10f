import Foundation

/// The GIF and JPEG conformance corpus, made at test time by `scripts/corpus/gif_jpeg.py` (Pillow and ImageMagick,
/// nothing fetched) into a temporary folder once per test process: each file, the verdict an upload must get, and
/// a reference decoder's frames (a GIF's frames composited by the browsers' rules, which the script checks against
/// ImageMagick's coalesced frames; Pillow's upright JPEG).
package struct GeneratedCorpus: Sendable {
    package struct Case: Sendable {
        package let name: String
        package let file: URL
        package let kind: String
        /// "ok", or the refusal code.
        package let expect: String
        package let width: Int
        package let height: Int
        package let frames: Int
        package let loops: Int
        package let delaysMs: [Int]
        package let tolerance: Int
        package let note: String

        package var bytes: [UInt8] { get throws { Array(try Data(contentsOf: file)) } }

        /// The reference frames, RGBA, one array each.
        package func referenceFrames() throws -> [[UInt8]] {
            let data = Array(try Data(contentsOf: file.deletingPathExtension().appendingPathExtension("rgba")))
            let size = width * height * 4
            guard size > 0, data.count == size * frames else {
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "\(name).rgba"])
            }
            return (0..<frames).map { Array(data[($0 * size)..<(($0 + 1) * size)]) }
        }
    }

    package let cases: [Case]

    /// Made once; a failure (no python3, Pillow or ImageMagick) is the tests' failure, with the script's output.
    package static let shared: Result<GeneratedCorpus, GenerationFailure> = generate()

    package struct GenerationFailure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    static func generate() -> Result<GeneratedCorpus, GenerationFailure> {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appending(path: "gif-jpeg-corpus-\(getpid())")
        do {
            let (status, output) = try Command.run(
                "/usr/bin/env", ["python3", root.appending(path: "scripts/corpus/gif_jpeg.py").path, folder.path])
            guard status == 0 else { return .failure(.init(description: "the corpus script failed:\n\(output)")) }
            let manifest = try String(contentsOf: folder.appending(path: "manifest.tsv"), encoding: .utf8)
            let cases = manifest.split(separator: "\n").dropFirst().map { line in
                let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
                return Case(
                    name: f[0], file: folder.appending(path: f[1]), kind: f[2], expect: f[3], width: Int(f[4]) ?? 0,
                    height: Int(f[5]) ?? 0, frames: Int(f[6]) ?? 0, loops: Int(f[7]) ?? 0,
                    delaysMs: f[8] == "-" ? [] : f[8].split(separator: ",").compactMap { Int($0) },
                    tolerance: Int(f[9]) ?? 0, note: f.count > 10 ? f[10] : "")
            }
            return .success(GeneratedCorpus(cases: cases))
        } catch {
            return .failure(.init(description: "the corpus could not be made: \(error)"))
        }
    }

    /// How far `ours` is from `reference` at worst, per channel; fully transparent pixels match whatever their
    /// colour, and a pixel whose alpha differs counts as 255.
    package static func worstDifference(_ ours: [UInt8], _ reference: [UInt8]) -> (worst: Int, at: Int) {
        var (worst, at) = (0, -1)
        guard ours.count == reference.count else { return (255, 0) }
        for pixel in 0..<(ours.count / 4) {
            let i = pixel * 4
            if ours[i + 3] == 0 && reference[i + 3] == 0 { continue }
            for k in 0..<4 {
                let d = abs(Int(ours[i + k]) - Int(reference[i + k]))
                if d > worst { (worst, at) = (d, pixel) }
            }
        }
        return (worst, at)
    }
}
