import Foundation
import StickerImage
import TestSupport
import Testing

/// `stickerd validate`, run as the built binary (it sits next to the test bundle).
@Suite("stickerd validate")
struct ValidateCommandTests {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(
        path: "stickerd"
    ).path

    @Test(
        "Each file gets its upload's verdict: a 700 px PNG, a broken JPEG and a long animation are refused, exit 1",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: binary),
            "needs the stickerd binary next to the test bundle (swift build)"))
    func json() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            ("sticker.png", Samples.sticker), ("photo.png", Samples.jpeg),
            ("long.png", APNGWriter.animation(side: 300, frames: 5, delay: 3, denominator: 1).bytes),
            // From the issue: a well-formed 700 x 700 PNG, which an upload refuses, passed validate with exit 0.
            ("big.png", Samples.gradient(700, 700)),
            ("opaque.png", Samples.opaqueSticker),
        ]
        for (name, bytes) in files { try Data(bytes).write(to: folder.appending(path: name)) }
        let paths = files.map { folder.appending(path: $0.0).path }

        let (status, output) = try await StickerdProcess.run(["validate", "--json"] + paths)
        let objects = output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(status == 1)
        #expect(objects.count == 5)
        #expect(
            Set(objects[0].keys) == [
                "file", "valid", "code", "detail", "format", "width", "height", "frames", "warnings",
            ])
        #expect(objects[0]["valid"] as? Bool == true && objects[0]["format"] as? String == "png")
        #expect(objects[0]["code"] is NSNull && (objects[0]["warnings"] as? [Any])?.isEmpty == true)
        // A JPEG header named .png is read as the JPEG it is, and it is damaged.
        #expect(objects[1]["valid"] as? Bool == false && objects[1]["code"] as? String == "corrupt_image")
        #expect(
            objects[2]["valid"] as? Bool == false && objects[2]["format"] as? String == "apng"
                && objects[2]["frames"] as? Int == 5 && objects[2]["code"] as? String == "animation_too_long")
        #expect(
            objects[3]["valid"] as? Bool == false && objects[3]["code"] as? String == "dimensions_out_of_range"
                && objects[3]["width"] as? Int == 700)
        // Accepted with the warning an upload gives.
        let warnings = objects[4]["warnings"] as? [[String: Any]] ?? []
        let warning = warnings.first?["code"] as? String
        #expect(objects[4]["valid"] as? Bool == true)
        #expect(warning == "no_alpha_channel")

        #expect(try await StickerdProcess.run(["validate", paths[0]]).0 == 0)
        #expect(try await StickerdProcess.run(["validate", paths[3]]).0 == 1)
        #expect(try await StickerdProcess.run(["validate", "--max-duration-ms", "20000", paths[2]]).0 == 0)
        let (_, line) = try await StickerdProcess.run(["validate", paths[3]])
        #expect(line.contains("refused (dimensions_out_of_range)"), "\(line)")
    }
}
