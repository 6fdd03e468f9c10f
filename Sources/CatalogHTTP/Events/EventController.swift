import CatalogCore
import CatalogServices
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /v1/events`: Server-Sent Events for one view of the catalog (the manifest's parameters and the caller's user
/// token). Each commit that changes the view sends one `change` event whose `id` is the cursor after it; a comment
/// line keeps the connection alive every `heartbeat`; `Last-Event-ID` (or `since`) resumes from a cursor. Past the
/// hub's bounds a replica answers 503 `too_many_streams` (the replica is full) or 429 (this user's or this address's
/// share is taken), with `Retry-After`. A stream ends after about `lifetime` (clients reconnect with `Last-Event-ID`),
/// so streams spread over replicas added since, or when its user's token expires.
package struct EventController {
    package let hub: EventHub
    package let feed: ChangeFeed
    package let entitlements: EntitlementCache
    package let heartbeat: Duration
    package let lifetime: Duration
    /// Whose `X-Forwarded-For` names the client a stream counts against.
    package let proxies: TrustedProxies
    package let metrics: CatalogMetrics
    /// What a browser's page brings in place of its token.
    package let tickets: EventTickets

    package func addRoutes(to group: RouterGroup<AppRequestContext>, me: RouterGroup<UserRequestContext>) {
        group.get("events", use: events)
        me.post("event-ticket") { [tickets] _, context -> Response in
            let (ticket, expires) = tickets.issue(user: context.user, tokenExpires: context.userTokenExpires)
            let body = try JSONEncoder.catalog.encode(EventTicketResponse(ticket: ticket, expiresAt: expires))
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }
    }

    @Sendable package func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        var context = context
        var parameters = ManifestController.parameters(request)
        // A browser's `EventSource` cannot send `Authorization`: its page brings a ticket (`EventTickets`) instead.
        // With a token as well, the token decides and the ticket is not spent; a malformed one is refused either way.
        if let ticket = parameters.removeValue(forKey: "ticket") {
            guard (1...1024).contains(ticket.utf8.count), ticket.utf8.allSatisfy(EventTickets.isTicketByte) else {
                throw CatalogError.invalidParameter(
                    name: "ticket", rule: "must be a ticket from POST /v1/me/event-ticket")
            }
            if context.user == nil {
                let verified = try tickets.redeem(Substring(ticket))
                (context.user, context.userTokenExpires) = (verified.user, verified.expires)
            }
        }
        // Accepted for other requests within the clock skew, but a stream would end as it began.
        if let expires = context.userTokenExpires, expires <= Date() {
            throw Problem.invalidUserToken("The token has expired; a stream needs one that has not.")
        }
        let since = parameters.removeValue(forKey: "since")
        let view = try ManifestQuery(parameters: parameters)
        // Both checked when both are sent (malformed is a 400 either way); Last-Event-ID wins, as a reconnect sends it.
        // Before anything is read: a cursor the service did not sign is a 410 that costs no query.
        if let since { try ChangeCursor.checkForm(since, parameter: "since") }
        if let header = request.headers[.lastEventID] { try ChangeCursor.checkForm(header, parameter: "Last-Event-ID") }
        let key = feed.cursorKey
        let queried = try since.map { text throws(CatalogError) in try ChangeCursor(encoded: text, key: key) }
        let resumed = try request.headers[.lastEventID].map { text throws(CatalogError) in
            try ChangeCursor(encoded: text, key: key, parameter: "Last-Event-ID")
        }
        let viewer = try await entitlements.viewer(of: context)
        let cursor: ChangeCursor
        if let given = resumed ?? queried {
            cursor = given
        } else {
            cursor = try await feed.startCursor(view: view, viewer: viewer)
        }
        // A cursor of another view, or too old, is refused now rather than as the first event.
        _ = try await feed.next(view: view, viewer: viewer, cursor: cursor)
        let subscription: EventHub.Subscription
        do {
            subscription = try hub.subscribe(
                user: context.user, address: proxies.source(of: request, peer: context.remoteAddress))
        } catch {
            metrics.streamRefused(reason: error.label)
            throw error.problem(hub.limits)
        }
        // The slot is given back when the body is done with, also when it is never written (HEAD, a client gone first).
        let slot = EventHub.Slot(hub: hub, subscription: subscription)
        var random = SystemRandomNumberGenerator()
        let lasts = StreamTiming.duration(
            lifetime: StreamTiming.lifetime(lifetime, using: &random),
            tokenExpires: context.userTokenExpires, now: Date())
        let retry = StreamTiming.retry(using: &random)
        let (feed, entitlements, heartbeat, user, start) = (feed, entitlements, heartbeat, context.user, cursor)
        let headers: HTTPFields = [
            .contentType: "text/event-stream", .cacheControl: "no-store", .init("X-Accel-Buffering")!: "no",
        ]
        return Response(
            status: .ok, headers: headers,
            body: ResponseBody { writer in
                let ticker = Task {
                    let end = ContinuousClock.now + lasts
                    while ContinuousClock.now < end {
                        try await Task.sleep(for: min(heartbeat, end - .now))
                        subscription.continuation.yield()
                    }
                    subscription.continuation.finish()
                }
                defer {
                    ticker.cancel()
                    slot.release()
                }
                try await writer.write(ByteBuffer(string: "retry: \(retry)\n: connected\n\n"))
                subscription.continuation.yield()  // a cursor behind the catalog is answered at once
                var (cursor, lastWrite) = (start, ContinuousClock.now)
                // A replica shutting down ends its streams (clients reconnect elsewhere with Last-Event-ID).
                try await withGracefulShutdownHandler {
                    for await _ in subscription.wakeUps {
                        var text: String?
                        do {
                            // What the user holds may change while the stream lasts; its facts do not.
                            let held = if let user { try await entitlements.products(of: user) } else { [String]() }
                            if let (next, changed) = try await feed.next(
                                view: view, viewer: Viewer(held: held, facts: viewer.facts), cursor: cursor)
                            {
                                if changed {
                                    text =
                                        "event: change\nid: \(next.encoded(with: key))\ndata: {\"revision\":\(next.since)}\n\n"
                                }
                                cursor = next
                            }
                        } catch CatalogError.cursorExpired(let detail) {
                            try await writer.write(
                                ByteBuffer(string: "event: expired\ndata: \(Self.jsonString(detail))\n\n"))
                            break
                        } catch {
                            // The database is away for now: the stream stays open and asks again on the next wake-up.
                        }
                        if text == nil, ContinuousClock.now - lastWrite >= heartbeat / 2 { text = ": heartbeat\n\n" }
                        if let text {
                            try await writer.write(ByteBuffer(string: text))
                            lastWrite = .now
                        }
                    }
                } onGracefulShutdown: {
                    subscription.continuation.finish()
                }
                try await writer.finish(nil)
            })
    }

    /// `text` as a JSON string literal, so an event's data stays one line.
    package static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    package init(
        hub: EventHub, feed: ChangeFeed, entitlements: EntitlementCache, heartbeat: Duration, lifetime: Duration,
        proxies: TrustedProxies, metrics: CatalogMetrics, tickets: EventTickets
    ) {
        self.hub = hub
        self.feed = feed
        self.entitlements = entitlements
        self.heartbeat = heartbeat
        self.lifetime = lifetime
        self.proxies = proxies
        self.metrics = metrics
        self.tickets = tickets
    }
}

/// `POST /v1/me/event-ticket`: a ticket opening one event stream for this user within a minute.
package struct EventTicketResponse: Codable, Sendable {
    package var ticket: String
    package var expiresAt: Date
}

extension HTTPField.Name {
    package static let lastEventID = Self("Last-Event-ID")!
    package static let xForwardedFor = Self("X-Forwarded-For")!
}
