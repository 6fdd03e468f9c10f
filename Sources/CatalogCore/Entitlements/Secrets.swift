/// Rules for the shared secrets operators configure, so that a stray comma or a short test value cannot become a key
/// anyone can sign with (`HMAC(key: "")`).
package enum Secrets {
    /// The shortest webhook secret accepted: 32 bytes, as for the other HMAC keys.
    package static let minimumWebhookSecretBytes = 32
    /// The shortest RevenueCat `Authorization` value accepted.
    package static let minimumRevenueCatAuthorization = 16

    /// A refused setting, named, with the rule it breaks (never the value).
    package struct Refused: Error, CustomStringConvertible, Equatable {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// `STICKER_WEBHOOK_SECRETS`: comma-separated, each at least 32 bytes once trimmed; an empty item is refused, not
    /// skipped, since it means the list is not what the operator thinks it is.
    package static func webhookSecrets(_ list: String) throws(Refused) -> [[UInt8]] {
        let items = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingWhitespace() }
        for (index, item) in items.enumerated() where item.utf8.count < minimumWebhookSecretBytes {
            throw Refused(
                description: "STICKER_WEBHOOK_SECRETS: secret \(index + 1) of \(items.count) is "
                    + (item.isEmpty ? "empty" : "shorter than \(minimumWebhookSecretBytes) bytes"))
        }
        return items.map { Array($0.utf8) }
    }

    /// `STICKER_REVENUECAT_AUTH`: the whole header value, at least 16 characters.
    package static func revenueCatAuthorization(_ value: String) throws(Refused) -> String {
        guard value.count >= minimumRevenueCatAuthorization else {
            throw Refused(
                description: "STICKER_REVENUECAT_AUTH must be at least \(minimumRevenueCatAuthorization) characters")
        }
        return value
    }
}

extension Substring {
    package func trimmingWhitespace() -> String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
