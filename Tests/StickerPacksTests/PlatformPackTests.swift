import Foundation
import StickerImage
import StickerPacks
import TestSupport
import Testing

/// WhatsApp, Telegram and Signal packs checked against each platform's published rules, every file read back by Pillow
/// (an independent decoder), never by this service's own code.
@Suite(
    "Platform packs: each platform's rules, read back by Pillow",
    .enabled(if: Pillow.available, "needs Pillow (make test installs it)"))
struct PlatformPackTests {
    /// The demo catalog as an export reads it, with an animated group of three: the sliding lollipop (12 frames,
    /// 408 px; `make bench` exports thirty of 30 frames at up to 618 px) and two short animations.
    static let groups: [PackGroup] = {
        let demo: [(String, String, [(String, String, String)])] = [
            (
                "chewy", "Chewy",
                [
                    ("Caramel", "A golden caramel square in its twisted wrapper", "🍮"),
                    ("GummiBear", "A red gummi bear", "🧸"),
                    ("SourCandy", "A round green sour candy dusted with sugar", "🍋"),
                ]
            ),
            (
                "chocolate", "Chocolate",
                [
                    ("ChocolateBar", "A milk chocolate bar half out of its red wrapper", "🍫"),
                    ("ChocolateChip", "A cookie studded with chocolate chips", "🍪"),
                    ("DarkChocolate", "A bar of dark chocolate", "🍫"),
                ]
            ),
        ]
        var groups = demo.map { id, name, stickers in
            PackGroup(
                id: id, name: name,
                stickers: stickers.map {
                    PackSticker(
                        id: $0.0.lowercased(), name: $0.0, description: $0.1, emoji: [$0.2],
                        keywords: [$0.0.lowercased()], image: DemoArt.png($0.0)!)
                })
        }
        groups.append(
            PackGroup(
                id: "moving", name: "Moving",
                stickers: [
                    PackSticker(
                        id: "spin", name: "Spin", description: "A sliding lollipop", emoji: ["🍭", "🌀"],
                        keywords: ["spin"],
                        image: DemoArt.animation("Lollipop", side: 408, frames: 12)!),
                    PackSticker(
                        id: "blink", name: "Blink", description: "Five shades", emoji: ["✨"], keywords: [],
                        image: WebPSamples.animation(delays: [100, 50, 200, 70, 80], loops: 0)),
                    // Frames of 5 ms, shorter than WhatsApp's 8: they must be merged, keeping the play time.
                    PackSticker(
                        id: "flicker", name: "Flicker", description: "Fast", emoji: ["⚡"], keywords: [],
                        image: WebPSamples.animation(side: 300, delays: [5, 5, 5, 5, 100, 5, 5], loops: 0)),
                ]))
        return groups
    }()

    /// What `exporter` makes of `groups`, off the cooperative threads.
    static func export(_ exporter: some PackExporter, _ groups: [PackGroup]) async throws -> PackExport {
        try await blocking {
            var exporter = exporter
            return try exporter.export(groups)
        }
    }

    /// `export`'s file at `path`.
    func file(_ export: PackExport, _ path: String) throws -> [UInt8] {
        try #require(export.files.first { $0.path == path }?.bytes, "no \(path)")
    }

