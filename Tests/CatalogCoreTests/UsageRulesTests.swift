import CatalogCore
import Foundation
import Testing

/// Usage batches as the API reads them, UTC days, and the decay rule: no database.
@Suite struct UsageRulesTests {
    static func batch(_ json: String) throws(CatalogError) -> [UsageEvent]? { try UsageBatch.events(Array(json.utf8)) }

    static func fields(_ json: String) -> [String] {
        do {
            _ = try batch(json)
            return []
        } catch {
            guard case .invalid(let issues) = error else { return ["not invalid: \(error)"] }
            return issues.map(\.field)
        }
    }

    @Test func aBatchIsReadFieldByFieldWithEveryRFC3339Form() throws {
        let id = "80a60794-e43c-48f5-9fad-a50ec06e084e"
        let events = try #require(
            try Self.batch(
                """
                {"events":[{"sticker":"\(id)","action":"sent","at":"2026-11-28T09:30:00Z"},
                {"sticker":"\(id.uppercased())","action":"tapped","at":"2026-11-28t11:00:00.250+01:30"},
                {"sticker":"\(id)","action":"viewed","at":"2026-11-28T09:30:00z","extra":true}]}
                """))
        #expect(events.map(\.action) == [.sent, .tapped, .viewed])
        #expect(events[0].at == events[2].at)
        #expect(events[1].at.timeIntervalSince(events[0].at) == 0.25)
        #expect(Set(events.map(\.sticker)).count == 1)
        #expect(try Self.batch("not json") == nil)
        #expect(Self.fields("[]") == ["body"])
        #expect(Self.fields(#"{"events":{}}"#) == ["events"])
        #expect(Self.fields(#"{"events":[]}"#) == ["events"])
        #expect(Self.fields(#"{"events":[7]}"#) == ["events[0]"])
        #expect(
            Self.fields(#"{"events":[{"sticker":"\#(id)x","action":"Sent","at":"2026-02-30T00:00:00Z"}]}"#)
                == ["events[0].sticker", "events[0].action", "events[0].at"])
        #expect(
            Self.fields(#"{"events":[{"sticker":"\#(id)","action":"sent","at":"2026-11-28 09:30"}]}"#) == [
                "events[0].at"
            ])
        let many = Array(repeating: #"{"sticker":"\#(id)","action":"sent","at":"2026-11-28T09:30:00Z"}"#, count: 101)
        #expect(Self.fields(#"{"events":[\#(many.joined(separator: ","))]}"#) == ["events"])
        #expect(try Self.batch(#"{"events":[\#(many.dropLast().joined(separator: ","))]}"#)?.count == 100)
    }

    @Test func theScanReadsWhatJSONSerializationReadsOrLeavesItToIt() throws {
        var random = SystemRandomNumberGenerator()
        let pieces = [
            "\"", "\\u0041", "{", "}", "[", "]", ",", ":", " ", "\n", "events", "sticker", "action", "at", "sent", "x",
            "2026-11-28T09:30:00Z", "80a60794-e43c-48f5-9fad-a50ec06e084e", "1", "null", "é",
        ]
        var scanned = 0
        for round in 0..<3000 {
            let body: String
            if round % 3 == 0 {
                // Mangled: random pieces, most not JSON, some JSON of another shape.
                body = (0..<Int.random(in: 1...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                    .joined()
            } else {
                // Well formed, keys in any order, spaces anywhere, values sometimes wrong or escaped.
                let events = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    let fields = [
                        #""sticker":"\#(["80a60794-e43c-48f5-9fad-a50ec06e084e", "x", "80A60794-E43C-48F5-9FAD-A50EC06E084E"].randomElement(using: &random)!)""#,
                        #""action":"\#(["sent", "tapped", "Sent", "s\\u0065nt"].randomElement(using: &random)!)""#,
                        #""at":"\#(["2026-11-28T09:30:00Z", "2026-11-28T09:30:00.5+01:00", "2026-02-30T00:00:00Z"].randomElement(using: &random)!)""#,
                    ].shuffled(using: &random)
                    return "{ " + fields.joined(separator: round % 2 == 0 ? "," : " ,\n ") + "}"
                }
                body = #"{"events" : ["# + events.joined(separator: ",") + "]}" + (round % 5 == 0 ? " x" : "\n")
            }
            let bytes = Array(body.utf8)
            guard let fast = UsageBatch.scanned(bytes) else { continue }
            scanned += 1
            let slow = try #require(try UsageBatch.serialized(bytes), "\(body)")
            #expect(fast == slow, "\(body)")
        }
        #expect(scanned > 50)  // the common form is scanned, not left to JSONSerialization
        let id = "80a60794-e43c-48f5-9fad-a50ec06e084e"
        let usual = #"{"events":[{"sticker":"\#(id)","action":"sent","at":"2026-11-28T09:30:00Z"}]}"#
        #expect(UsageBatch.scanned(Array(usual.utf8))?.count == 1)
    }

    @Test func daysReadAndWriteAsTheCalendarHasThem() {
        for text in ["1970-01-01", "2000-02-29", "2026-11-28", "2026-12-31", "9999-12-31", "0001-01-01"] {
            #expect(UsageDay(text)?.text == text)
        }
        for text in [
            "2026-02-29", "2026-13-01", "2026-1-01", "26-11-28", "2026-11-28T00:00:00Z", "0000-01-01", "+026-11-28",
        ] {
            #expect(UsageDay(text) == nil, "\(text)")
        }
        #expect(UsageDay("2026-11-28")?.number == 20_785)
        #expect(UsageDay(Date(timeIntervalSince1970: 20_785 * 86_400 + 86_399)).text == "2026-11-28")
        #expect(UsageDay("2026-11-28")!.advanced(by: 3).text == "2026-12-01")
    }
}
