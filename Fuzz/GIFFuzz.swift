// libFuzzer entry point for GIF uploads (giflib under our block reader and compositor), compiled together with
// Sources/StickerImage by scripts/fuzz.sh (swiftc -sanitize=fuzzer,address). Any crash, leak, hang or sanitizer
// report is a finding.

@_cdecl("LLVMFuzzerTestOneInput")
public func gifFuzz(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    var bytes = start.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    // Every input is read as a GIF: a mutation of the signature would only reach the other decoders' refusal.
    guard bytes.count >= 6 else { return 0 }
    if !bytes.starts(with: Array("GIF87a".utf8)) { bytes.replaceSubrange(0..<6, with: Array("GIF89a".utf8)) }
    fuzzUpload(bytes)
    return 0
}
