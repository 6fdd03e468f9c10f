/// Rules for the shared secrets operators configure, so that a stray comma or a short test value cannot become a key
/// anyone can sign with (`HMAC(key: "")`).
public enum Secrets {
    /// The shortest webhook secret accepted: 32 bytes, as for the other HMAC keys.
    public static let minimumWebhookSecretBytes = 32
    /// The shortest RevenueCat `Authorization` value accepted.
    public static let minimumRevenueCatAuthorization = 16

    /// A refused setting, named, with the rule it breaks (never the value).
    public struct Refused: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// `STICKER_WEBHOOK_SECRETS`: comma-separated, each at least 32 bytes once trimmed; an empty item is refused, not
    /// skipped, since it means the list is not what the operator thinks it is.
    public static func webhookSecrets(_ list: String) throws(Refused) -> [[UInt8]] {
        let items = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        for (index, item) in items.enumerated() where item.utf8.count < minimumWebhookSecretBytes {
            throw Refused(description: "STICKER_WEBHOOK_SECRETS: secret \(index + 1) of \(items.count) is "
                + (item.isEmpty ? "empty" : "shorter than \(minimumWebhookSecretBytes) bytes"))
        }
        return items.map { Array($0.utf8) }
    }

    /// `STICKER_REVENUECAT_AUTH`: the whole header value, at least 16 characters.
    public static func revenueCatAuthorization(_ value: String) throws(Refused) -> String {
        guard value.count >= minimumRevenueCatAuthorization else {
            throw Refused(description: "STICKER_REVENUECAT_AUTH must be at least \(minimumRevenueCatAuthorization) characters")
        }
        return value
    }
}

extension Substring {
    func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
