/// Lengths, values and positions of the ancillary chunks the PNG specification defines.
/// Unknown ancillary chunks are allowed (decoders skip them), within the size cap.
enum AncillaryRules {
    enum Position { case beforePalette, betweenPaletteAndData, beforeData, anywhere }

    /// (may repeat, where it may stand) for each known chunk; APNG chunks are checked by AnimationReader.
    static let known: [String: (repeats: Bool, position: Position)] = [
        "cHRM": (false, .beforePalette), "gAMA": (false, .beforePalette), "iCCP": (false, .beforePalette),
        "sBIT": (false, .beforePalette), "sRGB": (false, .beforePalette), "cICP": (false, .beforePalette),
        "bKGD": (false, .betweenPaletteAndData), "hIST": (false, .betweenPaletteAndData),
        "tRNS": (false, .betweenPaletteAndData),
        "pHYs": (false, .beforeData), "sPLT": (true, .beforeData), "oFFs": (false, .beforeData),
        "pCAL": (false, .beforeData),
        "sCAL": (false, .beforeData), "sTER": (false, .beforeData),
        "tIME": (false, .anywhere), "tEXt": (true, .anywhere), "zTXt": (true, .anywhere), "iTXt": (true, .anywhere),
        "eXIf": (false, .anywhere),
    ]

    static func check(_ chunk: PNGChunk, bytes: [UInt8], order: ChunkOrder, repeatCount: Int) throws(StickerRejection) {
        guard let rule = known[chunk.type] else { return }
        let name = chunk.type
        guard rule.repeats || repeatCount == 0 else { throw .corrupt("\(name) appears more than once") }
        let afterPalette = order.seen["PLTE"] != nil
        switch rule.position {
        case .beforePalette where afterPalette || order.seenImageData:
            throw .corrupt("\(name) must come before PLTE and IDAT")
        case .betweenPaletteAndData where order.seenImageData, .beforeData where order.seenImageData:
            throw .corrupt("\(name) must come before IDAT")
        default: break
        }
        let data = Array(bytes[chunk.data])
        let header = order.header
        let expectedLength: Int? =
            switch name {
            case "cHRM": 32
            case "gAMA": 4
            case "sRGB", "sTER": 1
            case "pHYs", "oFFs": 9
            case "tIME": 7
            case "cICP": 4
            case "sBIT": [0: 1, 2: 3, 3: 3, 4: 2, 6: 4][header.colorType]
            case "bKGD": [0: 2, 4: 2, 2: 6, 6: 6, 3: 1][header.colorType]
            case "hIST": 2 * order.paletteEntries
            default: nil
            }
        if let expectedLength, data.count != expectedLength {
            throw .corrupt("\(name) holds \(data.count) bytes; it must hold \(expectedLength)")
        }
        switch name {
        case "gAMA" where PNGChunkWalker.bigEndian32(data, 0) == 0:
            throw .corrupt("gAMA is zero")
        case "sRGB" where data[0] > 3:
            throw .corrupt("sRGB rendering intent \(data[0]) does not exist")
        case "sBIT":
            let depth = header.colorType == 3 ? 8 : header.bitDepth
            guard data.allSatisfy({ (1...depth).contains(Int($0)) }) else {
                throw .corrupt("sBIT values must be 1 to \(depth)")
            }
        case "hIST" where order.paletteEntries == 0, "bKGD" where header.colorType == 3 && order.paletteEntries == 0:
            throw .corrupt("\(name) needs PLTE before it")
        case "tRNS":
            let allowed = [0: 2, 2: 6][header.colorType] ?? (header.colorType == 3 ? order.paletteEntries : -1)
            guard allowed >= 0 else { throw .corrupt("tRNS is not allowed with an alpha channel") }
            guard
                header.colorType == 3
                    ? (1...max(1, allowed)).contains(data.count) && order.paletteEntries > 0 : data.count == allowed
            else {
                throw .corrupt("tRNS holds \(data.count) bytes, which does not fit colour type \(header.colorType)")
            }
        case "tEXt", "zTXt", "iTXt", "iCCP", "sPLT", "pCAL":
            try checkKeyword(name, data)
            try checkCompressed(name, data, rules: order.rules)
        default: break
        }
    }

    /// Text-like chunks start with a 1-79 byte keyword ended by a zero byte.
    static func checkKeyword(_ name: String, _ data: [UInt8]) throws(StickerRejection) {
        guard let end = data.firstIndex(of: 0), (1...79).contains(end) else {
            throw .corrupt("\(name) must start with a keyword of 1 to 79 bytes")
        }
    }

    /// zTXt, compressed iTXt and iCCP carry zlib data: it must inflate, and within the metadata cap.
    static func checkCompressed(_ name: String, _ data: [UInt8], rules: StickerRules) throws(StickerRejection) {
        guard let keyEnd = data.firstIndex(of: 0) else { throw .corrupt("\(name) has no keyword") }
        var start: Int
        switch name {
        case "zTXt", "iCCP":
            guard data.count > keyEnd + 1, data[keyEnd + 1] == 0 else {
                throw .corrupt("\(name) uses an unknown compression method")
            }
            start = keyEnd + 2
        case "iTXt":
            guard data.count > keyEnd + 2 else { throw .corrupt("iTXt is truncated") }
            guard data[keyEnd + 1] <= 1, data[keyEnd + 2] == 0 else {
                throw .corrupt("iTXt uses an unknown compression")
            }
            guard data[keyEnd + 1] == 1 else { return }
            // Language tag and translated keyword, each ended by a zero byte, precede the text.
            guard let language = data[(keyEnd + 3)...].firstIndex(of: 0),
                let translated = data[(language + 1)...].firstIndex(of: 0)
            else { throw .corrupt("iTXt is truncated") }
            start = translated + 1
        default:
            return
        }
        switch Inflate.measure(data, segments: [start..<data.count], limit: rules.maxInflatedMetadataBytes) {
        case .complete: return
        case .overLimit:
            throw .corrupt("\(name) inflates past \(rules.maxInflatedMetadataBytes) bytes (a decompression bomb)")
        case .corrupt(let reason): throw .corrupt("\(name) holds broken zlib data: \(reason)")
        }
    }
}
