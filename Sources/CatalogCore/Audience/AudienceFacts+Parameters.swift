extension AudienceFacts {
    /// The parameters an admin preview or an export takes to stand in for a caller: `country`, `platform`,
    /// `appVersion` and `bucket` (a place among 1,000 in place of an installation id).
    package static let parameterNames: Set<String> = ["country", "platform", "appVersion", "bucket"]

    /// The caller `parameters` describe, each checked (`invalidParameter` naming the first that is not); none is
    /// everyone's view without restricted groups.
    package init(parameters: [String: String]) throws(CatalogError) {
        self.init()
        if let country = parameters["country"] {
            guard Audience.isCountry(country) else {
                throw .invalidParameter(name: "country", rule: "must be an ISO 3166-1 alpha-2 code such as US")
            }
            self.country = country
        }
        if let platform = parameters["platform"] {
            guard Audience.isPlatform(platform) else {
                throw .invalidParameter(
                    name: "platform", rule: "must be a lower-case platform name such as ios, android or web")
            }
            self.platform = platform
        }
        if let version = parameters["appVersion"] {
            guard let parsed = AppVersion(version) else {
                throw .invalidParameter(name: "appVersion", rule: "must be a version such as 2.3 or 2.3.1")
            }
            appVersion = parsed
        }
        if let text = parameters["bucket"] {
            guard text.utf8.count <= 3, let bucket = Int(text), (0...999).contains(bucket) else {
                throw .invalidParameter(name: "bucket", rule: "must be an integer from 0 to 999")
            }
            self.bucket = bucket
        }
    }
}
