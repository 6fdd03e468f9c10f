/// The filtering rule of BRIEF.md as a plain function: a flag on a group covers each of its stickers,
/// a flag on a sticker selects that sticker alone, and a sticker is selected when it is covered by every required flag.
public func isSelected(requiredFlags: Set<String>, groupFlags: [String], stickerFlags: [String]) -> Bool {
    requiredFlags.allSatisfy { groupFlags.contains($0) || stickerFlags.contains($0) }
}

/// Picks the text for `locale` from `localized`: the exact tag, then its language, else `fallback`.
public func localized(_ localized: [String: String], locale: String?, fallback: String) -> String {
    guard let locale, !localized.isEmpty else { return fallback }
    if let exact = localized[locale] ?? localized.first(where: { $0.key.lowercased() == locale.lowercased() })?.value {
        return exact
    }
    let language = String(locale.prefix { $0 != "-" }).lowercased()
    return localized[language] ?? localized.first(where: { $0.key.lowercased().hasPrefix(language + "-") })?.value ?? fallback
}
