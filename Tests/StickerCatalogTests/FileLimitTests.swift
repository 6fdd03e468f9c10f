import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import Testing

/// stickerd under a low file descriptor limit, as the shell sets it: it raises its soft limit, refuses to start when
/// its stream bound cannot fit, keeps health answering while one client takes every stream it may, and says when
/// it could not accept a connection.
@Suite(
    "stickerd under a file limit", .serialized,
    .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle (swift build)"))
struct FileLimitTests {
    /// `stickerd serve` started by a shell that first runs `ulimit`, on a free port; what it prints goes to a file.
    final class Limited: @unchecked Sendable {
        let process = Process()
        let log = URL(fileURLWithPath: NSTemporaryDirectory() + "stickerd-limit-\(UUID().uuidString).log")
        let port: Int

        init(ulimit: String, _ arguments: [String], database: DatabaseEndpoint) throws {
            port = try StickerdProcess.freePort()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments =
                ["-c", "ulimit \(ulimit) && exec \"$0\" \"$@\"", StickerdProcess.binary, "serve", "--port", "\(port)"]
                + arguments
            process.environment = ["PATH": "/usr/bin:/bin", "LOG_LEVEL": "info", "DATABASE_URL": database.url]
            try Data().write(to: log)  // created empty, or the failure thrown
            let output = try FileHandle(forWritingTo: log)
            (process.standardOutput, process.standardError) = (output, output)
            try process.run()
            try output.close()
        }

        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            try? FileManager.default.removeItem(at: log)
        }

        var printed: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        /// A stickerd started as `init` does that answers `/readyz`; one that ended before it was ready is reported and
        /// started once more (as in AccessLogTests), and one that never gets ready fails the test with its log.
        static func ready(ulimit: String, _ arguments: [String], database: DatabaseEndpoint) async throws -> Limited {
            var server = try Limited(ulimit: ulimit, arguments, database: database)
            if try await !server.waitReady(), !server.process.isRunning {
                print(
                    "FileLimitTests: stickerd ended before it was ready: \(server.process.terminationReason) \(server.process.terminationStatus); \(server.printed.suffix(500))"
                )
                server = try Limited(ulimit: ulimit, arguments, database: database)
            }
            try #require(try await server.waitReady(), "\(server.printed)")
            return server
        }

        /// Waits until `/readyz` answers 200 (true), or the process exits or a minute passes (false).
        func waitReady() async throws -> Bool {
            let deadline = ContinuousClock.now + .seconds(60)
            while ContinuousClock.now < deadline, process.isRunning {
                if try await answers("/readyz") { return true }
                try await Task.sleep(for: .milliseconds(100))
            }
            return false
        }

        /// Whether `path` answers 200 within `seconds`.
        func answers(_ path: String, seconds: Int = 5) async throws -> Bool {
            let port = port
            let task = Task {
                try? await RawHTTP.exchange(port: port, Array("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            }
            let timeout = Task {
                try await Task.sleep(for: .seconds(seconds))
                task.cancel()
            }
            defer { timeout.cancel() }
            return await task.value?.hasPrefix("HTTP/1.1 200") == true
        }

        /// Waits for the process to end by itself, up to `seconds`; its exit status, nil if it went on running.
        func exit(within seconds: Int) async throws -> Int32? {
            let deadline = ContinuousClock.now + .seconds(seconds)
            while process.isRunning, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
            return process.isRunning ? nil : process.terminationStatus
        }

        /// Ends the process (SIGTERM) and waits for it.
        func stop() async {
            kill(process.processIdentifier, SIGTERM)
            _ = try? await exit(within: 30)
        }

        /// This process's soft and hard RLIMIT_NOFILE, from /proc.
        var fileLimits: (soft: String, hard: String)? {
            let limits = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/limits", encoding: .utf8)
            let line = limits?.split(separator: "\n").first { $0.hasPrefix("Max open files") }
            let fields =
                line?.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).map(String.init) ?? []
            return fields.count >= 2 ? (fields[0], fields[1]) : nil
        }
    }

    /// This process's hard limit: the shell's `ulimit -Sn` leaves it, and stickerd may raise its soft limit to it.
    static var hardLimit: Int {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        return Int(clamping: limit.rlim_max)
    }

    @Test(
        "Under a soft limit of 300 stickerd raises it; one client's 300 streams get its address's 256 and health answers",
        .hangLimit)
    func healthAnswersWhileOneClientHoldsItsStreams() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        // The defaults when the hard limit has room for them, a bound that fits when it has not.
        let streams = Self.hardLimit >= 10_500 ? [] : ["--max-event-streams", "\(max(300, Self.hardLimit - 400))"]
        try #require(Self.hardLimit >= 700, "the hard file limit is too low for this test")
        let server = try await Limited.ready(ulimit: "-Sn 300", streams, database: endpoint)
        #expect(server.fileLimits.map { $0.soft == $0.hard } == true, "\(String(describing: server.fileLimits))")
        // Action: one client opens 300 streams.
        var opened: [(StreamShareTests.Opened, String)] = []
        for _ in 0..<300 { opened.append(try await StreamShareTests.open(server.port)) }
        // Check: its address's share is open, the rest refused with 429; health and readiness answer meanwhile.
        #expect(opened.filter { $0.1 == "200" }.count == 256)
        #expect(opened.filter { $0.1 == "429" }.count == 44)
        #expect(try await server.answers("/healthz"))
        #expect(try await server.answers("/readyz"))
        withExtendedLifetime(opened) {}
        await server.stop()
    }

    @Test(
        "Refuses to start, saying why, when the stream bound does not fit the file limit; starts when it does",
        .hangLimit)
    func refusesABoundPastTheLimit() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let refused = try Limited(ulimit: "-n 300", [], database: endpoint)
        let status = try await refused.exit(within: 30)
        #expect(status != nil && status != 0, "stickerd started under a limit its 10,000 streams cannot fit")
        let printed = refused.printed
        #expect(
            printed.contains("file descriptors") && printed.contains("--max-event-streams 10000")
                && printed.contains("only 300"),
            "\(printed)")
        let fits = try await Limited.ready(ulimit: "-n 300", ["--max-event-streams", "100"], database: endpoint)
        await fits.stop()
    }

    @Test(
        "Past the connections its descriptors allow it stops accepting, and busy with those it holds it lives on",
        .hangLimit)
    func connectionsPastTheLimitWaitAndLoadThenKillsNothing() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: true)
        defer { Task { await drop() } }
        let server = try await Limited.ready(ulimit: "-n 300", ["--max-event-streams", "100"], database: endpoint)
        // Action: 350 connections, more than the process has descriptors for; once it has stopped accepting, the first
        // 200 send 16 requests each. Before the limit, the accepts took every descriptor, and under load libdispatch
        // (whose thread-pool monitor opens /proc/<tid>/stat while work waits) trapped the process: a CI run's failure.
        // A connect the kernel refuses while the backlog is full (seen once in a busy full suite) is not the point.
        var held = (0..<350).compactMap { _ in try? RawSocket(port: server.port) }
        #expect(held.count >= 300, "only \(held.count) of 350 connections were made")
        // (Within the 30 s after which idle connections are closed; a stickerd without the limit logs the accept that
        // ran out of descriptors instead.)
        let deadline = ContinuousClock.now + .seconds(15)
        while !["connections this process may hold are open", "Could not accept"].contains(
            where: server.printed.contains),
            ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(100))
        }
        let request = Array("GET /v1/manifest HTTP/1.1\r\nHost: x\r\n\r\n".utf8)
        for socket in held.prefix(200) { socket.send(Array([[UInt8]](repeating: request, count: 16).joined())) }
        var answered = 0
        // Busy for 8 s, and longer (up to a minute) until a hundred answers came: a busy suite starves this test too.
        let busy = ContinuousClock.now + .seconds(8)
        while ContinuousClock.now < busy || (answered <= 100 && ContinuousClock.now < busy + .seconds(52)),
            server.process.isRunning
        {
            for socket in held.prefix(200) {
                // Each answer seen is replaced by another request, keeping the replica busy throughout.
                let answers = socket.receiveAvailable().components(separatedBy: "HTTP/1.1 200").count - 1
                if answers > 0 { socket.send(Array([[UInt8]](repeating: request, count: answers).joined())) }
                answered += answers
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        // Check: it lived through it and answered; once the connections are gone, it accepts again, /metrics counts
        // the pause, and the log said so.
        #expect(server.process.isRunning, "\(server.process.terminationReason); \(server.printed.suffix(2000))")
        #expect(answered > 100, "\(answered) answers")
        held.removeAll()
        #expect(try await server.waitReady(), "running: \(server.process.isRunning); \(server.printed.suffix(3000))")
        let metrics = try await RawHTTP.exchange(
            port: server.port, Array("GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8),
            whole: true)
        let line = metrics.split(separator: "\n").first { $0.hasPrefix("connection_limit_pauses_total ") }
        #expect(
            (line?.split(separator: " ").last.flatMap { Int($0) } ?? 0) > 0,
            "\(line ?? "no connection_limit_pauses_total line")")
        #expect(
            server.printed.contains(
                "at most \(DescriptorBudget(streams: 100, uploads: 8, pools: 1).connections(limit: 300)) connections at once"
            ))
        #expect(!server.printed.contains("Could not accept a connection"), "an accept ran out of descriptors")
        await server.stop()
    }
}
