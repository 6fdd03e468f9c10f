import Crypto

/// Who may see a group (issue 37): every condition given must hold; none given is everyone. Countries are ISO 3166-1
/// alpha-2 codes, platforms lower-case names (`ios`, `android`, `web`), app versions an inclusive range, and
/// `percentage` a share of installations (0 to 100, tenths) picked by a stable bucket.
package struct Audience: Sendable, Hashable {
    package var countries: Set<String>?
    package var platforms: Set<String>?
    package var minimumVersion: AppVersion?
    package var maximumVersion: AppVersion?
    /// Tenths of a percent: 0 to 1,000.
    package var permille: Int?

    package init(
        countries: Set<String>? = nil, platforms: Set<String>? = nil, minimumVersion: AppVersion? = nil,
        maximumVersion: AppVersion? = nil, permille: Int? = nil
    ) {
        (self.countries, self.platforms, self.permille) = (countries, platforms, permille)
        (self.minimumVersion, self.maximumVersion) = (minimumVersion, maximumVersion)
    }

    /// Whether `facts` fall in this audience for the group salted `salt`. A fact the caller did not state fails the
    /// condition that needs it: a country-restricted group is not shown when the country is unknown.
    package func includes(_ facts: AudienceFacts, salt: String) -> Bool {
        if let countries, !(facts.country.map(countries.contains) ?? false) { return false }
        if let platforms, !(facts.platform.map(platforms.contains) ?? false) { return false }
        if minimumVersion != nil || maximumVersion != nil {
            guard let version = facts.appVersion else { return false }
            if let minimumVersion, version < minimumVersion { return false }
            if let maximumVersion, maximumVersion < version { return false }
        }
        if let permille {
            guard let installation = facts.installation else { return permille >= 1000 }
            return Self.bucket(installation: installation, salt: salt) < permille
        }
        return true
    }

    /// An installation's place among 1,000 for one group: the first two bytes of SHA-256 over the salt and the id.
    /// Stable, so raising a percentage keeps everyone it had (their buckets stay below it); salted per group, so
    /// the same installations are not first in every rollout.
    package static func bucket(installation: String, salt: String) -> Int {
        let digest = Array(SHA256.hash(data: Array("\(salt)\u{0}\(installation)".utf8)))
        return (Int(digest[0]) << 8 | Int(digest[1])) % 1000
    }

    /// A country code: two upper-case ASCII letters.
    package static func isCountry(_ code: String) -> Bool {
        code.utf8.count == 2 && code.utf8.allSatisfy { $0 >= 65 && $0 <= 90 }
    }

    /// A platform name: 1 to 32 lower-case letters, digits or dashes, starting with a letter.
    package static func isPlatform(_ name: String) -> Bool {
        guard let first = name.utf8.first, name.utf8.count <= 32, first >= 97, first <= 122 else { return false }
        return name.utf8.allSatisfy { ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 45 }
    }
}

/// What a request says of its caller, for audiences: none of it is stored or logged with the request.
package struct AudienceFacts: Sendable, Hashable {
    package var country: String?
    package var platform: String?
    package var appVersion: AppVersion?
    /// A random id the client made once per installation (never a user id).
    package var installation: String?

    package init(
        country: String? = nil, platform: String? = nil, appVersion: AppVersion? = nil, installation: String? = nil
    ) {
        (self.country, self.platform, self.appVersion, self.installation) = (
            country, platform, appVersion, installation
        )
    }
}
