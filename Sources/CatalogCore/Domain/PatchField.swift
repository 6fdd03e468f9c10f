/// One field of a PATCH body: absent (leave it), an explicit null, or a value.
package enum PatchField<Value: Sendable>: Sendable {
    case absent
    case null
    case value(Value)

    /// The new value, nil when absent or null.
    package var value: Value? {
        if case .value(let value) = self { value } else { nil }
    }

    package var isNull: Bool {
        if case .null = self { true } else { false }
    }
}

extension PatchField: Equatable where Value: Equatable {}

extension KeyedDecodingContainer {
    /// Tells an absent key from an explicit null from a value.
    package func decodePatch<T: Decodable & Sendable>(_ type: T.Type, forKey key: Key) throws -> PatchField<T> {
        guard contains(key) else { return .absent }
        if try decodeNil(forKey: key) { return .null }
        return .value(try decode(type, forKey: key))
    }
}

extension FieldErrors {
    /// A field that cannot be null must not be sent as null.
    package mutating func notNull<T>(_ field: PatchField<T>, _ name: String) {
        check(!field.isNull, name, "cannot be null; leave it out to keep it unchanged")
    }
}
