import CatalogCore
import CatalogServices
import Hummingbird

/// `POST /v1/usage`: a client's batch of sends, views and taps, answered 202 at once whatever was counted (the answer
/// says nothing of which stickers exist). Bounded before it is read (32 KiB), checked field by field before anything
/// is counted.
package struct UsageController {
    package let recorder: UsageRecorder
    package let proxies: TrustedProxies

    package func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.post("usage", use: record)
    }

    @Sendable package func record(_ request: Request, context: AppRequestContext) async throws -> Response {
        let body = try await request.body.collect(upTo: UsageBatch.maxBytes)
        guard let events = try UsageBatch.events(Array(buffer: body)) else {
            throw Problem.invalidBody("The body is not JSON: send {\"events\": [{\"sticker\", \"action\", \"at\"}]}.")
        }
        try await recorder.record(
            events, address: proxies.source(of: request, peer: context.remoteAddress), user: context.user)
        return Response(
            status: .accepted, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: "{\"received\":\(events.count)}")))
    }

    package init(recorder: UsageRecorder, proxies: TrustedProxies) {
        (self.recorder, self.proxies) = (recorder, proxies)
    }
}
