import Foundation
import HTTPTypes
import OpenAPIRuntime
import Testing

@testable import StickerCatalogClient

#if os(Linux)
    import AsyncHTTPClient
    import NIOCore
#endif

/// Errors keep their cause: an app can tell offline from slow from a certificate problem, and a full disk from a
/// permission.
@Suite struct ErrorTests {
    #if os(Linux)
        @Test(
            "A transport's failure keeps its kind: a refused connection is offline, a read timeout timed out, a reset lost"
        )
        func networkKinds() async throws {
            let cases: [(any Error, NetworkFailure)] = [
                (IOError(errnoCode: ECONNREFUSED, reason: "connect"), .offline),
                (HTTPClientError.readTimeout, .timedOut),
                (IOError(errnoCode: ECONNRESET, reason: "read"), .connectionLost),
                (HTTPClientError.connectTimeout, .timedOut),
            ]
            for (thrown, kind) in cases {
                // Setup: a transport that fails so.
                let transport = Throwing(error: thrown)
                // Action
                let failure = await #expect(throws: StickerClientError.self) {
                    try await StickerSync.testing(transport) { $0.attempts = 1 }.sync()
                }
                // Check
                guard case .unreachable(_, let reason) = failure else {
                    Issue.record("\(String(describing: failure))")
                    continue
                }
                #expect(reason == kind, "\(thrown)")
                #expect(failure?.localizedDescription.isEmpty == false)
            }
        }
    #endif

    @Test("A folder that cannot be made keeps the system's reason (ENOTDIR here), not a generic permission error")
    func storageReason() async throws {
        // Setup: the folder's parent is a file.
        let file = StickerSync.temporaryFolder()
        try Data("x".utf8).write(to: file)
        // Action
        let failure = await #expect(throws: StickerClientError.self) {
            try await StickerSync.testing(MemoryService(), folder: file.appending(path: "stickers")).sync()
        }
        // Check
        guard case .storage(_, let code) = failure else {
            Issue.record("\(String(describing: failure))")
            return
        }
        #expect(code == .ENOTDIR)
        #expect(failure?.errorDescription?.contains("Not a directory") == true, "\(failure?.errorDescription ?? "")")
    }
}

/// A transport that throws `error` for every request.
struct Throwing: ClientTransport {
    let error: any Error
    func send(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        throw error
    }
}