    func json(_ bytes: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test(
        "WhatsApp: 512 x 512 WebPs within 100 and 500 KB, frames of 8 ms or more, a 96 x 96 tray, 3 to 30 a pack, 1 to 3 emoji"
    )
    func whatsapp() async throws {
        let exporter = WhatsAppPacks.Exporter(publisher: "Candy Co")
        let export = try await Self.export(exporter, Self.groups)
        let contents = try json(try file(export, "contents.json"))
        let packs = try #require(contents["sticker_packs"] as? [[String: Any]])
        #expect(packs.map { $0["identifier"] as? String } == ["chewy", "chocolate", "moving"])
        for pack in packs {
            let identifier = try #require(pack["identifier"] as? String)
            let animated = pack["animated_sticker_pack"] as? Bool == true
            let stickers = try #require(pack["stickers"] as? [[String: Any]])
            #expect((3...30).contains(stickers.count) && pack["publisher"] as? String == "Candy Co")
            #expect(
                identifier.range(of: #"^[\w\-. ']+$"#, options: .regularExpression) != nil && !identifier.contains("..")
            )
            #expect((pack["image_data_version"] as? String)?.isEmpty == false)
            let tray = try file(export, "\(identifier)/\(try #require(pack["tray_image_file"] as? String))")
            let files = try stickers.map {
                try file(export, "\(identifier)/\(try #require($0["image_file"] as? String))")
            }
            let read = try Pillow.read([tray] + files)
            #expect(read[0].format == "PNG" && read[0].width == 96 && read[0].height == 96 && tray.count <= 50 * 1024)
            for (sticker, (bytes, info)) in zip(stickers, zip(files, read.dropFirst())) {
                #expect(info.format == "WEBP" && info.width == 512 && info.height == 512, "\(sticker)")
                #expect(bytes.count <= (animated ? 500 : 100) * 1024)
                #expect((info.frames > 1) == animated, "a pack is all static or all animated")
                if animated {
                    #expect(
                        info.durations.allSatisfy { $0 >= 8 } && info.durations.reduce(0, +) <= 10_000,
                        "\(info.durations)")
                }
                let emoji = try #require(sticker["emojis"] as? [String])
                #expect((1...3).contains(emoji.count))
                #expect((sticker["accessibility_text"] as? String)?.count ?? 0 <= (animated ? 255 : 125))
                #expect(info.transparent, "the picture sits on a transparent canvas")
            }
        }
        // Flicker's 5 ms frames are merged into frames of 8 ms or more, its play time kept.
        let flicker = try Pillow.read([try file(export, "moving/03.webp")])[0]
        #expect(flicker.durations.reduce(0, +) == 130 && flicker.durations.allSatisfy { $0 >= 8 })
        // Every sticker reported with its bytes, and what is lossy at 30 dB or better.
        let reported = export.report.packs.flatMap(\.stickers)
        #expect(reported.count == 9 && export.report.refused.isEmpty)
        #expect(reported.allSatisfy { ($0.psnr ?? .infinity) >= 30 }, "\(reported.map { ($0.name, $0.psnr) })")
    }

    @Test("WhatsApp: image_data_version changes exactly when the pack's files change")
    func whatsappVersion() async throws {
        let chewy = Self.groups[0]
        let changed = {
            var changed = chewy
            changed.stickers[1].image = DemoArt.png("Lollipop")!
            return changed
        }()
        let versions = try await blocking {
            try [chewy, chewy, changed].map { group in
                var exporter = WhatsAppPacks.Exporter(publisher: "Candy Co")
                let export = try exporter.export([group])
                let contents =
                    try JSONSerialization.jsonObject(
                        with: Data(export.files.first { $0.path == "contents.json" }!.bytes)) as! [String: Any]
                return ((contents["sticker_packs"] as! [[String: Any]])[0]["image_data_version"] as! String)
            }
        }
        #expect(versions[0] == versions[1] && versions[1] != versions[2])
    }

