// What the GIF and JPEG fuzz targets do with each input: the upload's validation with sides from 1 px (so that small
// inputs reach the decoders), the stored file validated again to the same picture, and the file played in sRGB as
// renditions play it (compositing, orientation, colour conversion).

func fuzzUpload(_ bytes: [UInt8]) {
    var rules = StickerRules()
    rules.sideRange = 1...618
    let validator = StickerValidator(rules: rules)
    guard let info = try? validator.validate(bytes), let source = try? StickerSource(bytes, rules: rules) else {
        return
    }
    precondition((try? validator.validate(info.storedBytes)) != nil, "stored bytes of a valid sticker do not validate")
    var canvases = 0
    do {
        try source.play(rules: rules) { _ in
            canvases += 1
        } canvas: { _, _, _ in
            canvases += 1
        }
    } catch {
        preconditionFailure("a validated sticker does not play: \(error)")
    }
    precondition(canvases == (source.animation == nil ? 1 : source.frameCount + 1), "frames went missing")
}
