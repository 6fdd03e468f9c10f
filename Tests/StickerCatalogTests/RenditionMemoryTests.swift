import Foundation
import StickerImage
import TestSupport
import Testing

/// The memory one upload's renditions take, measured as the peak resident size of `stickerd renditions render` (the
/// same code an upload runs) on its own, next to the same command on a plain still.
@Suite(.enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle (swift build)"))
struct RenditionMemoryTests {
    /// Runs `stickerd arguments`; its peak resident size in MiB (wait4's rusage: this child's alone).
    static func peakMiB(_ arguments: [String]) throws -> Double {
        var pid: pid_t = 0
        let argv = ([StickerdProcess.binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        guard posix_spawn(&pid, StickerdProcess.binary, &actions, nil, argv, environ) == 0 else {
            throw CocoaError(.executableLoad)
        }
        var status: Int32 = 0
        var usage = rusage()
        _ = wait4(pid, &status, 0, &usage)
        #expect(status == 0, "stickerd \(arguments) exited with \(status)")
        return Double(usage.ru_maxrss) / 1024
    }

    @Test func theAmplifyingAPNGTakesTensOfMebibytesNotHundreds() throws {
        // Setup
        let folder = FileManager.default.temporaryDirectory.appending(path: "memory-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let amplifying = folder.appending(path: "amplifying.png")
        let still = folder.appending(path: "still.png")
        try Data(Samples.amplifying()).write(to: amplifying)
        try Data(Samples.sticker).write(to: still)
        // Action
        let baseline = try Self.peakMiB([
            "renditions", "render", "--output", folder.appending(path: "a").path, still.path,
        ])
        let peak = try Self.peakMiB([
            "renditions", "render", "--output", folder.appending(path: "b").path, amplifying.path,
        ])
        // Check: 100 full canvases alone were 146 MiB, and the review saw about 0.5 GiB for this upload.
        print("Renditions of the amplifying APNG: peak \(Int(peak)) MiB, a still \(Int(baseline)) MiB")
        #expect(peak - baseline < 64, "peak \(peak) MiB against \(baseline) MiB for a still")
    }
}