    @Test(
        "WhatsApp: a group of 45 mixed stickers becomes packs of 3 to 30, each all static or all animated; too few animated go still"
    )
    func whatsappSplits() async throws {
        // Setup: 20 stills and 25 two-frame animations at 300 px; then a group of 5 stills and 2 animations.
        let still = try WebPCodec.encode(WebPSamples.picture(side: 300, shade: 1), .init(quality: 90, lossless: true))
        let moving = WebPSamples.animation(side: 300, delays: [100, 100], loops: 0)
        let sticker = { (index: Int, image: [UInt8]) in
            PackSticker(id: "s\(index)", name: "S\(index)", description: "d", emoji: ["🍬"], keywords: [], image: image)
        }
        let mixed = PackGroup(
            id: "mixed", name: "Mixed", stickers: (0..<45).map { sticker($0, $0 < 20 ? still : moving) })
        let few = PackGroup(id: "few", name: "Few", stickers: (0..<7).map { sticker($0, $0 < 5 ? still : moving) })
        // Action
        let exporter = WhatsAppPacks.Exporter(publisher: "p")
        let export = try await Self.export(exporter, [mixed, few])
        // Check
        let packs = export.report.packs.map { ($0.folder, $0.animated, $0.stickers.count) }
        #expect(packs.map(\.0) == ["mixed", "mixed-animated", "few"])
        #expect(packs.map(\.1) == [false, true, false] && packs.map(\.2) == [20, 25, 7])
        #expect(
            export.report.packs[2].stickers.filter { $0.notes.contains { $0.hasPrefix("exported still") } }.count == 2)
        let many = PackGroup(id: "many", name: "Many", stickers: (0..<45).map { sticker($0, still) })
        let again = WhatsAppPacks.Exporter(publisher: "p")
        #expect(try await Self.export(again, [many]).report.packs.map(\.stickers.count) == [23, 22])
    }

    @Test(
        "A sticker without emoji is refused with its reason; a group left with fewer than three is refused; the rest is exported"
    )
    func refusals() async throws {
        let group = {
            var group = Self.groups[0]
            group.stickers[0].emoji = []
            return group
        }()
        let whatsapp = WhatsAppPacks.Exporter(publisher: "p")
        let refused = try await Self.export(whatsapp, [group, Self.groups[1]]).report
        #expect(refused.refused.map(\.sticker) == ["caramel", nil])
        #expect(refused.refused[0].reason.contains("no emoji") && refused.refused[1].reason.contains("at least 3"))
        #expect(refused.packs.map(\.folder) == ["chocolate"])
        let telegram = TelegramPacks.Exporter(bot: "CandyBot")
        let sets = try await Self.export(telegram, [group]).report
        #expect(sets.refused.map(\.sticker) == ["caramel"] && sets.packs.first?.stickers.count == 2)
    }

    @Test(
        "Telegram: one side exactly 512 and the other at most 512, within 512 KB; a 100 x 100 thumbnail; set names by the rules"
    )
    func telegram() async throws {
        let exporter = TelegramPacks.Exporter(bot: "CandyBot")
        let export = try await Self.export(exporter, Self.groups)
        #expect(
            export.report.packs.map(\.folder) == ["chewy_by_CandyBot", "chocolate_by_CandyBot", "moving_by_CandyBot"])
        for pack in export.report.packs {
            let set = try json(try file(export, "\(pack.folder)/set.json"))
            let name = try #require(set["name"] as? String)
            #expect(
                name.range(of: "^[A-Za-z][A-Za-z0-9_]{0,63}$", options: .regularExpression) != nil
                    && !name.contains("__")
                    && name.hasSuffix("_by_CandyBot") && name.count <= 64)
            #expect((1...64).contains((set["title"] as? String)?.count ?? 0))
            let calls = try #require(set["calls"] as? [[String: Any]])
            #expect(
                calls.first?["method"] as? String == "createNewStickerSet"
                    && calls.last?["method"] as? String == "setStickerSetThumbnail")
            let stickers = try #require((calls.first?["params"] as? [String: Any])?["stickers"] as? [[String: Any]])
            let files = try stickers.map {
                try file(
                    export, "\(pack.folder)/" + (try #require($0["sticker"] as? String)).dropFirst("attach://".count))
            }
            let thumbnail = try file(export, "\(pack.folder)/\(try #require(set["thumbnail"] as? String))")
            let read = try Pillow.read([thumbnail] + files)
            #expect(read[0].width == 100 && read[0].height == 100 && thumbnail.count <= 128 * 1024)
            for (sticker, (bytes, info)) in zip(stickers, zip(files, read.dropFirst())) {
                #expect(["PNG", "WEBP"].contains(info.format) && info.frames == 1)
                #expect(
                    max(info.width, info.height) == 512 && min(info.width, info.height) <= 512
                        && bytes.count <= 512 * 1024)
                #expect(
                    (1...20).contains((sticker["emoji_list"] as? [String])?.count ?? 0)
                        && sticker["format"] as? String == "static")
                #expect(((sticker["keywords"] as? [String]) ?? []).reduce(0) { $0 + $1.count } <= 64)
            }
        }
        let spin = try #require(export.report.packs[2].stickers.first)
        #expect(spin.notes.contains { $0.contains("exported still") })
        #expect(TelegramPacks.setName("9-lives--and-more", bot: "CandyBot") == "lives_and_more_by_CandyBot")
        #expect(
            !TelegramPacks.isBotUsername("candy") && !TelegramPacks.isBotUsername("Candy_Robot!")
                && TelegramPacks.isBotUsername("Candy_bot"))
    }

    @Test("Signal: 512 x 512 within 300 KB, an APNG that loops forever, a cover, one emoji each, title and author")
    func signal() async throws {
        let exporter = SignalPacks.Exporter(author: "Candy Co")
        let export = try await Self.export(exporter, Self.groups)
        for pack in export.report.packs {
            let manifest = try json(try file(export, "\(pack.folder)/manifest.json"))
            #expect(manifest["title"] as? String == pack.title && manifest["author"] as? String == "Candy Co")
            let stickers = try #require(manifest["stickers"] as? [[String: Any]])
            #expect((1...200).contains(stickers.count))
            let cover = try file(
                export, "\(pack.folder)/\(try #require((manifest["cover"] as? [String: Any])?["file"] as? String))")
            let files = try stickers.map { try file(export, "\(pack.folder)/\(try #require($0["file"] as? String))") }
            let read = try Pillow.read([cover] + files)
            for (sticker, (bytes, info)) in zip(stickers, zip(files, read.dropFirst())) + [([:], (cover, read[0]))] {
                #expect(
                    info.width == 512 && info.height == 512 && bytes.count <= 300 * 1024
                        && ["PNG", "WEBP"].contains(info.format))
                if info.frames > 1 { #expect(info.format == "PNG" && info.loop == 0, "an APNG that loops forever") }
                if !sticker.isEmpty { #expect((sticker["emoji"] as? String).map { $0.count == 1 } == true) }
            }
        }
        let moving = try #require(export.report.packs.first { $0.folder == "moving" })
        #expect(moving.stickers.filter { $0.frames > 1 }.count == 3)
    }

    @Test(
        "Fitting a budget: lossless when it fits, else the highest WebP quality that fits, else fewer frames; nothing when nothing fits"
    )
    func fitting() throws {
        // Setup: noise does not compress, so a small budget needs a low quality.
        var generator = SplitMix(11)
        let noise = RGBAImage(
            width: 256, height: 256,
            pixels: (0..<(256 * 256 * 4)).map { $0 % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: generator.next()) })
        // Action and check: stills.
        let flat = try #require(
            try PackPicture.still(WebPSamples.picture(side: 256, shade: 2), budget: 50 * 1024, formats: [.webp]))
        #expect(flat.quality == nil && flat.psnr == .infinity, "flat art fits lossless")
        let fitted = try #require(try PackPicture.still(noise, budget: 20 * 1024, formats: [.webp]))
        #expect(fitted.bytes.count <= 20 * 1024 && (fitted.quality ?? 100) < 80 && fitted.psnr.isFinite)
        let higher = try WebPCodec.encode(noise, .init(quality: (fitted.quality ?? 0) + 1))
        #expect(higher.count > 20 * 1024, "one quality step higher would not fit")
        #expect(try PackPicture.still(noise, budget: 100, formats: [.webp, .png]) == nil)
        // Animations: four frames of noise within a budget that holds about two of them.
        let frames = (0..<4).map { index in
            WebPAnimation.EncodedFrame(
                data: try! WebPCodec.encode(
                    RGBAImage(width: 256, height: 256, pixels: noise.pixels.map { $0 &+ UInt8(index * 40) }),
                    .init(quality: 100, lossless: true)), durationMs: 100)
        }
        let source = try StickerSource(
            try WebPAnimation.assemble(width: 256, height: 256, frames: frames, loops: 0),
            rules: {
                var rules = StickerRules()
                rules.sideRange = 1...618
                return rules
            }())
        let one = try WebPCodec.encode(noise, .init(quality: 0)).count
        let animation = PackAnimation(placement: .centered(side: 256), format: .webp, budget: one * 5 / 2)
        let made = try #require(
            try animation.make(
                source,
                rules: {
                    var rules = StickerRules()
                    rules.sideRange = 1...618
                    return rules
                }()))
        #expect(
            made.bytes.count <= one * 5 / 2 && made.droppedFrames > 0 && made.frames + made.droppedFrames == 4
                && made.durationMs == 400)
    }

    @Test(
        "From a review: an animation whose frames merge into one is a WhatsApp still; texts count UTF-16 as WhatsApp does; no two packs share a name"
    )
    func reviewFixes() async throws {
        // Setup
        let merging = PackSticker(
            id: "m", name: "M", description: String(repeating: "👍", count: 70), emoji: ["👍"], keywords: [],
            image: WebPSamples.animation(side: 300, delays: [5, 5, 5], loops: 0))
        let cats = PackGroup(id: "cats", name: "Cats", stickers: Self.groups[0].stickers + [merging])
        let clash = PackGroup(id: "cats-2", name: "Cats two", stickers: Self.groups[1].stickers)
        // Action
        let whatsapp = try await Self.export(
            WhatsAppPacks.Exporter(publisher: String(repeating: "😀", count: 100)), [cats, clash])
        let telegram = try await Self.export(
            TelegramPacks.Exporter(bot: "CandyBot"),
            [cats, PackGroup(id: "1-cats", name: "1 Cats", stickers: Self.groups[1].stickers)])
        // Check
        let packs = try #require(try json(try file(whatsapp, "contents.json"))["sticker_packs"] as? [[String: Any]])
        #expect(Set(packs.compactMap { $0["identifier"] as? String }).count == packs.count)
        #expect(packs.allSatisfy { ($0["publisher"] as? String)?.utf16.count ?? 0 <= 128 })
        let sticker = try #require(
            (packs.first { $0["identifier"] as? String == "cats" }?["stickers"] as? [[String: Any]])?.last)
        #expect((sticker["accessibility_text"] as? String)?.utf16.count ?? 0 <= 125)
        let still = try Pillow.read([try file(whatsapp, "cats/\(try #require(sticker["image_file"] as? String))")])[0]
        #expect(
            still.frames == 1
                && (packs.first { $0["identifier"] as? String == "cats" }?["animated_sticker_pack"] as? Bool) == false)
        #expect(Set(telegram.report.packs.map(\.folder)).count == 2)
        #expect(!TelegramPacks.isBotUsername("candy__bot"))
    }
}
