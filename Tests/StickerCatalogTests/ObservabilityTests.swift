import CatalogApp
import CatalogCore
import CatalogHTTP
import CatalogSearch
import CatalogServices
import CatalogStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StickerImage
import TestSupport
import Testing

/// What an operator sees: request ids, the request histogram, the domain metrics, and alert rules that name only
/// metrics `/metrics` serves.
@Suite struct ObservabilityTests {
    static func metrics(_ client: some TestClientProtocol) async throws -> String {
        String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
    }

    /// The value of the sample line that starts with `series` (name and labels exactly as written).
    static func value(_ text: String, _ series: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(series + " ") }.flatMap {
            Double($0.split(separator: " ").last ?? "")
        }
    }

    @Test func aSaneRequestIdIsKeptOthersAreReplacedAndProblemsQuoteIt() async throws {
        try await withApp(demo: true) { client, _ in
            let kept = try await client.execute(
                uri: "/v1/manifest", method: .get, headers: [.requestID: "trace-4bf92f3577b34da6.a3ce"])
            #expect(kept.headers[.requestID] == "trace-4bf92f3577b34da6.a3ce")
            for insane in ["a b", "x\"y", String(repeating: "a", count: 129), "é"] {
                let replaced = try await client.execute(
                    uri: "/v1/manifest", method: .get, headers: [.requestID: insane])
                let id = try #require(replaced.headers[.requestID])
                #expect(id != insane && RequestIdentity.isSane(id))
            }
            let made = try await client.execute(uri: "/v1/manifest", method: .get)
            let other = try await client.execute(uri: "/v1/manifest", method: .get)
            #expect(made.headers[.requestID] != nil && made.headers[.requestID] != other.headers[.requestID])
            let problem = try await client.execute(
                uri: "/v1/groups/nope", method: .get, headers: [.requestID: "support-ticket-77"])
            #expect(problem.status == .notFound && problem.json["requestId"] as? String == "support-ticket-77")
            let anonymous = try await client.execute(uri: "/v1/groups/nope", method: .get)
            #expect(anonymous.json["requestId"] as? String == anonymous.headers[.requestID])
        }
    }

    @Test func requestsAreTimedByRouteMethodAndStatus() async throws {
        try await withApp(demo: true) { client, _ in
            for _ in 0..<3 { _ = try await client.execute(uri: "/v1/manifest", method: .get) }
            _ = try await client.execute(uri: "/v1/groups/nope", method: .get)
            _ = try await client.execute(uri: "/v1/manifest", method: .init("BREW")!)
            let text = try await Self.metrics(client)
            let labels = #"route="/v1/manifest",method="GET",status="200""#
            #expect(Self.value(text, "http_requests_total{\(labels)}") == 3)
            #expect(Self.value(text, "http_request_duration_seconds_count{\(labels)}") == 3)
            #expect(Self.value(text, "http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"}") == 3)
            #expect((Self.value(text, "http_request_duration_seconds_sum{\(labels)}") ?? 0) > 0)
            #expect(Self.value(text, #"http_requests_total{route="/v1/groups/{id}",method="GET",status="404"}"#) == 1)
            // A made-up method is one label, whatever its name: clients cannot grow the series.
            #expect(text.contains(#"method="other""#) && !text.contains("BREW"))
            // Buckets are cumulative and end at the count.
            let buckets = text.split(separator: "\n").filter {
                $0.hasPrefix("http_request_duration_seconds_bucket{\(labels)")
            }
            .compactMap { Double($0.split(separator: " ").last ?? "") }
            #expect(
                buckets.count == RequestDurations.bounds.count + 1 && buckets == buckets.sorted() && buckets.last == 3)
        }
    }

    @Test func aRequestLandsInTheBucketOfItsDuration() throws {
        let durations = RequestDurations()
        // 3 ms, and however long a busy machine took to read the clock: the bucket is that of the duration recorded.
        let elapsed = try #require(
            durations.record(route: "/r", method: .get, status: 200, since: .now - .milliseconds(3)))
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let bucket = try #require(RequestDurations.bounds.firstIndex { seconds <= $0 })
        let text = durations.render()
        let label = { (bound: Double) in
            #"http_request_duration_seconds_bucket{route="/r",method="GET",status="200",le="\#(bound)"}"#
        }
        #expect(bucket >= 3 && Self.value(text, label(RequestDurations.bounds[bucket - 1])) == 0)
        #expect(Self.value(text, label(RequestDurations.bounds[bucket])) == 1)
        let counted = RequestDurations(timed: false)
        counted.record(route: "/r", method: .get, status: 200, since: .now)
        #expect(counted.render().contains(#"http_requests_total{route="/r",method="GET",status="200"} 1"#))
        #expect(!counted.render().contains("duration"))
    }

    @Test func domainMetricsCountWhatTheCatalogDoes() async throws {
        try await withApp(demo: true, options: try await Purchasing.options()) { client, _ in
            // A picture the demo has not stored, so its renditions are made.
            let picture = PNGCodec.encode(
                RGBAImage(width: 400, height: 400, pixels: [UInt8](repeating: 77, count: 400 * 400 * 4)))
            let accepted = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(UploadTests.fields, files: [("file", picture)]))
            let refused = try await client.execute(
                uri: "/v1/admin/groups/chewy/stickers", method: .post, headers: Body.formHeaders,
                body: Body.form(UploadTests.fields, files: [("file", Samples.tiny)]))
            #expect(accepted.status == .created && refused.status == .unprocessableContent)
            let asset = try #require((accepted.json["asset"] as? [String: Any])?["url"] as? String)
            for _ in 0..<2 { _ = try await client.execute(uri: asset, method: .get) }
            let (body, headers) = Purchasing.generic(["id": "metrics-1", "type": "chargeback.created"])
            _ = try await client.execute(uri: "/v1/webhooks/purchases", method: .post, headers: headers, body: body)
            var unsigned = headers
            unsigned[HTTPField.Name("Sticker-Signature")!] = "t=1,v1=00"
            _ = try await client.execute(uri: "/v1/webhooks/purchases", method: .post, headers: unsigned, body: body)
            for _ in 0..<2 { _ = try await client.execute(uri: "/v1/manifest", method: .get) }
            let text = try await Self.metrics(client)
            #expect(Self.value(text, #"sticker_uploads_total{verdict="accepted"}"#) == 1)
            #expect(Self.value(text, #"sticker_uploads_total{verdict="dimensions_out_of_range"}"#) == 1)
            #expect(Self.value(text, "rendition_build_seconds_count") == 1)
            #expect((Self.value(text, #"cache_requests_total{cache="manifest",result="hit"}"#) ?? 0) >= 1)
            #expect((Self.value(text, #"cache_requests_total{cache="manifest",result="miss"}"#) ?? 0) >= 1)
            #expect(Self.value(text, #"cache_requests_total{cache="asset",result="miss"}"#) == 1)
            #expect(Self.value(text, #"cache_requests_total{cache="asset",result="hit"}"#) == 1)
            #expect(Self.value(text, #"webhook_deliveries_total{source="generic",outcome="ignored"}"#) == 1)
            #expect(Self.value(text, #"webhook_deliveries_total{source="generic",outcome="quarantined"}"#) == 1)
            #expect(Self.value(text, "webhook_quarantine_size") == 1)
            #expect(
                (Self.value(text, "manifest_cache_bytes") ?? 0) > 0 && (Self.value(text, "asset_cache_bytes") ?? 0) > 0)
            #expect((Self.value(text, "catalog_revision") ?? 0) >= 1)
            #expect(Self.value(text, "db_pool_waiting") == 0 && Self.value(text, "db_available") == 1)
            #expect(Self.value(text, "event_streams_open") == 0 && Self.value(text, "stickerd_ready") == 1)
        }
    }

    /// Every metric an alert rule names is one `/metrics` serves, so a renamed metric cannot silence an alert.
    @Test func alertRulesNameServedMetrics() async throws {
        let rules = try String(
            contentsOfFile: #filePath.replacingOccurrences(
                of: "Tests/StickerCatalogTests/ObservabilityTests.swift",
                with: "deploy/prometheus/alerts.yml"), encoding: .utf8)
        let names = Self.metricNames(inRules: rules)
        #expect(
            names.isSuperset(of: [
                "http_requests_total", "http_request_duration_seconds_bucket", "stickerd_ready", "db_available",
                "webhook_quarantine_size",
            ]), "\(names)")
        try await withApp(demo: true) { client, _ in
            _ = try await client.execute(uri: "/v1/manifest", method: .get)
            let text = try await Self.metrics(client)
            let served = Set(
                text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line in
                    line.split(whereSeparator: { $0 == "{" || $0 == " " }).first.map(String.init)
                })
            for name in names {
                #expect(
                    served.contains(name) || served.contains(name + "_count"),
                    "alerts.yml names \(name), which /metrics does not serve")
            }
        }
    }

    /// Metric names in the rules' `expr`s: identifiers that are not functions, keywords, label names or durations.
    static func metricNames(inRules rules: String) -> Set<String> {
        var exprs: [String] = []
        var inExpr = false
        for line in rules.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("expr:") {
                exprs.append(String(trimmed.dropFirst(5)))
                inExpr = trimmed.hasSuffix("|")
            } else if inExpr, line.hasPrefix("          ") {
                exprs[exprs.count - 1] += " " + trimmed
            } else {
                inExpr = false
            }
        }
        let keywords: Set<String> = ["by", "without", "on", "ignoring", "and", "or", "unless", "le", "bool"]
        var names: Set<String> = []
        for expr in exprs {
            let stripped = expr.replacing(/\{(?:[^{}"]|"[^"]*")*\}/, with: "").replacing(/\[[^\]]*\]/, with: "")
                .replacing(/(by|without) \([^)]*\)/, with: "")
            for match in stripped.matches(of: /([a-z_][a-z0-9_]*)(\s*\()?/)
            where match.2 == nil && !keywords.contains(String(match.1)) {
                names.insert(String(match.1))
            }
        }
        return names
    }
}

