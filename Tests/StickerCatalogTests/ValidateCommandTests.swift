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
        "--json prints one object per file; a JPEG named .png is invalid; exit status 1 when any file is",
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
        ]
        for (name, bytes) in files { try Data(bytes).write(to: folder.appending(path: name)) }
        let paths = files.map { folder.appending(path: $0.0).path }

        let (status, output) = try await StickerdProcess.run(["validate", "--json"] + paths)
        let objects = output.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        #expect(status == 1)
        #expect(objects.count == 3)
        #expect(
            Set(objects[0].keys) == [
                "file", "valid", "code", "detail", "format", "width", "height", "frames", "sticker",
            ])
        #expect(
            objects[0]["valid"] as? Bool == true && objects[0]["format"] as? String == "png"
                && objects[0]["sticker"] as? String == "ok")
        #expect(
            objects[1]["valid"] as? Bool == false && objects[1]["code"] as? String == "unsupported_format"
                && objects[1]["format"] is NSNull)
        #expect(
            objects[2]["valid"] as? Bool == true && objects[2]["format"] as? String == "apng"
                && objects[2]["frames"] as? Int == 5)
        #expect(objects[2]["sticker"] as? String == "animation_too_long")

        #expect(try await StickerdProcess.run(["validate", paths[0]]).0 == 0)
        #expect(try await StickerdProcess.run(["validate", "--max-duration-ms", "20000", paths[2]]).0 == 0)
        #expect(
            try await StickerdProcess.run(["validate", "--json", "--max-duration-ms", "20000", paths[2]]).1.contains(
                #""sticker":"ok""#))
    }
}
