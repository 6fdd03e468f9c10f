import Foundation
import StickerImage

/// A new group, as `POST /v1/admin/groups` receives it.
package struct GroupDraft: Decodable, Sendable {
    package var id: String
    package var name: String
    package var localizedNames: [String: String]?
    package var sizeClass: SizeClass?
    package var flags: [String]?
    package var productId: String?
    /// Where the group goes (0 is first); the others move down. Nil places it by name.
    package var position: Int?
    package var published: Bool?
    /// RFC 3339 moments it appears and leaves (`Schedule`).
    package var publishAt: String?
    package var unpublishAt: String?
    /// Who sees it (`AudienceForm`); absent is everyone.
    package var audienceForm: AudienceForm?
    /// A line under its name in a browse list, and its translations; absent is none.
    package var description: String?
    package var localizedDescriptions: [String: String]?

    package enum CodingKeys: String, CodingKey {
        case id, name, localizedNames, sizeClass, flags, productId, position, published, publishAt, unpublishAt
        case audienceForm = "audience"
        case description, localizedDescriptions
    }

    package init(
        id: String, name: String, localizedNames: [String: String]? = nil, sizeClass: SizeClass? = nil,
        flags: [String]? = nil, productId: String? = nil, position: Int? = nil, published: Bool? = nil,
        publishAt: String? = nil, unpublishAt: String? = nil, audience: AudienceForm? = nil,
        description: String? = nil, localizedDescriptions: [String: String]? = nil
    ) {
        (self.description, self.localizedDescriptions) = (description, localizedDescriptions)
        audienceForm = audience
        (self.id, self.name, self.localizedNames, self.sizeClass) = (id, name, localizedNames, sizeClass)
        (self.flags, self.productId, self.position, self.published) = (flags, productId, position, published)
        (self.publishAt, self.unpublishAt) = (publishAt, unpublishAt)
    }

    /// The schedule the fields name (once `validate()` passed).
    package var schedule: Schedule {
        Schedule(publishAt: publishAt.flatMap(RFC3339.date), unpublishAt: unpublishAt.flatMap(RFC3339.date))
    }

    /// Throws `invalid` naming each bad field.
    package func validate() throws(CatalogError) {
        var errors = FieldErrors()
        errors.check(
            Validate.isSlug(id), "id", "must be a URL-safe slug: lowercase letters, digits and dashes, at most 64")
        errors.name(name)
        errors.localizations(localizedNames ?? [:], field: "localizedNames", maxLength: Validate.maxName)
        errors.groupDescription(description, localizedDescriptions)
        errors.flags(flags ?? [])
        errors.productId(productId)
        errors.position(position)
        _ = errors.schedule(publishAt: publishAt, unpublishAt: unpublishAt)
        if let audienceForm { _ = Audience(form: audienceForm, errors: &errors) }
        try errors.throwIfAny()
    }

    /// The audience the body names (once `validate()` passed).
    package var audience: Audience? { audienceForm.flatMap(Audience.init(stored:)) }
}

/// Changes to a group, as `PATCH /v1/admin/groups/{id}` receives them: absent fields stay as they are, `null` clears
/// `productId`, `coverStickerId`, `publishAt` and `unpublishAt` and is refused elsewhere, and every value meets the
/// rules of a new group.
package struct GroupPatch: Decodable, Sendable {
    package var name: PatchField<String> = .absent
    package var localizedNames: PatchField<[String: String]> = .absent
    package var sizeClass: PatchField<SizeClass> = .absent
    package var flags: PatchField<[String]> = .absent
    package var productId: PatchField<String> = .absent
    package var position: PatchField<Int> = .absent
    package var published: PatchField<Bool> = .absent
    package var coverStickerId: PatchField<UUID> = .absent
    package var publishAt: PatchField<String> = .absent
    package var unpublishAt: PatchField<String> = .absent
    /// A new audience; `null` is everyone again.
    package var audience: PatchField<AudienceForm> = .absent
    /// A new description (empty removes it) and its translations (`{}` removes them).
    package var description: PatchField<String> = .absent
    package var localizedDescriptions: PatchField<[String: String]> = .absent

    package enum CodingKeys: String, CodingKey {
        case name, localizedNames, sizeClass, flags, productId, position, published, coverStickerId, publishAt,
            unpublishAt, audience, description, localizedDescriptions
    }

    package init() {}

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodePatch(String.self, forKey: .name)
        localizedNames = try c.decodePatch([String: String].self, forKey: .localizedNames)
        sizeClass = try c.decodePatch(SizeClass.self, forKey: .sizeClass)
        flags = try c.decodePatch([String].self, forKey: .flags)
        productId = try c.decodePatch(String.self, forKey: .productId)
        position = try c.decodePatch(Int.self, forKey: .position)
        published = try c.decodePatch(Bool.self, forKey: .published)
        coverStickerId = try c.decodePatch(UUID.self, forKey: .coverStickerId)
        publishAt = try c.decodePatch(String.self, forKey: .publishAt)
        unpublishAt = try c.decodePatch(String.self, forKey: .unpublishAt)
        audience = try c.decodePatch(AudienceForm.self, forKey: .audience)
        description = try c.decodePatch(String.self, forKey: .description)
        localizedDescriptions = try c.decodePatch([String: String].self, forKey: .localizedDescriptions)
    }

    /// The audience set (once `validate()` passed); nil when absent or cleared.
    package var audienceValue: Audience? { audience.value.flatMap(Audience.init(stored:)) }

    /// The schedule's changes (once `validate()` passed).
    package var schedule: SchedulePatch { SchedulePatch(publishAt: publishAt, unpublishAt: unpublishAt) }

    package func validate() throws(CatalogError) {
        var errors = FieldErrors()
        errors.notNull(name, "name")
        errors.notNull(localizedNames, "localizedNames")
        errors.notNull(sizeClass, "sizeClass")
        errors.notNull(flags, "flags")
        errors.notNull(position, "position")
        errors.notNull(published, "published")
        errors.notNull(description, "description")
        errors.notNull(localizedDescriptions, "localizedDescriptions")
        if let name = name.value { errors.name(name) }
        errors.localizations(localizedNames.value ?? [:], field: "localizedNames", maxLength: Validate.maxName)
        errors.groupDescription(description.value, localizedDescriptions.value)
        errors.flags(flags.value ?? [])
        errors.productId(productId.value)
        errors.position(position.value)
        _ = errors.schedule(publishAt: publishAt.value, unpublishAt: unpublishAt.value)
        if let form = audience.value { _ = Audience(form: form, errors: &errors) }
        try errors.throwIfAny()
    }
}