/// `--metrics-token`: /metrics tells traffic, errors and the catalog's size, so with a token set it answers only
/// whoever presents it; health routes stay open to probes.
@Suite struct MetricsTokenTests {
    @Test func metricsAnswerOnlyTheTokenWhenOneIsSet() async throws {
        let token = "metrics-token-0123456789"
        try await withApp(options: { $0.access.metricsToken = token }) { client, _ in
            for headers: HTTPFields in [
                [:], [.authorization: "Bearer wrong-token-0123456789"], [.authorization: token],
            ] {
                let refused = try await client.execute(uri: "/metrics", method: .get, headers: headers)
                #expect(refused.status == .unauthorized && refused.headers[.wwwAuthenticate] != nil, "\(headers)")
                #expect(!String(buffer: refused.body).contains("http_requests_total"))
            }
            let allowed = try await client.execute(
                uri: "/metrics", method: .get, headers: [.authorization: "Bearer \(token)"])
            #expect(allowed.status == .ok && String(buffer: allowed.body).contains("http_requests_total"))
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    @Test("Without a token, metrics are served on a loopback listener only: beyond it they would time hidden work")
    func metricsNeedATokenBeyondLoopback() async throws {
        try await withApp(options: { $0.server.host = "0.0.0.0" }) { client, _ in
            let refused = try await client.execute(uri: "/metrics", method: .get)
            #expect(refused.status == .unauthorized && refused.problemCode == "unauthorized")
            #expect(!String(buffer: refused.body).contains("http_requests_total"))
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
        try await withApp(options: { $0.server.host = "::1" }) { client, _ in
            let open = try await client.execute(uri: "/metrics", method: .get)
            #expect(open.status == .ok)
        }
        #expect(ServiceOptions.isLoopback("127.0.0.1") && ServiceOptions.isLoopback("localhost"))
        #expect(!ServiceOptions.isLoopback("0.0.0.0") && !ServiceOptions.isLoopback("10.0.0.1"))
        #expect(!ServiceOptions.isLoopback("127.example.com"))
    }
}
