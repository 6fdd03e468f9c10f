import Crypto
import Foundation

/// The bytes a `GroupVersion` digests: each value written with its length or a terminator, so that no two different
/// sequences of values write the same bytes.
struct DigestInput {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(512) }

    mutating func add(_ text: String) {
        add(text.utf8.count)
        bytes.append(contentsOf: text.utf8)
    }

    mutating func add(_ number: Int) {
        withUnsafeBytes(of: Int64(number).littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func add(_ list: [String]) {
        add(list.count)
        for item in list { add(item) }
    }

    mutating func add(_ texts: [String: String]) {
        add(texts.count)
        for key in texts.keys.sorted() {
            add(key)
            add(texts[key] ?? "")
        }
    }

    mutating func add(_ date: Date?) {
        add(date.map { Int($0.timeIntervalSince1970 * 1_000_000) } ?? Int.min)
    }

    mutating func add(_ asset: Asset) {
        add(asset.sha256)
        for number in [asset.width, asset.height, asset.bytes, asset.frames, asset.durationMs, asset.loops] {
            add(number)
        }
        add(asset.animated ? 1 : 0)
        add(asset.format.rawValue)
    }

    /// Every stored field of a group (`GroupVersionTests` counts them, so a field added later is not forgotten).
    mutating func add(_ group: StickerGroup) {
        add(group.id)
        add(group.name)
        add(group.localizedNames)
        add(group.description)
        add(group.localizedDescriptions)
        add(group.sizeClass.rawValue)
        add(group.flags)
        add(group.productId ?? "")
        add(group.position)
        add(group.published ? 1 : 0)
        add(group.coverStickerId?.apiString ?? "")
        add(group.createdAt)
        add(group.updatedAt)
        add(group.publishAt)
        add(group.unpublishAt)
        // Whether it has one, not what it says: that decides only who sees the group (sets print in no fixed order).
        add(group.audience == nil ? 0 : 1)
        add(group.audienceSalt)
    }

    /// Every stored field of a sticker, its renditions' too.
    mutating func add(_ sticker: Sticker) {
        add(sticker.id.apiString)
        add(sticker.groupId)
        add(sticker.name)
        add(sticker.description)
        add(sticker.localizedDescriptions)
        add(sticker.flags)
        add(sticker.keywords)
        add(sticker.emoji)
        add(sticker.position)
        add(sticker.asset)
        add(sticker.renditions.count)
        for rendition in sticker.renditions {
            add(rendition.edge)
            add(rendition.still ? 1 : 0)
            add(rendition.format.rawValue)
            add(rendition.asset)
        }
        add(sticker.createdAt)
        add(sticker.updatedAt)
        add(sticker.publishAt)
        add(sticker.unpublishAt)
        add(sticker.placeholder ?? "")
    }

    /// 128 bits of SHA-256 in hex: as long as the ETags of other bodies.
    func digest() -> String {
        String(sha256Hex(bytes).prefix(32))
    }
}
