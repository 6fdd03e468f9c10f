import Foundation

extension StickerSync {
    /// Observes `options`' lifecycle notifications for as long as this sync lives.
    nonisolated func observeLifecycle() {
        lifecycle.start(
            foreground: options.foregroundNotifications, background: options.backgroundNotifications,
            { [weak self] in
                guard let self else { return }
                Task { await self.cameToForeground() }
            },
            { [usage] in
                // The app may be suspended at any moment: what was recorded is written now, within an activity.
                Task.detached { try? await BackgroundActivity.run("Saving sticker usage") { await usage.write() } }
            })
    }

    /// The app came back: stickers seen count anew, and a sync that follows the catalog syncs now, as its event stream
    /// may have died while the app was suspended (a sync running is joined, not doubled).
    func cameToForeground() async {
        usage.newSession()
        guard following > 0 else { return }
        logger.debug("back in the foreground: syncing")
        _ = try? await sync()
    }
}
