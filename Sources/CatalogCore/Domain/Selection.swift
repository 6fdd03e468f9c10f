/// The filtering rule of BRIEF.md as a plain function: a flag on a group covers each of its stickers,
/// a flag on a sticker selects that sticker alone, and a sticker is selected when it is covered by every required flag.
package func isSelected(requiredFlags: Set<String>, groupFlags: [String], stickerFlags: [String]) -> Bool {
    requiredFlags.allSatisfy { groupFlags.contains($0) || stickerFlags.contains($0) }
}
