import Foundation
import StickerImage

/// A new group, as `POST /v1/admin/groups` receives it.
public struct GroupDraft: Decodable, Sendable {
    public var id: String
    public var name: String
    public var localizedNames: [String: String]?
    public var sizeClass: SizeClass?
    public var flags: [String]?
    public var productId: String?
    public var position: Int?
    public var published: Bool?

    public init(id: String, name: String, localizedNames: [String: String]? = nil, sizeClass: SizeClass? = nil,
                flags: [String]? = nil, productId: String? = nil, position: Int? = nil, published: Bool? = nil) {
        (self.id, self.name, self.localizedNames, self.sizeClass) = (id, name, localizedNames, sizeClass)
        (self.flags, self.productId, self.position, self.published) = (flags, productId, position, published)
    }

    /// Throws `validation_failed` naming each bad field.
    public func validate() throws(Problem) {
        var errors = FieldErrors()
        errors.check(Validate.isSlug(id), "id", "must be a URL-safe slug: lowercase letters, digits and dashes, at most 64")
        errors.name(name)
        errors.localizations(localizedNames ?? [:], field: "localizedNames", maxLength: 100)
        errors.flags(flags ?? [])
        errors.productId(productId)
        try errors.throwIfAny()
    }
}

/// Changes to a group, as `PATCH /v1/admin/groups/{id}` receives them; absent fields stay as they are.
public struct GroupPatch: Decodable, Sendable {
    public var name: String?
    public var localizedNames: [String: String]?
    public var sizeClass: SizeClass?
    public var flags: [String]?
    public var productId: FieldUpdate<String> = .unchanged
    public var position: Int?
    public var published: Bool?
    public var coverStickerId: FieldUpdate<UUID> = .unchanged

    enum CodingKeys: String, CodingKey {
        case name, localizedNames, sizeClass, flags, productId, position, published, coverStickerId
    }

    public init() {}

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        localizedNames = try c.decodeIfPresent([String: String].self, forKey: .localizedNames)
        sizeClass = try c.decodeIfPresent(SizeClass.self, forKey: .sizeClass)
        flags = try c.decodeIfPresent([String].self, forKey: .flags)
        position = try c.decodeIfPresent(Int.self, forKey: .position)
        published = try c.decodeIfPresent(Bool.self, forKey: .published)
        if c.contains(.productId) { productId = .set(try c.decodeIfPresent(String.self, forKey: .productId)) }
        if c.contains(.coverStickerId) { coverStickerId = .set(try c.decodeIfPresent(UUID.self, forKey: .coverStickerId)) }
    }

    public func validate() throws(Problem) {
        var errors = FieldErrors()
        if let name { errors.name(name) }
        errors.localizations(localizedNames ?? [:], field: "localizedNames", maxLength: 100)
        errors.flags(flags ?? [])
        if case .set(let product) = productId { errors.productId(product) }
        try errors.throwIfAny()
    }
}

extension FieldErrors {
    /// An App Store product id: reverse-DNS-like, 1 to 100 characters.
    mutating func productId(_ value: String?) {
        guard let value else { return }
        check(Validate.isProductId(value), "productId",
              "must be 1 to 100 letters, digits, dots, dashes or underscores")
    }
}
