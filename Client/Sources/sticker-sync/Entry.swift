import Dispatch
import Foundation

#if os(Linux)
    import NIOCore
    import NIOPosix
#endif

/// Starts `sticker-sync`. On Linux, Swift concurrency first runs its tasks on the event loops AsyncHTTPClient reads
/// and writes on (NIO's "concurrency take-over"): a download no longer hops between the two pools' threads at every
/// step.
@main
enum Entry {
    static func main() {
        #if os(Linux)
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        #endif
        Task {
            await StickerSyncCommand.main()
            exit(0)
        }
        dispatchMain()
    }
}
