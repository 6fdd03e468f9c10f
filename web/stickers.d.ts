// Types for stickers.js (checked against it by `tsc --noEmit` in make check: scripts/check-web.sh).

export interface Facts { platform?: string; appVersion?: string; installation?: string }
export interface AssetLink { url: string; width: number; height: number; bytes: number; sha256: string; animated: boolean }
export interface Source { format: 'png' | 'webp' | string; scale: number; url: string; width: number; height: number }
export interface Sticker {
  id: string; name: string; description: string; flags: string[]; keywords: string[]; emoji: string[];
  animated: boolean; frames: number; durationMs: number; loops: number;
  asset: AssetLink; thumbnail: AssetLink; placeholder?: string; sources?: Source[];
}
export interface GroupSummary {
  id: string; name: string; description?: string; sizeClass: string; flags: string[]; position: number;
  locked: boolean; productId: string | null; cover?: AssetLink; stickerCount: number; animated: boolean; version: string;
}
export interface Group extends Omit<GroupSummary, 'stickerCount' | 'version' | 'animated'> { stickers: Sticker[]; etag?: string }
export interface IndexPage { revision: number; groups: GroupSummary[]; next: string | null; etag?: string }
export interface Result {
  id: string; name: string; description: string; group: { id: string; name: string }; locked: boolean;
  productId: string | null; animated: boolean; asset?: AssetLink; thumbnail?: AssetLink; placeholder?: string;
}
export type TokenProvider = (options: { refresh: boolean }) => string | undefined | Promise<string | undefined>;
export type View = { filter?: string; flags?: string; size?: string; scale?: number; format?: string; locale?: string };

export declare const MAX_ANSWER_BYTES: number;
export declare class CatalogError extends Error {
  constructor(kind: CatalogError['kind'], message: string,
    details?: { status?: number; code?: string; retryAfter?: number; cause?: unknown });
  kind: 'refused' | 'unavailable' | 'unreachable' | 'invalidAnswer' | 'aborted';
  status?: number; code?: string; retryAfter?: number;
}
export declare function fullJitter(failures: number,
  options?: { base?: number; cap?: number; random?: () => number }): number;
export declare function retryAfterMs(value: string | null | undefined): number;
export declare function nextDelay(failures: number, retryAfter?: string, random?: () => number): number;
export declare function readJSON(response: Response, limit?: number): Promise<{ json: unknown; bytes: number }>;
export declare function checkAsset(asset: unknown, where: string): AssetLink;
export declare function checkIndexPage(page: unknown): IndexPage;
export declare function checkGroupPage(group: unknown, id: string, seen?: Set<string>): Group & { next?: string };
export declare function checkResults(page: unknown): { results: Result[]; next?: string | null };
export declare function streamEvent(type: string, id: string | undefined, data: string):
  { type: 'change'; cursor: string } | { type: 'expired' } | null;
export declare function userOf(token: string | undefined): string | undefined;

export interface Channel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}
export declare class Leadership {
  constructor(options: { channel: Channel; id?: string; beat?: number; onChange?: (leader: boolean) => void;
    setTimer?: (action: () => void, ms: number) => unknown; clearTimer?: (timer: any) => void });
  readonly leader: boolean;
  start(): void;
  stop(): void;
}
export declare class Shelf {
  constructor(options?: { name?: string; maxBytes?: number; indexedDB?: IDBFactory | null });
  get(key: string): Promise<{ key: string; etag?: string; body: any; bytes: number; usedAt: number } | undefined>;
  put(key: string, entry: { etag?: string | null; body: unknown; bytes: number }, now?: number): Promise<void>;
  evict(budget: number): Promise<void>;
}
export declare class Transport {
  constructor(options: { baseURL: string; token?: TokenProvider; facts?: Facts; fetch?: typeof fetch;
    random?: () => number; sleep?: (ms: number) => Promise<void>; now?: () => number; attempts?: number });
  url(path: string, query?: Record<string, string | number | undefined | null>): string;
  get(url: string, options?: { etag?: string; signal?: AbortSignal; limit?: number }):
    Promise<{ status: number; etag: string | null; json?: any; bytes?: number }>;
  send(url: string, options?: { method?: string; headers?: Record<string, string>; body?: BodyInit;
    signal?: AbortSignal; limit?: number; keepalive?: boolean }):
    Promise<{ status: number; etag: string | null; json?: any; bytes?: number }>;
}
export declare class StickerCatalog extends EventTarget {
  constructor(options: { baseURL: string; token?: TokenProvider; facts?: Facts; view?: View; maxStorageBytes?: number;
    live?: boolean; fetch?: typeof fetch; shelf?: Shelf; channel?: BroadcastChannel; EventSource?: typeof EventSource });
  index: IndexPage | null;
  groups: Map<string, Group>;
  ready?: Promise<unknown>;
  open(options?: { groups?: number }): Promise<unknown>;
  revalidate(): Promise<boolean>;
  group(id: string): Promise<Group>;
  loadMore(): Promise<boolean>;
  search(q: string, options?: { signal?: AbortSignal; limit?: number }): Promise<Result[]>;
  suggestions(q: string, options?: { signal?: AbortSignal }): Promise<string[]>;
  trending(options?: { window?: 'day' | 'week'; limit?: number }): Promise<Result[]>;
  record(sticker: string, action?: 'sent' | 'viewed' | 'tapped'): void;
  flushUsage(hiding: boolean): Promise<void>;
  close(): void;
}
export declare function picture(sticker: Sticker | Result,
  options?: { baseURL?: string; scale?: number; document?: Document }): HTMLPictureElement;
export declare function debounced<T>(search: (q: string, o: { signal: AbortSignal }) => Promise<T>, delay?: number):
  (q: string) => Promise<T>;
