import Foundation

/// The fields of an upload besides the image (multipart fields or query parameters).
public struct StickerDraft: Sendable {
    public var name: String
    public var description: String
    public var localizedDescriptions: [String: String] = [:]
    public var flags: [String] = []
    public var keywords: [String] = []
    public var emoji: [String] = []
    /// Nil puts the sticker last in its group.
    public var position: Int?

    public init(name: String, description: String) {
        self.name = name
        self.description = description
    }

    /// Reads form fields: lists are comma-separated, `localizedDescriptions` is a JSON object.
    public init(fields: [String: String]) throws(Problem) {
        var errors = FieldErrors()
        let list = { (key: String) in (fields[key] ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } }
        self.init(name: fields["name"] ?? "", description: fields["description"] ?? "")
        flags = list("flags")
        keywords = list("keywords")
        emoji = list("emoji")
        if let text = fields["position"] {
            position = Int(text)
            errors.check(position != nil, "position", "must be an integer")
        }
        if let text = fields["localizedDescriptions"], !text.isEmpty {
            let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
            errors.check(object != nil, "localizedDescriptions", "must be a JSON object of language tag to text")
            localizedDescriptions = object ?? [:]
        }
        try errors.throwIfAny()
    }

    public func validate() throws(Problem) {
        var errors = FieldErrors()
        errors.name(name)
        errors.check(!description.isEmpty, "description", "is required: it is the sticker's accessibility label")
        errors.stickerText(description: description, localized: localizedDescriptions, keywords: keywords, emoji: emoji)
        errors.flags(flags)
        try errors.throwIfAny()
    }
}

/// Changes to a sticker, as `PATCH /v1/admin/stickers/{id}` receives them.
public struct StickerPatch: Decodable, Sendable {
    public var name: String?
    public var description: String?
    public var localizedDescriptions: [String: String]?
    public var flags: [String]?
    public var keywords: [String]?
    public var emoji: [String]?
    public var position: Int?

    public func validate() throws(Problem) {
        var errors = FieldErrors()
        if let name { errors.name(name) }
        errors.stickerText(description: description ?? "", localized: localizedDescriptions ?? [:], keywords: keywords ?? [], emoji: emoji ?? [])
        errors.flags(flags ?? [])
        try errors.throwIfAny()
    }
}

extension FieldErrors {
    mutating func stickerText(description: String, localized: [String: String], keywords: [String], emoji: [String]) {
        check(description.count <= Validate.maxDescription, "description", "must be at most \(Validate.maxDescription) characters")
        localizations(localized, field: "localizedDescriptions", maxLength: Validate.maxDescription)
        check(keywords.count <= Validate.maxListItems && keywords.allSatisfy { (1...40).contains($0.count) }, "keywords",
              "must be at most \(Validate.maxListItems) keywords of 1 to 40 characters")
        check(emoji.count <= Validate.maxListItems && emoji.allSatisfy(Validate.isEmoji), "emoji",
              "must be at most \(Validate.maxListItems) single emoji")
    }
}
