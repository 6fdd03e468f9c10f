import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StickerCatalogClient
import Testing

/// One HTTP exchange: it ends within its limit even when URLSession never completes it.
@Suite struct ExchangeTests {
    @Test(.timeLimit(.minutes(1)))
    func anExchangeURLSessionNeverCompletesEndsAsTimedOutAtItsLimit() async throws {
        // Setup: a service that reads the request and never answers, and a request URLSession would wait 10 minutes on.
        let service = try FakeService(["/v1/manifest": [.init(status: 0)]])
        var request = URLRequest(url: service.base.appending(path: "v1/manifest"))
        request.timeoutInterval = 600
        // Action
        let error = await #expect(throws: URLError.self) { try await URLSession.shared.exchange(request, limit: .seconds(1)) }
        // Check
        #expect(error?.code == .timedOut)
        #expect(service.requests.map(\.path) == ["/v1/manifest"])
    }

    @Test func anAnswerBeforeTheLimitIsReturned() async throws {
        let service = try FakeService(["/v1/manifest": [.init(status: 200, body: Data("{}".utf8))]])
        let (data, response) = try await URLSession.shared.exchange(URLRequest(url: service.base.appending(path: "v1/manifest")),
                                                                    limit: .seconds(60))
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && data == Data("{}".utf8))
    }
}
