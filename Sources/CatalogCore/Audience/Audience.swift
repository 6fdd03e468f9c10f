/// Who may see a group (issue 37): every condition given must hold; none given is everyone. Countries are ISO 3166-1
/// alpha-2 codes, platforms lower-case names (`ios`, `android`, `web`), app versions an inclusive range, and
/// `percentage` a share of installations (0 to 100, tenths) picked by a stable bucket.
package struct Audience: Sendable, Hashable, Codable {
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
            if let bucket = facts.bucket { return bucket < permille }
            guard let installation = facts.installation else { return permille >= 1000 }
            return Self.bucket(installation: installation, salt: salt) < permille
        }
        return true
    }

    /// An installation's place among 1,000 for one group: a 64-bit FNV-1a hash of the salt, a zero byte and the id,
    /// mixed by SplitMix64's finaliser (so nearby ids spread evenly). Stable across processes and releases, so raising
    /// a percentage keeps everyone it had (their places stay below it); salted per group, so the same installations
    /// are not first in every rollout. Not a cryptographic hash, and need not be: an installation id is whatever the
    /// client says, so a client that wants in can always pick one that is (a rollout is not a security boundary). It
    /// runs for each partial rollout on every manifest request, so it is kept to a few nanoseconds a byte.
    package static func bucket(installation: String, salt: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in salt.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = hash &* 0x100_0000_01b3  // the zero byte between them
        for byte in installation.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int(hash % 1000)
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
    /// A place among 1,000 given outright instead of an installation's (the admin preview's `bucket`).
    package var bucket: Int?

    package init(
        country: String? = nil, platform: String? = nil, appVersion: AppVersion? = nil, installation: String? = nil,
        bucket: Int? = nil
    ) {
        (self.country, self.platform, self.appVersion, self.installation) = (
            country, platform, appVersion, installation
        )
        self.bucket = bucket
    }

    /// No fact known: what an export or a preview without inputs sees (no restricted group).
    package static let none = AudienceFacts()

    /// An installation id: 8 to 64 letters, digits, dashes or underscores (a UUID fits).
    package static func isInstallation(_ id: String) -> Bool {
        (8...64).contains(id.utf8.count)
            && id.utf8.allSatisfy {
                ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 45 || $0 == 95
            }
    }
}

extension Audience {
    /// No one: what a stored audience that no longer reads becomes (fail closed).
    package static let nobody = Audience(permille: 0)

    package init(from decoder: any Decoder) throws {
        self = Audience(stored: try AudienceForm(from: decoder)) ?? .nobody
    }

    package func encode(to encoder: any Encoder) throws { try form.encode(to: encoder) }
}
