import Foundation

/// A program run to completion by a test.
package enum Command {
    /// Runs `executable` with `arguments` to completion: its exit status and everything it printed.
    package static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"].merging(
            environment
        ) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
