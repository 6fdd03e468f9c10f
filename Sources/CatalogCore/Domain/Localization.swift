/// Picks the text for a canonical `locale` from `texts` (canonical keys): the tag, then each shorter prefix
/// (`pt-BR`, then `pt`), then the alphabetically first tag of the same language (`pt` finds `pt-BR` before `pt-PT`),
/// else `fallback`. A plain function of its inputs, so every replica and every restart picks the same text.
extension StickerGroup {
    /// Its description in `locale` (its translations, falling back as names do); nil when it has none.
    package func description(in locale: String?) -> String? {
        let text = localized(localizedDescriptions, locale: locale, fallback: description)
        return text.isEmpty ? nil : text
    }
}

package func localized(_ texts: [String: String], locale: String?, fallback: String) -> String {
    guard let locale, !texts.isEmpty else { return fallback }
    for tag in LocaleTag.lookupChain(locale) {
        if let text = texts[tag] { return text }
    }
    let language = LocaleTag.language(of: locale)
    let sameLanguage = texts.keys.filter { LocaleTag.language(of: $0) == language }.min()
    return sameLanguage.flatMap { texts[$0] } ?? fallback
}

/// The catalog locale a requested tag resolves to: the longest prefix of it that some text in the catalog uses, else
/// its bare language when some text uses that language in any region, else nil (the default texts).
/// Two requests that resolve alike get the same texts from `localized` for every field, so the manifest cache keys on
/// this: made-up tags cannot multiply cache entries, and the manifest reports the resolved tag.
package func resolvedLocale(_ requested: String?, catalogLocales: Set<String>) -> String? {
    guard let requested else { return nil }
    if let hit = LocaleTag.lookupChain(requested).first(where: catalogLocales.contains) { return hit }
    let language = LocaleTag.language(of: requested)
    return catalogLocales.contains { LocaleTag.language(of: $0) == language } ? String(language) : nil
}
