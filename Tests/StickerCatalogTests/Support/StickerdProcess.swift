import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Synchronization
import TestSupport

/// The built `stickerd` binary, run as a process of its own (it sits next to the test bundle).
final class StickerdProcess: @unchecked Sendable {
    static let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appending(
        path: "stickerd"
    ).path
    static var available: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    let process = Process()
    /// What the process prints goes to a file: a pipe could be held open by a child that outlives it.
    let logFile = URL(fileURLWithPath: NSTemporaryDirectory() + "stickerd-\(UUID().uuidString).log")
    let port: Int

    /// Starts `stickerd serve` on a free port with `arguments` and `environment` (added to a minimal one); what it
    /// prints goes to `output` when given (a pipe, say), else to `logFile`. Its requests wait for the database as long
    /// as the suite's test apps do: in a busy suite, a new connection has taken over 10 s.
    init(serve arguments: [String], environment: [String: String] = [:], output given: FileHandle? = nil) throws {
        port = try Self.freePort()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments =
            ["serve", "--port", "\(port)", "--database-wait", "60", "--statement-timeout", "120"] + arguments
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "LOG_LEVEL": "info",
        ]
        .merging(environment) { $1 }
        try Data().write(to: logFile)  // created empty, or the failure thrown
        let output = try given ?? FileHandle(forWritingTo: logFile)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        if given == nil { try output.close() }
    }

    deinit { try? FileManager.default.removeItem(at: logFile) }

    /// Waits until `/healthz` answers (true), or the process exits or `timeout` passes (false).
    func waitHealthy(timeout: Duration = .seconds(60)) async throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline, process.isRunning {
            if (try? await RawHTTP.exchange(port: port, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))?
                .hasPrefix("HTTP/1.1 200") == true
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        // Says why, for a failure seen only on a busy CI machine.
        let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
        print(
            "stickerd on :\(port) not healthy (running: \(process.isRunning), exit \(process.isRunning ? 0 : process.terminationStatus)); "
                + "its log ends: \(log.suffix(2000))")
        return false
    }

    /// The body of a GET answered by this process.
    func get(_ path: String) async throws -> String {
        try await RawHTTP.exchange(
            port: port, Array("GET \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), whole: true)
    }

    /// Sends `signal` and waits for the process to end; what it printed.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) async -> String {
        kill(process.processIdentifier, signal)
        let (process, logFile) = (process, logFile)
        _ = try? await blocking { process.waitUntilExit() }
        return (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
    }

    /// Runs `stickerd` with `arguments` to completion: its exit status and everything it printed.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (Int32, String) {
        try await blocking { try runBlocking(arguments, environment: environment) }
    }

    static func runBlocking(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, String) {
        try runCommand(binary, arguments, environment: environment)
    }

    /// Runs `executable` with `arguments` to completion: its exit status and everything it printed.
    static func runCommand(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:]
    ) throws -> (Int32, String) {
        try Command.run(executable, arguments, environment: environment)
    }

    /// A TCP port nothing listens on now (`FreePort`).
    static func freePort() throws -> Int { try FreePort.next() }
}

extension DatabaseEndpoint {
    /// This endpoint as a DATABASE_URL, for a stickerd process.
    var url: String {
        switch address {
        case .socket(let path):
            let folder = (path as NSString).deletingLastPathComponent
            return "postgres://\(username)@/\(database ?? username)?host=\(folder)"
        case .tcp(let host, let port):
            return
                "postgres://\(username)\(password.map { ":\($0)" } ?? "")@\(host):\(port)/\(database ?? username)?sslmode=\(sslMode.rawValue)"
        }
    }
}
