/// One pass over a JPEG's markers (ITU T.81), every length checked against the bytes there are: the segments before
/// the first scan are read, the entropy-coded data after it is walked only to count scans and find the end.
struct JPEGMarkerReader {
    let bytes: [UInt8]
    let maxProfileBytes: Int
    var frame: (width: Int, height: Int, components: Int)?
    var orientation = EXIFOrientation.up
    var adobe = false
    var profile: [UInt8]?
    var kept: [Range<Int>] = []
    var scanStart = 0
    /// Just past the end-of-image marker: bytes after it are not the picture's.
    var end = 0
    var scans = 0
    /// ICC profile pieces by sequence number (APP2 "ICC_PROFILE").
    private var pieces: [Int: ArraySlice<UInt8>] = [:]

    init(bytes: [UInt8], maxProfileBytes: Int) {
        (self.bytes, self.maxProfileBytes) = (bytes, maxProfileBytes)
    }

    mutating func read() throws(StickerRejection) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { throw .corrupt("the file is not a JPEG") }
        var offset = 2
        while scanStart == 0 {
            let (marker, start) = try nextMarker(&offset)
            guard marker != 0xD9 else { throw .corrupt("the image ends before its first scan") }
            let length = try segmentLength(at: offset, marker: marker)
            let segment = (offset + 2)..<(offset + length)
            offset += length
            try segmentRead(marker, segment)
            if marker == 0xDA {
                scanStart = start
            } else if ![0xE1, 0xED, 0xFE].contains(marker) {
                kept.append(start..<offset)
            }
        }
        scans = 1
        try walkScans(from: offset)
        if !pieces.isEmpty {
            let ordered = pieces.keys.sorted()
            guard ordered == Array(1...ordered.count) else {
                throw .corrupt("its ICC profile's pieces are not all there")
            }
            profile = ordered.flatMap { Array(pieces[$0]!) }
        }
    }

    /// Reads the segments that matter: frame headers, EXIF, ICC and Adobe.
    private mutating func segmentRead(_ marker: UInt8, _ segment: Range<Int>) throws(StickerRejection) {
        switch marker {
        case 0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
            guard frame == nil else { throw .corrupt("the file has two frame headers") }
            guard segment.count >= 6 else { throw .corrupt("the frame header is cut short") }
            let height = Int(bytes[segment.lowerBound + 1]) << 8 | Int(bytes[segment.lowerBound + 2])
            let width = Int(bytes[segment.lowerBound + 3]) << 8 | Int(bytes[segment.lowerBound + 4])
            let components = Int(bytes[segment.lowerBound + 5])
            guard width > 0, height > 0 else { throw .corrupt("the frame header says \(width) x \(height)") }
            guard [1, 3, 4].contains(components) else {
                throw .corrupt("the image has \(components) colour components; JPEG stickers have 1, 3 or 4")
            }
            frame = (width, height, components)
        case 0xE1:
            if let found = EXIFOrientation(exif: bytes[segment]) { orientation = found }
        case 0xE2:
            let tag = Array("ICC_PROFILE".utf8) + [0]
            guard bytes[segment].starts(with: tag), segment.count >= 14 else { break }
            let sequence = Int(bytes[segment.lowerBound + 12])
            pieces[sequence] = bytes[(segment.lowerBound + 14)..<segment.upperBound]
            let total = pieces.values.reduce(0) { $0 + $1.count }
            guard total <= maxProfileBytes else {
                throw .corrupt("its ICC profile is over \(maxProfileBytes) bytes")
            }
        case 0xEE:
            adobe = adobe || bytes[segment].starts(with: Array("Adobe".utf8))
        case 0xDA:
            guard frame != nil else { throw .corrupt("a scan comes before the frame header") }
        default:
            break
        }
    }

    /// Walks entropy-coded data and the markers between scans to the end of the image, counting scans.
    private mutating func walkScans(from start: Int) throws(StickerRejection) {
        var offset = start
        while true {
            // Entropy-coded data: 0xFF 0x00 is a stuffed byte, 0xFF 0xD0-D7 a restart marker; any other 0xFF xx ends it.
            while offset + 1 < bytes.count
                && !(bytes[offset] == 0xFF && bytes[offset + 1] != 0 && !(0xD0...0xD7).contains(bytes[offset + 1]))
            {
                offset += 1
            }
            let (marker, _) = try nextMarker(&offset)
            if marker == 0xD9 {
                end = offset
                return
            }
            let length = try segmentLength(at: offset, marker: marker)
            offset += length
            if marker == 0xDA {
                scans += 1
                guard scans <= JPEGFile.maxScans else {
                    throw .corrupt("the file has more than \(JPEGFile.maxScans) scans")
                }
            }
        }
    }

    /// The marker at `offset` (after any fill bytes) and where it starts; `offset` moves past it.
    private func nextMarker(_ offset: inout Int) throws(StickerRejection) -> (UInt8, Int) {
        guard offset + 1 < bytes.count, bytes[offset] == 0xFF else {
            throw .corrupt("the file is cut short or a marker is missing at byte \(offset)")
        }
        let start = offset
        while offset + 1 < bytes.count, bytes[offset + 1] == 0xFF { offset += 1 }
        guard offset + 1 < bytes.count else { throw .corrupt("the file ends inside a marker") }
        let marker = bytes[offset + 1]
        offset += 2
        return (marker, start)
    }

    /// The length of the segment whose length field is at `offset`, checked to lie inside the file.
    private func segmentLength(at offset: Int, marker: UInt8) throws(StickerRejection) -> Int {
        guard marker != 0xD8, marker != 0x01, !(0xD0...0xD7).contains(marker) else {
            throw .corrupt("marker 0x\(String(marker, radix: 16)) stands where a segment belongs")
        }
        guard offset + 2 <= bytes.count else { throw .corrupt("a segment is cut short") }
        let length = Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
        guard length >= 2, offset + length <= bytes.count else {
            throw .corrupt("a segment runs past the end of the file")
        }
        return length
    }
}

extension EXIFOrientation {
    /// The orientation an APP1 "Exif" segment's first IFD gives; nil when there is none or the EXIF is malformed
    /// (a sticker is then taken as stored, upright).
    init?(exif segment: ArraySlice<UInt8>) {
        let data = Array(segment)
        guard data.count >= 14, data.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = 6
        let big = data[tiff] == 0x4D
        guard big || data[tiff] == 0x49 else { return nil }
        func read(_ at: Int, _ size: Int) -> Int? {
            guard at >= 0, at + size <= data.count else { return nil }
            let slice = data[at..<(at + size)]
            return (big ? Array(slice) : slice.reversed()).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let first = read(tiff + 4, 4), let count = read(tiff + first, 2), count <= 1000 else { return nil }
        for entry in 0..<count {
            let at = tiff + first + 2 + entry * 12
            guard let tag = read(at, 2) else { return nil }
            guard tag == 0x0112 else { continue }
            guard read(at + 2, 2) == 3, let value = read(at + 8, 2) else { return nil }
            self.init(rawValue: value)
            return
        }
        return nil
    }
}
