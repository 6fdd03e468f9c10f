// Fakes for the module's tests under node: a fetch that answers from a script, a broadcast bus, a manual clock.

/** A fetch answering each request with what `route(url, init)` returns ({status, headers, body}), counting calls. */
export function scriptedFetch(route) {
  const calls = [];
  const fetch = async (url, init = {}) => {
    calls.push({ url: String(url), init });
    const { status = 200, headers = {}, body = '' } = await route(String(url), init, calls.length);
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return new Response(status === 204 || status === 304 ? null : text, { status, headers });
  };
  return { fetch, calls };
}

/** Channels that deliver each message to every other channel of the bus, asynchronously, as BroadcastChannel does. */
export class Bus {
  constructor() {
    this.channels = new Set();
  }

  channel() {
    const bus = this;
    const target = new EventTarget();
    const channel = {
      addEventListener: (type, listener) => target.addEventListener(type, listener),
      removeEventListener: (type, listener) => target.removeEventListener(type, listener),
      postMessage(data) {
        for (const other of bus.channels) {
          if (other !== channel) queueMicrotask(() => other.deliver(data));
        }
      },
      deliver(data) {
        const event = new Event('message');
        event.data = structuredClone(data);
        target.dispatchEvent(event);
      },
      close() {
        bus.channels.delete(channel);
      },
    };
    this.channels.add(channel);
    return channel;
  }
}

/** Timers that run only when the test advances the clock. */
export class Clock {
  constructor() {
    this.now = 0;
    this.timers = new Map();
    this.next = 1;
    this.setTimer = (action, ms) => {
      const id = this.next++;
      this.timers.set(id, { at: this.now + ms, action });
      return id;
    };
    this.clearTimer = (id) => this.timers.delete(id);
  }

  /** Runs every timer due within `ms`, in order, letting messages in flight arrive between them. */
  async advance(ms) {
    const end = this.now + ms;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      const due = [...this.timers].filter(([, t]) => t.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.now = due[1].at;
      due[1].action();
    }
    this.now = end;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

/** A valid group index page, group and image link, for answers to start from. */
export const digest = (n) => n.toString(16).padStart(64, '0');
export const asset = (n) => ({ url: `/v1/assets/${digest(n)}.png`, width: 408, height: 408, bytes: 1000, sha256: digest(n), animated: false });
export const summary = (id, version = 'a'.repeat(32)) => ({
  id, name: id, sizeClass: 'medium', flags: [], position: 0, locked: false, productId: null, cover: asset(1),
  stickerCount: 1, animated: false, version,
});
export const sticker = (id) => ({
  id, name: id, description: `${id} sticker`, flags: [], keywords: [], emoji: ['🍪'], animated: false, frames: 1,
  durationMs: 0, loops: 0, asset: asset(2), thumbnail: asset(3), placeholder: '#80402aff',
});
export const group = (id, stickers = [sticker(`${id}-1`)]) => ({ ...summary(id), stickers });
