// StickerCatalog for the web: a sticker picker's data in one ES module, no dependencies, no build step.
// It mirrors the Swift client's rules (Client/): the group index and the groups a page shows, revalidated with
// If-None-Match and kept in IndexedDB (a cache, never the truth); live changes from one event stream per origin,
// shared by every tab through an elected leader; full-jitter backoff that honours Retry-After, so an outage ends work
// instead of multiplying it; every answer bounded in bytes and checked before anything is kept. Guide: docs/web.md.

/** @typedef {{platform?: string, appVersion?: string, installation?: string}} Facts */
/** @typedef {{method?: string, headers?: Record<string, string>, body?: BodyInit, signal?: AbortSignal,
 *   limit?: number, keepalive?: boolean}} SendOptions */
/** @typedef {{url: string, width: number, height: number, bytes: number, sha256: string, animated: boolean}} AssetLink */

const SLUG = /^[a-z0-9]([a-z0-9-]{0,62}[a-z0-9])?$/;
const VERSION = /^[0-9a-f]{32}$/;
const DIGEST = /^[0-9a-f]{64}$/;
const CURSOR = /^[A-Za-z0-9_-]{1,2048}$/;
const PLACEHOLDER = /^#[0-9a-f]{8}$/;
/** The largest JSON answer read (the Swift client's bound too); a larger one is refused before it is buffered. */
export const MAX_ANSWER_BYTES = 64 << 20;
/** A `Retry-After` longer than this ends a request at once, as unavailable, instead of holding the page. */
const LONGEST_WAIT_MS = 30_000;

/** What went wrong, typed: `kind` is refused (a 4xx problem), unavailable (429/503 to the end), unreachable (the
 * network), invalidAnswer (the server's answer broke the rules: nothing of it is kept) or aborted. */
