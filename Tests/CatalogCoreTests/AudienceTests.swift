import CatalogCore
import Foundation
import Testing

/// Audiences as plain rules (issue 37's first step): each condition alone and together, versions, stable buckets.
@Suite struct AudienceTests {
    let facts = AudienceFacts(country: "US", platform: "ios", appVersion: AppVersion("2.3"), installation: "install-1")

    @Test func eachConditionAloneAndTogether() throws {
        #expect(Audience().includes(facts, salt: "g"))
        #expect(Audience(countries: ["US", "CA"]).includes(facts, salt: "g"))
        #expect(!Audience(countries: ["CA"]).includes(facts, salt: "g"))
        #expect(!Audience(countries: ["US"]).includes(AudienceFacts(), salt: "g"))  // unknown country: not shown
        #expect(Audience(platforms: ["ios"]).includes(facts, salt: "g"))
        #expect(!Audience(platforms: ["android"]).includes(facts, salt: "g"))
        #expect(Audience(minimumVersion: AppVersion("2.3.0")).includes(facts, salt: "g"))
        #expect(!Audience(minimumVersion: AppVersion("2.3.1")).includes(facts, salt: "g"))
        #expect(!Audience(maximumVersion: AppVersion("2.2.9")).includes(facts, salt: "g"))
        #expect(!Audience(minimumVersion: AppVersion("1")).includes(AudienceFacts(country: "US"), salt: "g"))
        #expect(
            Audience(permille: 1000).includes(facts, salt: "g") && !Audience(permille: 0).includes(facts, salt: "g"))
        #expect(!Audience(permille: 999).includes(AudienceFacts(), salt: "g"))  // no installation id: not in a rollout
        let all = Audience(
            countries: ["US"], platforms: ["ios"], minimumVersion: AppVersion("2"), maximumVersion: AppVersion("3"),
            permille: 1000)
        #expect(all.includes(facts, salt: "g"))
        var other = facts
        other.platform = "web"
        #expect(!all.includes(other, salt: "g"))  // every condition must hold
    }

    @Test func versionsCompareAsNumbersWithMissingPartsZero() throws {
        #expect(try #require(AppVersion("2.10")) > (try #require(AppVersion("2.9.9"))))
        #expect(AppVersion("2") == AppVersion("2.0.0") && AppVersion("2.3")?.description == "2.3.0")
        for bad in ["", "2.", ".2", "2.3.4.5", "v2", "2.-1", "2.3-beta", "1234567", "2..3"] {
            #expect(AppVersion(bad) == nil, "\(bad)")
        }
    }

    @Test func raisingAPercentageKeepsEveryoneItHadAndBucketsDifferPerGroup() {
        let installations = (0..<5000).map { "install-\($0)" }
        var had: Set<String> = []
        for permille in [0, 100, 250, 500, 1000] {
            let now = Set(
                installations.filter {
                    Audience(permille: permille).includes(AudienceFacts(installation: $0), salt: "g")
                })
            #expect(had.isSubset(of: now), "\(permille)")
            // About the share asked: within 3 points of it on 5,000 installations.
            #expect(abs(Double(now.count) / 5000 - Double(permille) / 1000) < 0.03, "\(permille): \(now.count)")
            had = now
        }
        let first = Set(installations.filter { Audience.bucket(installation: $0, salt: "thanksgiving") < 100 })
        let second = Set(installations.filter { Audience.bucket(installation: $0, salt: "webp-pack") < 100 })
        #expect(first.intersection(second).count < first.count / 3)  // another group's first 10% is another 10%
    }

    @Test func countryAndPlatformNames() {
        #expect(Audience.isCountry("US") && !Audience.isCountry("us") && !Audience.isCountry("USA"))
        #expect(Audience.isPlatform("ios") && Audience.isPlatform("smart-tv2") && !Audience.isPlatform("iOS"))
        #expect(!Audience.isPlatform("2ds") && !Audience.isPlatform(String(repeating: "a", count: 33)))
    }
}
