import Foundation
import Testing

/// `stickerd serve`'s options as an operator gives them: a flag, or its environment variable, checked alike before
/// anything starts.
@Suite(
    "stickerd serve options",
    .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle (swift build)"))
struct ServeOptionsTests {
    @Test("A short metrics token is refused, from --metrics-token or STICKER_METRICS_TOKEN; an empty variable is unset")
    func metricsToken() async throws {
        // Setup: a database that does not exist, never reached: each run ends at a check. The check after the token's
        // (`--admin-auth-failures-per-minute 0`) shows a token that passed.
        let serve = ["serve", "--port", "1", "--database-wait", "0.1"]
        let nowhere = "postgresql://stickerd@/stickerd?host=/nonexistent-\(UUID().uuidString)"
        func run(_ flags: [String], token: String?) async throws -> (Int32, String) {
            var environment = ["DATABASE_URL": nowhere]
            environment["STICKER_METRICS_TOKEN"] = token
            let (status, output) = try await StickerdProcess.run(serve + flags, environment: environment)
            // Without the log's lines: on a busy machine its first line (the descriptor budget, from another task) was
            // written in the middle of the refusal, as "--metrics-token <log line> must be at least...".
            return (status, output.replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[^\n]*\n/, with: ""))
        }
        // Action
        let (flagStatus, flagOutput) = try await run(["--metrics-token", "short"], token: nil)
        let (envStatus, envOutput) = try await run([], token: "short")
        let (flagWins, flagWinsOutput) = try await run(
            ["--metrics-token", "short"], token: "long-enough-metrics-token")
        let (emptyStatus, emptyOutput) = try await run(["--admin-auth-failures-per-minute", "0"], token: "")
        // Check
        let refusal = "--metrics-token must be at least 16 characters"
        #expect(flagStatus != 0 && flagOutput.contains(refusal), "\(flagOutput.suffix(500))")
        #expect(envStatus != 0 && envOutput.contains(refusal), "\(envOutput.suffix(500))")
        #expect(flagWins != 0 && flagWinsOutput.contains(refusal), "\(flagWinsOutput.suffix(500))")
        #expect(
            emptyStatus != 0 && !emptyOutput.contains(refusal)
                && emptyOutput.contains("--admin-auth-failures-per-minute must be at least 1"),
            "\(emptyOutput.suffix(500))")
    }

    @Test(
        "A usage allowance near Int.max is refused before anything starts, not a trap",
        arguments: [
            "--usage-per-address", "--usage-per-user", "--usage-per-source-hour",
        ])
    func hugeAllowances(flag: String) async throws {
        let nowhere = "postgresql://stickerd@/stickerd?host=/nonexistent-\(UUID().uuidString)"
        let (status, output) = try await StickerdProcess.run(
            ["serve", "--port", "1", "--database-wait", "0.1", flag, "\(Int.max)"],
            environment: ["DATABASE_URL": nowhere])
        // 64: ArgumentParser's validation failure; a trap is a signal.
        #expect(status == 64 && output.contains("1 to 1000000"), "\(status): \(output.suffix(500))")
    }
}