export class CatalogError extends Error {
  /**
   * @param {'refused'|'unavailable'|'unreachable'|'invalidAnswer'|'aborted'} kind
   * @param {string} message
   * @param {{status?: number, code?: string, retryAfter?: number, cause?: unknown}} details
   */
  constructor(kind, message, { status = undefined, code = undefined, retryAfter = undefined, cause = undefined } = {}) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'CatalogError';
    this.kind = kind;
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

const invalid = (message) => new CatalogError('invalidAnswer', message);
function expect(condition, message) {
  if (!condition) throw invalid(message);
}

// MARK: Backoff

/** Full jitter: a delay drawn uniformly from [0, min(cap, base * 2^(failures-1))], so clients that failed together
 * do not come back together. Milliseconds. */
export function fullJitter(failures, { base = 500, cap = 300_000, random = Math.random } = {}) {
  const ceiling = Math.min(cap, base * 2 ** Math.max(0, Math.min(failures, 30) - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` in milliseconds: whole seconds only (an HTTP date is ignored), at most 300 s; 0 when absent. */
export function retryAfterMs(value) {
  if (typeof value !== 'string' || !/^\s*\d{1,9}\s*$/.test(value)) return 0;
  return Math.min(300, Number(value)) * 1000;
}

/** The wait before the next try: the backoff, but never less than the server asked for. */
export function nextDelay(failures, retryAfter, random = Math.random) {
  return Math.max(retryAfterMs(retryAfter), fullJitter(failures, { random }));
}

// MARK: Answers

/** The body of `response` as JSON, read at most `limit` bytes: a declared length over it is refused unread, and a
 * body far larger than it declared (more than 64 times: the browser decodes compressed bodies, and a page cannot see
 * Content-Encoding across origins), or than `limit`, is cut off and refused. */
export async function readJSON(response, limit = MAX_ANSWER_BYTES) {
  const declared = response.headers.get('content-length');
  const announced = declared === null ? null : Number(declared);
  if (announced !== null && !(announced <= limit)) {
    await response.body?.cancel().catch(() => {});
    throw invalid(`an answer of ${declared} bytes is over the ${limit} this client reads`);
  }
  const bound = announced === null ? limit : Math.min(limit, Math.max(announced * 64, 64 << 10));
  const chunks = [];
  let total = 0;
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > bound) {
        await reader.cancel().catch(() => {});
        throw invalid(total > limit ? `an answer over ${limit} bytes` : `an answer far larger than it announced`);
      }
      chunks.push(value);
    }
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  try {
    return { json: JSON.parse(text), bytes: total };
  } catch (cause) {
    throw new CatalogError('invalidAnswer', 'an answer that is not JSON', { cause });
  }
}

const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value, max = 2 ** 31) => Number.isInteger(value) && value >= 0 && value <= max;
const isText = (value, max = 10_000) => typeof value === 'string' && value.length <= max;
const texts = (value, max = 100) => Array.isArray(value) && value.length <= max && value.every((t) => isText(t, 200));

/** An image link as the server describes it. */
export function checkAsset(asset, where) {
  expect(isObject(asset), `${where}: no image link`);
  expect(isText(asset.url, 4096) && asset.url.length > 0, `${where}: no url`);
  expect(isCount(asset.width, 4096) && isCount(asset.height, 4096), `${where}: bad dimensions`);
  expect(isCount(asset.bytes, 5 << 20), `${where}: bad byte count`);
  expect(DIGEST.test(asset.sha256), `${where}: bad sha256`);
  expect(typeof asset.animated === 'boolean', `${where}: animated is not a boolean`);
  return asset;
}

function checkGroupFields(group, where) {
  expect(isObject(group), `${where}: not an object`);
  expect(SLUG.test(group.id), `${where}: bad id`);
  expect(isText(group.name, 1000), `${where}: bad name`);
  expect(typeof group.locked === 'boolean', `${where}: locked is not a boolean`);
  expect(group.productId === null || isText(group.productId, 100), `${where}: bad productId`);
  expect(texts(group.flags ?? []), `${where}: bad flags`);
  if (group.cover !== undefined) checkAsset(group.cover, `${where}.cover`);
}

/** A page of the group index (`GET /v1/groups`): ids unique, versions well formed. */
export function checkIndexPage(page) {
  expect(isObject(page) && isCount(page.revision, Number.MAX_SAFE_INTEGER), 'index: no revision');
  expect(Array.isArray(page.groups) && page.groups.length <= 500, 'index: groups is not a list of at most 500');
  expect(page.next === null || CURSOR.test(page.next), 'index: bad next');
  const seen = new Set();
  page.groups.forEach((group, i) => {
    checkGroupFields(group, `index.groups[${i}]`);
    expect(VERSION.test(group.version), `index.groups[${i}]: bad version`);
    expect(isCount(group.stickerCount), `index.groups[${i}]: bad stickerCount`);
    expect(!seen.has(group.id), `index: group ${group.id} listed twice`);
    seen.add(group.id);
  });
  return page;
}

/** A group with its stickers (`GET /v1/groups/{id}`, one page): the group asked for, sticker ids unique across `seen`. */
export function checkGroupPage(group, id, seen = new Set()) {
  checkGroupFields(group, `group ${id}`);
  expect(group.id === id, `asked for group ${id}, answered ${group.id}`);
  expect(Array.isArray(group.stickers) && group.stickers.length <= 500, `group ${id}: bad stickers`);
  expect(!group.locked || group.stickers.length === 0, `group ${id}: locked, yet lists stickers`);
  expect(group.next === undefined || CURSOR.test(group.next), `group ${id}: bad next`);
  group.stickers.forEach((sticker, i) => checkSticker(sticker, `group ${id}.stickers[${i}]`, seen));
  return group;
}

function checkSticker(sticker, where, seen) {
  expect(isObject(sticker) && isText(sticker.id, 64) && sticker.id.length > 0, `${where}: bad id`);
  expect(!seen.has(sticker.id), `${where}: sticker ${sticker.id} listed twice`);
  seen.add(sticker.id);
  expect(isText(sticker.name, 1000) && isText(sticker.description, 2000), `${where}: bad name or description`);
  expect(texts(sticker.emoji ?? []) && texts(sticker.keywords ?? []), `${where}: bad emoji or keywords`);
  checkAsset(sticker.asset, `${where}.asset`);
  checkAsset(sticker.thumbnail, `${where}.thumbnail`);
  expect(sticker.placeholder === undefined || PLACEHOLDER.test(sticker.placeholder), `${where}: bad placeholder`);
  if (sticker.sources === undefined) return;
  expect(Array.isArray(sticker.sources) && sticker.sources.length <= 12, `${where}: bad sources`);
  sticker.sources.forEach((source, i) => {
    expect(isObject(source) && isText(source.format, 16) && [1, 2, 3].includes(source.scale), `${where}.sources[${i}]`);
    expect(isText(source.url, 4096) && isCount(source.width, 4096) && isCount(source.height, 4096), `${where}.sources[${i}]`);
  });
}

/** A page of search or trending results: locked results carry no image. */
export function checkResults(page) {
  expect(isObject(page) && Array.isArray(page.results) && page.results.length <= 100, 'results: not a list');
  expect(page.next === null || page.next === undefined || isText(page.next, 64), 'results: bad next');
  const seen = new Set();
  page.results.forEach((result, i) => {
    const where = `results[${i}]`;
    expect(isObject(result) && isText(result.id, 64) && !seen.has(result.id), `${where}: bad or repeated id`);
    seen.add(result.id);
    expect(isObject(result.group) && SLUG.test(result.group.id), `${where}: bad group`);
    expect(typeof result.locked === 'boolean', `${where}: locked is not a boolean`);
    if (result.locked) expect(result.asset === undefined, `${where}: locked, yet has an image`);
    else checkAsset(result.asset, `${where}.asset`);
  });
  return page;
}

// MARK: Event streams

/** The next cursor, or the expiry, of one Server-Sent Event; null for any other event. */
export function streamEvent(type, id, data) {
  if (type === 'change') {
    expect(CURSOR.test(id ?? ''), 'a change event without a cursor');
    return { type, cursor: id };
  }
  if (type === 'expired') return { type };
  return null;
}

/** Elects one tab of an origin to hold the event stream, over a `BroadcastChannel`. The leader says so every
 * `beat` ms; a tab that hears none for three beats claims, and keeps the claim unless a lower id claims or leads
 * within a beat. A leader that hears a lower id's beat steps down; one that leaves (`stop`) says so, and the others
 * claim at once. `onChange(isLeader)` is told each change. Injectable channel and clock, for tests. */
export class Leadership {
  /** @param {{channel: any, id?: string, beat?: number, onChange?: (leader: boolean) => void,
   *   setTimer?: (action: () => void, ms: number) => any, clearTimer?: (timer: any) => void}} options */
  constructor({ channel, id = randomId(), beat = 1000, onChange = () => {}, setTimer = (action, ms) => setTimeout(action, ms),
    clearTimer = (timer) => clearTimeout(timer) }) {
    this.channel = channel;
    this.id = id;
    this.beat = beat;
    this.onChange = onChange;
    this.setTimer = setTimer;
    this.clearTimer = clearTimer;
    this.leader = false;
    this.claiming = false;
    this.beats = 0;
    this.heardAt = -2; // a new tab claims after one beat when no leader answers its hello

    this.timers = new Set();
    this.listener = (message) => this.hear(message.data ?? message);
    channel.addEventListener('message', this.listener);
  }

  start() {
    this.post({ type: 'hello', id: this.id });
    this.watch();
  }

  stop() {
    for (const timer of this.timers) this.clearTimer(timer);
    this.timers.clear();
    this.channel.removeEventListener('message', this.listener);
    if (this.leader) this.post({ type: 'resign', id: this.id });
    this.become(false);
  }

  post(message) {
    this.channel.postMessage(message);
  }

  later(ms, action) {
    const timer = this.setTimer(() => {
      this.timers.delete(timer);
      action();
    }, ms);
    this.timers.add(timer);
  }

  /** Counts beats; claims when no leader was heard for three of them. */
  watch() {
    this.later(this.beat, () => {
      this.beats += 1;
      if (this.leader) this.post({ type: 'leader', id: this.id });
      else if (!this.claiming && this.beats - this.heardAt >= 3) this.claim();
      this.watch();
    });
  }

  claim() {
    this.claiming = true;
    this.post({ type: 'claim', id: this.id });
    this.later(this.beat, () => {
      if (this.claiming) {
        this.claiming = false;
        this.become(true);
        this.post({ type: 'leader', id: this.id });
      }
    });
  }

  hear(message) {
    if (!isObject(message) || typeof message.id !== 'string' || message.id === this.id) return;
    switch (message.type) {
      case 'leader':
        this.heardAt = this.beats;
        if (this.leader && message.id < this.id) this.become(false);
        if (this.claiming && message.id !== this.id) this.claiming = false;
        break;
      case 'claim':
        if (this.claiming && message.id < this.id) this.claiming = false;
        if (this.leader) this.post({ type: 'leader', id: this.id });
        break;
      case 'resign':
        this.heardAt = -Infinity;
        if (!this.leader && !this.claiming) this.claim();
        break;
      case 'hello':
        if (this.leader) this.post({ type: 'leader', id: this.id });
        break;
    }
  }

  become(leader) {
    if (this.leader === leader) return;
    this.leader = leader;
    this.onChange(leader);
  }
}

/** The `sub` of a JWT, unverified (the service verifies it): only to keep users' stored answers apart. */
export function userOf(token) {
  try {
    const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    const sub = JSON.parse(atob(part)).sub;
    return typeof sub === 'string' ? `user:${sub}` : undefined;
  } catch {
    return undefined;
  }
}

function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

// MARK: Storage

/** What the catalog keeps between visits: answers by key, in IndexedDB when the browser gives it, bounded in bytes
 * (least recently used go first). Browsers evict it under pressure and Safari after a week unvisited, so it is a
 * cache: any failure (no IndexedDB, a full quota, a private window) leaves it empty, never the page broken. */
export class Shelf {
  constructor({ name = 'stickercatalog', maxBytes = 50_000_000, indexedDB = globalThis.indexedDB } = {}) {
    this.name = name;
    this.maxBytes = maxBytes;
    this.factory = indexedDB;
    /** @type {Promise<IDBDatabase|null>|undefined} */
    this.opening = undefined;
    this.memory = new Map();
  }

  async database() {
    if (!this.factory) return null;
    this.opening ??= new Promise((resolve) => {
      try {
        const request = this.factory.open(this.name, 1);
        request.onupgradeneeded = () => request.result.createObjectStore('answers', { keyPath: 'key' });
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => resolve(null);
        request.onblocked = () => resolve(null);
      } catch {
        resolve(null);
      }
    });
    return this.opening;
  }

  async run(mode, work) {
    const db = await this.database();
    if (!db) return undefined;
    return new Promise((resolve, reject) => {
      try {
        const transaction = db.transaction('answers', mode);
        const result = work(transaction.objectStore('answers'));
        transaction.oncomplete = () => resolve(result.value);
        transaction.onerror = () => reject(transaction.error);
        transaction.onabort = () => reject(transaction.error);
      } catch (error) {
        reject(error);
      }
    });
  }

  /** The entry under `key` ({key, etag, body, bytes, usedAt}), or undefined. */
  async get(key) {
    try {
      const found = await this.run('readonly', (store) => {
        const result = {};
        const request = store.get(key);
        request.onsuccess = () => (result.value = request.result);
        return result;
      });
      return found ?? this.memory.get(key);
    } catch {
      return this.memory.get(key);
    }
  }

  /** Keeps `entry` under `key`, then evicts to the budget. A full quota evicts half and tries once more. */
  async put(key, entry, now = Date.now()) {
    const record = { ...entry, key, usedAt: now };
    if (record.bytes > this.maxBytes) return;
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        if ((await this.database()) === null) break;
        await this.run('readwrite', (store) => (store.put(record), {}));
        await this.evict(this.maxBytes);
        return;
      } catch (error) {
        if (error?.name !== 'QuotaExceededError' || attempt > 0) break;
        await this.evict(this.maxBytes / 2).catch(() => {});
      }
    }
    this.memory.set(key, record);
    let bytes = 0;
    for (const [k, v] of [...this.memory].reverse()) if ((bytes += v.bytes) > this.maxBytes) this.memory.delete(k);
  }

  /** Deletes the least recently used entries until what is kept fits `budget`. */
  async evict(budget) {
    const entries = await this.run('readonly', (store) => {
      const result = { value: [] };
      const request = store.openCursor();
      request.onsuccess = () => {
        const cursor = request.result;
        if (!cursor) return;
        result.value.push({ key: cursor.value.key, bytes: cursor.value.bytes, usedAt: cursor.value.usedAt });
        cursor.continue();
      };
      return result;
    });
    if (!entries) return;
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    if (total <= budget) return;
    entries.sort((a, b) => a.usedAt - b.usedAt);
    const doomed = [];
    for (const entry of entries) {
      if (total <= budget) break;
      total -= entry.bytes;
      doomed.push(entry.key);
    }
    await this.run('readwrite', (store) => (doomed.forEach((key) => store.delete(key)), {}));
  }
}

// MARK: Transport

/** Requests to the service: the facts and the token on each, answers bounded and typed, 429 and 503 tried again after
 * the backoff (at most `attempts` times; a Retry-After past 30 s ends at once), a 401 with a token asks the page for a
 * fresh one once, and while the service is away (`pausedUntil`) nothing new is sent: the outage ends work. */
export class Transport {
  /** @param {{baseURL: string, token?: (o: {refresh: boolean}) => any, facts?: Facts, fetch?: typeof fetch,
   *   random?: () => number, sleep?: (ms: number) => Promise<void>, now?: () => number, attempts?: number}} options */
  constructor({ baseURL, token = undefined, facts = {}, fetch = globalThis.fetch?.bind(globalThis), random = Math.random,
    sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)), now = Date.now, attempts = 4 }) {
    this.baseURL = String(baseURL).replace(/\/$/, '');
    this.token = token;
    this.facts = facts;
    this.fetch = fetch;
    this.random = random;
    this.sleep = sleep;
    this.now = now;
    this.attempts = attempts;
    this.failures = 0;
    this.pausedUntil = 0;
    this.inFlight = new Map();
  }

  url(path, query = {}) {
    const url = new URL(this.baseURL + path);
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') url.searchParams.set(name, String(value));
    }
    return url.toString();
  }

  /** @param {Record<string, string>} extra */
  async headers(extra = {}, refresh = false) {
    /** @type {Record<string, string>} */
    const headers = { ...extra };
    if (this.facts.platform) headers['Sticker-Platform'] = this.facts.platform;
    if (this.facts.appVersion) headers['Sticker-App-Version'] = this.facts.appVersion;
    if (this.facts.installation) headers['Sticker-Installation'] = this.facts.installation;
    const token = this.token ? await this.token({ refresh }) : undefined;
    if (token) headers.Authorization = `Bearer ${token}`;
    return headers;
  }

  /** GET `url` with `etag` as If-None-Match: {status: 304} or {status: 200, etag, json, bytes}. Concurrent GETs of
   * one URL share one request. */
  /** @param {string} url @param {{etag?: string, signal?: AbortSignal, limit?: number}} options */
  get(url, { etag = undefined, signal = undefined, limit = undefined } = {}) {
    const key = `${url} ${etag ?? ''}`;
    if (!signal && this.inFlight.has(key)) return this.inFlight.get(key);
    const pending = this.send(url, { method: 'GET', headers: etag ? { 'If-None-Match': etag } : {}, signal, limit });
    if (!signal) {
      this.inFlight.set(key, pending);
      pending.finally(() => this.inFlight.delete(key)).catch(() => {});
    }
    return pending;
  }

  /** @param {string} url @param {SendOptions} options */
  async send(url, { method = 'GET', headers = {}, body = undefined, signal = undefined, limit = undefined,
    keepalive = false } = {}) {
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const wait = this.pausedUntil - this.now();
      if (wait > 0) {
        if (wait > LONGEST_WAIT_MS) throw new CatalogError('unavailable', 'the service asked to wait', { retryAfter: wait });
        await this.sleep(wait);
      }
      let response;
      try {
        const sent = await this.headers(headers, refreshed);
        response = await this.fetch(url, { method, headers: sent, body, signal, ...(keepalive ? { keepalive } : {}) });
      } catch (cause) {
        if (signal?.aborted) throw new CatalogError('aborted', 'aborted', { cause });
        if (attempt >= this.attempts) throw new CatalogError('unreachable', 'the service is unreachable', { cause });
        await this.backOff(undefined);
        continue;
      }
      if (response.status === 401 && this.token && !refreshed) {
        refreshed = true;
        await response.body?.cancel().catch(() => {});
        continue;
      }
      if (response.status === 429 || response.status === 503) {
        const retryAfter = response.headers.get('retry-after') ?? undefined;
        const problem = await problemOf(response);
        if (attempt >= this.attempts || retryAfterMs(retryAfter) > LONGEST_WAIT_MS) {
          this.pause(retryAfter);
          throw new CatalogError('unavailable', problem.detail ?? `answered ${response.status}`,
            { status: response.status, code: problem.code, retryAfter: retryAfterMs(retryAfter) });
        }
        await this.backOff(retryAfter);
        continue;
      }
      this.failures = 0;
      if (response.status === 304) return { status: 304, etag: response.headers.get('etag') };
      if (response.status >= 400) {
        const problem = await problemOf(response);
        throw new CatalogError('refused', problem.detail ?? `answered ${response.status}`,
          { status: response.status, code: problem.code });
      }
      const { json, bytes } = response.status === 204 ? { json: null, bytes: 0 } : await readJSON(response, limit);
      return { status: response.status, etag: response.headers.get('etag'), json, bytes };
    }
  }

  async backOff(retryAfter) {
    this.failures += 1;
    await this.sleep(nextDelay(this.failures, retryAfter, this.random));
  }

  /** Holds every request until the service's Retry-After (or the backoff) has passed. */
  pause(retryAfter) {
    this.pausedUntil = this.now() + nextDelay(this.failures + 1, retryAfter, this.random);
  }
}

async function problemOf(response) {
  try {
    const { json } = await readJSON(response, 64 << 10);
    return isObject(json) ? { code: isText(json.code, 100) ? json.code : undefined, detail: isText(json.detail, 2000) ? json.detail : undefined } : {};
  } catch {
    return {};
  }
}

// MARK: The catalog

const viewKeys = ['filter', 'flags', 'size', 'scale', 'format', 'locale', 'sources'];

/** A page's sticker catalog: the group index and the groups it shows, stored, revalidated and followed live.
 * Events: `change` (detail: {source: 'storage'|'network'|'live'}), `error` (detail: a CatalogError).
 * @example
 *   const catalog = new StickerCatalog({ baseURL: 'https://stickers.example.com', token: () => session.jwt });
 *   catalog.addEventListener('change', render);
 *   await catalog.open();
 */
export class StickerCatalog extends EventTarget {
  /** @param {{baseURL: string, token?: (o: {refresh: boolean}) => string|undefined|Promise<string|undefined>,
   *   facts?: Facts, view?: Record<string, string|number>, maxStorageBytes?: number, live?: boolean,
   *   fetch?: typeof fetch, shelf?: Shelf, channel?: BroadcastChannel, EventSource?: typeof EventSource}} options */
  constructor({ baseURL, token, facts = {}, view = {}, maxStorageBytes = 50_000_000, live = true, fetch, shelf,
    channel, EventSource: Source = globalThis.EventSource }) {
    super();
    this.view = Object.fromEntries(viewKeys.filter((k) => view[k] !== undefined).map((k) => [k, view[k]]));
    this.view.scale ??= Math.min(3, Math.max(1, Math.ceil(globalThis.devicePixelRatio ?? 2)));
    this.view.sources ??= 'all'; // every sticker's pictures at 1x-3x in WebP and PNG, for picture()'s srcset
    this.facts = facts;
    this.transport = new Transport({ baseURL, token, facts, ...(fetch ? { fetch } : {}) });
    this.shelf = shelf ?? new Shelf({ maxBytes: maxStorageBytes });
    this.token = token;
    this.live = live;
    this.Source = Source;
    this.channelName = `stickercatalog ${this.transport.baseURL}`;
    this.channel = channel;
    /** @type {{revision: number, groups: any[], next: string|null, etag?: string} | null} */
    this.index = null;
    /** @type {Map<string, any>} */
    this.groups = new Map();
    this.usage = [];
  }

  /** Where an answer is stored: per service, view and user, so one user's unlocked groups are never another's. */
  key(kind, id = '') {
    return `${this.transport.baseURL} ${kind} ${id} ${JSON.stringify(this.view)} ${this.user ?? ''}`;
  }

  /** Dispatches `type` with `detail` (a plain Event: node 18, where the tests run, has no global CustomEvent). */
  emit(type, detail) {
    const event = /** @type {Event & {detail?: unknown}} */ (new Event(type));
    event.detail = detail;
    this.dispatchEvent(event);
  }

  /** Shows what was stored at once (a `change` from storage, before any network answer), then revalidates, then
   * follows changes live. Resolves when the stored copy is shown; `ready` resolves after the first revalidation. */
  async open({ groups = 8 } = {}) {
    this.user = userOf(this.token ? await this.token({ refresh: false }) : undefined);
    const stored = await this.shelf.get(this.key('index'));
    if (stored) {
      this.index = { ...stored.body, etag: stored.etag };
      for (const summary of this.index.groups.slice(0, groups)) {
        const group = await this.shelf.get(this.key('group', summary.id));
        if (group) this.groups.set(summary.id, { ...group.body, etag: group.etag });
      }
      this.emit('change', { source: 'storage' });
    }
    this.shown = groups;
    this.ready = this.revalidate().catch((error) => this.emit('error', error));
    if (this.live) this.follow();
    globalThis.addEventListener?.('pagehide', () => this.flushUsage(true));
    return this.ready;
  }

  /** One request when nothing changed: the index's first page with If-None-Match (304). When it changed, the groups
   * shown whose version moved are fetched again, and nothing of a page that breaks the rules is kept. */
  async revalidate() {
    const url = this.transport.url('/v1/groups', { ...this.view, limit: 100 });
    const answer = await this.transport.get(url, { etag: this.index?.etag });
    if (answer.status === 304) return false;
    const page = checkIndexPage(answer.json);
    const changed = page.groups.filter((g) => this.groups.has(g.id) && this.version(g.id) !== g.version);
    const wanted = page.groups.slice(0, this.shown ?? 8).filter((g) => !this.groups.has(g.id) && !g.locked);
    const fetched = await Promise.all([...changed, ...wanted].map((g) => this.fetchGroup(g.id)));
    const listed = new Set(page.groups.map((g) => g.id));
    for (const id of this.groups.keys()) if (!listed.has(id)) this.groups.delete(id);
    for (const group of fetched) this.groups.set(group.id, group);
    this.index = { ...page, etag: answer.etag ?? undefined };
    await this.shelf.put(this.key('index'), { etag: answer.etag, body: page, bytes: answer.bytes });
    this.emit('change', { source: 'network' });
    return true;
  }

  version(id) {
    return /^"?(?:W\/)?"?([0-9a-f]{32})/.exec(this.groups.get(id)?.etag ?? '')?.[1];
  }

  /** A group with all its stickers: from memory when current, else fetched (every page, ids checked across them). */
  async group(id) {
    expect(SLUG.test(id), `no group ${id}`);
    if (this.groups.has(id)) return this.groups.get(id);
    const group = await this.fetchGroup(id);
    this.groups.set(id, group);
    this.emit('change', { source: 'network' });
    return group;
  }

  async fetchGroup(id) {
    const seen = new Set();
    let answer = await this.transport.get(this.transport.url(`/v1/groups/${id}`, this.view));
    const etag = answer.etag ?? undefined; // the first page's: the version the index states
    const group = checkGroupPage(answer.json, id, seen);
    let bytes = answer.bytes;
    const stickers = [...group.stickers];
    for (let pages = 1; answer.json.next !== undefined; pages++) {
      expect(pages < 200, `group ${id}: over 200 pages`);
      answer = await this.transport.get(this.transport.url(`/v1/groups/${id}`, { ...this.view, cursor: answer.json.next }));
      stickers.push(...checkGroupPage(answer.json, id, seen).stickers);
      bytes += answer.bytes;
    }
    const whole = { ...group, stickers, next: undefined, etag };
    await this.shelf.put(this.key('group', id), { etag, body: whole, bytes });
    return whole;
  }

  /** The next page of the index (for a long catalog's scroll); false when there is none. */
  async loadMore() {
    if (!this.index?.next) return false;
    const url = this.transport.url('/v1/groups', { ...this.view, limit: 100, cursor: this.index.next });
    const page = checkIndexPage((await this.transport.get(url)).json);
    const known = new Set(this.index.groups.map((g) => g.id));
    this.index = { ...this.index, groups: [...this.index.groups, ...page.groups.filter((g) => !known.has(g.id))], next: page.next };
    this.emit('change', { source: 'network' });
    return true;
  }

  /** Search results for `q` (locked ones without images). Pass a signal to abort a stale search. */
  /** @param {string} q @param {{signal?: AbortSignal, limit?: number}} options */
  async search(q, { signal = undefined, limit = 30 } = {}) {
    const url = this.transport.url('/v1/search', { ...this.view, q, limit });
    return checkResults((await this.transport.send(url, { signal })).json).results;
  }

  /** @param {string} q @param {{signal?: AbortSignal}} options */
  async suggestions(q, { signal = undefined } = {}) {
    const url = this.transport.url('/v1/search/suggestions', { q, locale: this.view.locale });
    const { json } = await this.transport.send(url, { signal });
    expect(isObject(json) && texts(json.suggestions, 10), 'suggestions: not a list');
    return json.suggestions;
  }

  async trending({ window = 'day', limit = 20 } = {}) {
    const url = this.transport.url('/v1/trending', { ...this.view, window, limit });
    return checkResults((await this.transport.get(url)).json).results;
  }

  // MARK: Usage

  /** Counts a use (`sent`, `viewed`, `tapped`): batched, sent every 100 events or 30 s, and when the page hides. */
  record(sticker, action = 'sent') {
    if (this.usage.length >= 1000) this.usage.shift();
    this.usage.push({ sticker, action, at: new Date().toISOString() });
    if (this.usage.length >= 100) this.flushUsage(false);
    else this.usageTimer ??= setTimeout(() => this.flushUsage(false), 30_000);
  }

  /** Sends what was recorded. On page hide: `sendBeacon` for an anonymous page (text/plain, so no preflight), a
   * keepalive fetch when signed in (a beacon cannot carry the token). */
  async flushUsage(hiding) {
    clearTimeout(this.usageTimer);
    this.usageTimer = undefined;
    while (this.usage.length > 0) {
      const events = this.usage.splice(0, 100);
      const body = JSON.stringify({ events });
      const url = this.transport.url('/v1/usage');
      if (hiding && !this.token && globalThis.navigator?.sendBeacon?.(url, body)) continue;
      try {
        await this.transport.send(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body,
          ...(hiding ? { keepalive: true } : {}) });
      } catch (error) {
        if (error.kind === 'refused') continue; // a batch the service refuses is not sent again
        this.usage.unshift(...events.slice(0, 1000 - this.usage.length));
        return;
      }
    }
  }

  // MARK: Live

  /** One event stream per origin: the tab elected leader holds it and tells the others what it hears. */
  follow() {
    if (!this.Source || typeof BroadcastChannel === 'undefined' && !this.channel) return;
    this.channel ??= new BroadcastChannel(this.channelName);
    this.channel.addEventListener('message', (message) => {
      if (message.data?.type === 'change') this.changed();
    });
    this.leadership = new Leadership({ channel: this.channel, onChange: (leader) => (leader ? this.connect() : this.disconnect()) });
    this.leadership.start();
    globalThis.addEventListener?.('pagehide', () => this.close());
  }

  /** Something changed: revalidate, once at a time (a burst of events costs one request, then one more). */
  changed() {
    if (this.revalidating) {
      this.again = true;
      return;
    }
    this.revalidating = this.revalidate().catch((error) => this.emit('error', error)).finally(() => {
      this.revalidating = null;
      if (this.again) {
        this.again = false;
        this.changed();
      }
    });
  }

  async streamURL() {
    /** @type {Record<string, any>} */
    const query = { ...this.view, ...this.facts, since: this.cursor };
    if (this.token && (await this.token({ refresh: false }))) {
      const url = this.transport.url('/v1/me/event-ticket');
      query.ticket = (await this.transport.send(url, { method: 'POST' })).json?.ticket;
    }
    return this.transport.url('/v1/events', query);
  }

  /** Opens the stream; on a failure, closes it and opens another after the backoff (a ticket is spent once, so the
   * browser's own reconnection, which reuses the URL, is never relied on). */
  async connect() {
    this.disconnect();
    const generation = (this.generation = (this.generation ?? 0) + 1);
    let url;
    try {
      url = await this.streamURL();
    } catch (error) {
      this.emit('error', error);
      return this.retry(generation, error.retryAfter ? String(Math.ceil(error.retryAfter / 1000)) : undefined);
    }
    if (generation !== this.generation) return;
    const source = (this.source = new this.Source(url));
    source.addEventListener('open', () => {
      this.openedAt = Date.now();
      this.changed(); // whatever happened while no stream was open
    });
    const relay = (message) => {
      try {
        const event = streamEvent(message.type, message.lastEventId, message.data);
        if (event?.cursor) this.cursor = event.cursor;
        this.channel?.postMessage({ type: 'change' });
        this.changed();
      } catch (error) {
        this.emit('error', error);
      }
    };
    source.addEventListener('change', relay);
    source.addEventListener('expired', (message) => {
      this.cursor = undefined;
      relay(message);
    });
    source.addEventListener('error', () => {
      if (generation !== this.generation) return;
      source.close();
      if (Date.now() - (this.openedAt ?? 0) > 60_000) this.transport.failures = 0; // it held: start over
      this.retry(generation);
    });
  }

  retry(generation, retryAfter) {
    this.transport.failures += 1;
    const delay = nextDelay(this.transport.failures, retryAfter);
    this.reconnect = setTimeout(() => generation === this.generation && this.connect(), delay);
  }

  disconnect() {
    this.generation = (this.generation ?? 0) + 1;
    clearTimeout(this.reconnect);
    this.source?.close();
    this.source = null;
  }

  /** Stops following: gives up the stream (another tab takes it) and sends what usage is waiting. */
  close() {
    this.leadership?.stop();
    this.disconnect();
    this.flushUsage(true);
  }
}

// MARK: Pictures

/** A sticker's image: a `<picture>` (WebP and PNG sources when the answer lists them), `srcset` by scale, width and
 * height always set in CSS pixels (no layout shift), lazy and async, `alt` from the localized description, and the
 * placeholder colour behind it until it loads. */
export function picture(sticker, { baseURL = globalThis.location?.href, scale = 3, document = globalThis.document } = {}) {
  const asset = sticker.asset ?? sticker.thumbnail;
  const element = document.createElement('picture');
  const image = document.createElement('img');
  const resolve = (url) => new URL(url, baseURL).toString();
  const byFormat = new Map();
  for (const source of Array.isArray(sticker.sources) ? sticker.sources : []) {
    if (source.format !== 'webp' && source.format !== 'png') continue; // a format a later service adds
    if (!byFormat.has(source.format)) byFormat.set(source.format, []);
    byFormat.get(source.format).push(`${resolve(source.url)} ${source.scale}x`);
  }
  for (const [format, set] of byFormat) {
    const source = document.createElement('source');
    source.type = format === 'webp' ? 'image/webp' : 'image/png';
    source.srcset = set.join(', ');
    element.append(source);
  }
  image.src = resolve(asset.url);
  image.width = Math.round(asset.width / scale);
  image.height = Math.round(asset.height / scale);
  image.alt = sticker.description || sticker.name || '';
  image.loading = 'lazy';
  image.decoding = 'async';
  if (sticker.placeholder) image.style.backgroundColor = sticker.placeholder;
  element.append(image);
  return element;
}

/** Calls `search` `delay` ms after the last keystroke, aborting the one before: a query typed fast costs one
 * request, and a slow answer never overwrites a newer one. */
export function debounced(search, delay = 250) {
  let timer;
  let controller;
  return (query) => new Promise((resolve, reject) => {
    clearTimeout(timer);
    controller?.abort();
    timer = setTimeout(() => {
      controller = new AbortController();
      search(query, { signal: controller.signal }).then(resolve, reject);
    }, delay);
  });
}
