import Foundation

/// The fields of an upload besides the image (multipart fields or query parameters).
package struct StickerDraft: Sendable {
    package var name: String
    package var description: String
    package var localizedDescriptions: [String: String] = [:]
    package var flags: [String] = []
    package var keywords: [String] = []
    package var emoji: [String] = []
    /// Where the sticker goes in its group (0 is first); the others move down. Nil puts it last.
    package var position: Int?
    /// When it appears and leaves in its group.
    package var schedule = Schedule()

    package init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    /// Reads form fields: lists are comma-separated, `localizedDescriptions` is a JSON object.
    package init(fields: [String: String]) throws(CatalogError) {
        var errors = FieldErrors()
        let list = { (key: String) in
            (fields[key] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
                !$0.isEmpty
            }
        }
        self.init(name: fields["name"] ?? "", description: fields["description"] ?? "")
        flags = list("flags")
        keywords = list("keywords")
        emoji = list("emoji")
        if let text = fields["position"] {
            position = Int(text)
            errors.check(position != nil, "position", "must be an integer from 0 to \(Validate.maxPosition)")
        }
        if let text = fields["localizedDescriptions"], !text.isEmpty {
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
            errors.check(object != nil, "localizedDescriptions", "must be a JSON object of language tag to text")
            localizedDescriptions = object ?? [:]
        }
        let (publishAt, unpublishAt) = errors.schedule(
            publishAt: fields["publishAt"], unpublishAt: fields["unpublishAt"])
        schedule = Schedule(publishAt: publishAt, unpublishAt: unpublishAt)
        try errors.throwIfAny()
    }

    package func validate() throws(CatalogError) {
        var errors = FieldErrors()
        errors.name(name)
        errors.check(!description.isEmpty, "description", "is required: it is the sticker's accessibility label")
        if !description.isEmpty { errors.text(description, "description", maxLength: Validate.maxDescription) }
        errors.stickerTerms(localized: localizedDescriptions, keywords: keywords, emoji: emoji)
        errors.flags(flags)
        errors.position(position)
        try errors.throwIfAny()
    }
}

/// Changes to a sticker, as `PATCH /v1/admin/stickers/{id}` receives them: absent fields stay as they are; only
/// `publishAt` and `unpublishAt` may be null (visible from always or until ever), and every value meets an upload's
/// rules.
package struct StickerPatch: Decodable, Sendable {
    package var name: PatchField<String> = .absent
    package var description: PatchField<String> = .absent
    package var localizedDescriptions: PatchField<[String: String]> = .absent
    package var flags: PatchField<[String]> = .absent
    package var keywords: PatchField<[String]> = .absent
    package var emoji: PatchField<[String]> = .absent
    package var position: PatchField<Int> = .absent
    package var publishAt: PatchField<String> = .absent
    package var unpublishAt: PatchField<String> = .absent

    package enum CodingKeys: String, CodingKey {
        case name, description, localizedDescriptions, flags, keywords, emoji, position, publishAt, unpublishAt
    }

    package init() {}

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodePatch(String.self, forKey: .name)
        description = try c.decodePatch(String.self, forKey: .description)
        localizedDescriptions = try c.decodePatch([String: String].self, forKey: .localizedDescriptions)
        flags = try c.decodePatch([String].self, forKey: .flags)
        keywords = try c.decodePatch([String].self, forKey: .keywords)
        emoji = try c.decodePatch([String].self, forKey: .emoji)
        position = try c.decodePatch(Int.self, forKey: .position)
        publishAt = try c.decodePatch(String.self, forKey: .publishAt)
        unpublishAt = try c.decodePatch(String.self, forKey: .unpublishAt)
    }

    /// The schedule's changes (once `validate()` passed).
    package var schedule: SchedulePatch { SchedulePatch(publishAt: publishAt, unpublishAt: unpublishAt) }

    package func validate() throws(CatalogError) {
        var errors = FieldErrors()
        errors.notNull(name, "name")
        errors.notNull(description, "description")
        errors.notNull(localizedDescriptions, "localizedDescriptions")
        errors.notNull(flags, "flags")
        errors.notNull(keywords, "keywords")
        errors.notNull(emoji, "emoji")
        errors.notNull(position, "position")
        if let name = name.value { errors.name(name) }
        if let description = description.value {
            errors.text(description, "description", maxLength: Validate.maxDescription)
        }
        errors.stickerTerms(
            localized: localizedDescriptions.value ?? [:], keywords: keywords.value ?? [], emoji: emoji.value ?? [])
        errors.flags(flags.value ?? [])
        errors.position(position.value)
        _ = errors.schedule(publishAt: publishAt.value, unpublishAt: unpublishAt.value)
        try errors.throwIfAny()
    }
}

extension FieldErrors {
    package mutating func stickerTerms(localized: [String: String], keywords: [String], emoji: [String]) {
        localizations(localized, field: "localizedDescriptions", maxLength: Validate.maxDescription)
        check(
            keywords.count <= Validate.maxListItems && keywords.allSatisfy { Validate.isText($0, maxLength: 40) },
            "keywords",
            "must be at most \(Validate.maxListItems) keywords of 1 to 40 characters")
        check(
            emoji.count <= Validate.maxListItems && emoji.allSatisfy(Validate.isEmoji), "emoji",
            "must be at most \(Validate.maxListItems) single emoji")
    }
}
