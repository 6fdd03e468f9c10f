import Foundation
import Testing

/// What a newcomer reads from `stickerd` itself: its help, its version, a mistyped command, a port in use.
@Suite(
    "stickerd's words", .enabled(if: StickerdProcess.available, "needs the stickerd binary next to the test bundle"))
struct CommandLineTests {
    @Test func helpListsEveryCommandAsItIs() async throws {
        let (status, help) = try await StickerdProcess.run(["--help"])
        #expect(status == 0)
        for command in ["serve", "migrate", "token", "validate", "renditions", "gc", "export", "demo-art"] {
            #expect(help.contains("\n  \(command) "), "\(command) is missing from --help")
        }
        #expect(help.contains("exactly as an upload"))
        let (versionStatus, version) = try await StickerdProcess.run(["--version"])
        #expect(versionStatus == 0 && version.contains("database schema 00"), "\(version)")
    }

    @Test func aMistypedCommandIsNamedAsOneNotTakenForServesArgument() async throws {
        let (status, output) = try await StickerdProcess.run(["srve"])
        #expect(status == 64)
        #expect(output.contains("'srve' is not a stickerd command") && output.contains("serve, migrate"), "\(output)")
    }

    @Test(.hangLimit) func aPortInUseIsNamed() async throws {
        let (endpoint, drop) = try await TestDatabase.shared.clone(demo: false)
        defer { Task { await drop() } }
        let holder = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(holder) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 && listen(holder, 1) == 0
            }
        }
        try #require(bound)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(holder, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let (status, output) = try await StickerdProcess.run(
            ["serve", "--port", "\(port)"], environment: ["DATABASE_URL": endpoint.url])
        #expect(status == 1)
        #expect(output.contains("Port \(port) on 127.0.0.1 is in use"), "\(output.suffix(800))")
    }
}
