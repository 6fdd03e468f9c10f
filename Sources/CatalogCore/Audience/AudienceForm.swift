/// An audience as the API sends and stores it (`audience` on a group): each condition optional, none validated yet.
/// `Audience(form:errors:)` checks it, naming each bad field; `Audience.form` is the canonical form stored in the
/// database and answered to admins, so what was saved reads back the same.
package struct AudienceForm: Codable, Sendable, Hashable {
    package var countries: [String]?
    package var platforms: [String]?
    package var appVersions: VersionRange?
    /// 0 to 100, tenths at most.
    package var percentage: Double?

    package struct VersionRange: Codable, Sendable, Hashable {
        package var minimum: String?
        package var maximum: String?

        package init(minimum: String? = nil, maximum: String? = nil) {
            (self.minimum, self.maximum) = (minimum, maximum)
        }
    }

    package init(
        countries: [String]? = nil, platforms: [String]? = nil, appVersions: VersionRange? = nil,
        percentage: Double? = nil
    ) {
        (self.countries, self.platforms, self.appVersions, self.percentage) = (
            countries, platforms, appVersions, percentage
        )
    }
}

extension Audience {
    /// Most countries or platforms one audience lists.
    package static let maxListed = 300

    /// The audience `form` names, or nil with each bad field recorded in `errors` under `field` (`audience`).
    package init?(form: AudienceForm, field: String = "audience", errors: inout FieldErrors) {
        let before = errors.issues.count
        // `{}` would restrict the group to everyone, yet sign all its image URLs and keep it from shared caches: an
        // audience names a condition, and `null` is everyone.
        errors.check(
            form.countries != nil || form.platforms != nil || form.appVersions != nil || form.percentage != nil, field,
            "must give at least one condition (countries, platforms, appVersions or percentage); null for everyone")
        var audience = Audience()
        if let countries = form.countries {
            errors.check(
                !countries.isEmpty && countries.count <= Self.maxListed, "\(field).countries",
                "must list 1 to \(Self.maxListed) countries; leave it out for every country")
            for (index, code) in countries.enumerated() where !Self.isCountry(code) {
                errors.check(false, "\(field).countries[\(index)]", "must be an ISO 3166-1 alpha-2 code such as US")
            }
            audience.countries = Set(countries)
        }
        if let platforms = form.platforms {
            errors.check(
                !platforms.isEmpty && platforms.count <= Self.maxListed, "\(field).platforms",
                "must list 1 to \(Self.maxListed) platforms; leave it out for every platform")
            for (index, name) in platforms.enumerated() where !Self.isPlatform(name) {
                errors.check(
                    false, "\(field).platforms[\(index)]",
                    "must be a lower-case platform name such as ios, android or web")
            }
            audience.platforms = Set(platforms)
        }
        if let range = form.appVersions { audience.versions(range, field: "\(field).appVersions", errors: &errors) }
        if let percentage = form.percentage {
            let tenths = (percentage * 10).rounded()
            errors.check(
                (0...100).contains(percentage) && abs(tenths - percentage * 10) < 1e-6, "\(field).percentage",
                "must be from 0 to 100 with at most one decimal")
            audience.permille = Int(exactly: tenths) ?? 0
        }
        guard errors.issues.count == before else { return nil }
        self = audience
    }

    private mutating func versions(_ range: AudienceForm.VersionRange, field: String, errors: inout FieldErrors) {
        let rule = "must be a version such as 2.3 or 2.3.1 (up to three numbers)"
        errors.check(
            range.minimum != nil || range.maximum != nil, field, "must give a minimum, a maximum or both")
        if let text = range.minimum {
            minimumVersion = AppVersion(text)
            errors.check(minimumVersion != nil, "\(field).minimum", rule)
        }
        if let text = range.maximum {
            maximumVersion = AppVersion(text)
            errors.check(maximumVersion != nil, "\(field).maximum", rule)
        }
        if let minimumVersion, let maximumVersion {
            errors.check(minimumVersion <= maximumVersion, field, "minimum must not exceed maximum")
        }
    }

    /// The canonical form: lists sorted, versions with three numbers, the percentage in tenths.
    package var form: AudienceForm {
        AudienceForm(
            countries: countries?.sorted(), platforms: platforms?.sorted(),
            appVersions: minimumVersion == nil && maximumVersion == nil
                ? nil
                : AudienceForm.VersionRange(minimum: minimumVersion?.description, maximum: maximumVersion?.description),
            percentage: permille.map { Double($0) / 10 })
    }

    /// The audience stored as `form` (already validated when it was saved); nil when it no longer reads.
    package init?(stored form: AudienceForm) {
        var errors = FieldErrors()
        guard let audience = Audience(form: form, errors: &errors) else { return nil }
        self = audience
    }
}
