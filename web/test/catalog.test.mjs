import assert from 'node:assert/strict';
import test from 'node:test';
import { Shelf, StickerCatalog } from '../stickers.js';
import { group, scriptedFetch, summary } from './support.mjs';

/** A service of two groups whose index ETag is `etag()`; `/v1/groups/{id}` answers the group. */
function service(state) {
  return scriptedFetch((url, init) => {
    const path = new URL(url).pathname;
    if (path === '/v1/groups') {
      if (init.headers['If-None-Match'] === `"${state.etag}"`) return { status: 304 };
      return { headers: { etag: `"${state.etag}"` }, body: state.index };
    }
    const id = path.split('/').pop();
    return { headers: { etag: `"${state.versions[id]}"` }, body: state.groups[id] };
  });
}

function demo() {
  const versions = { crunchy: 'a'.repeat(32), chewy: 'b'.repeat(32) };
  return {
    etag: '1'.repeat(32),
    versions,
    index: { revision: 1, groups: [summary('crunchy', versions.crunchy), summary('chewy', versions.chewy)], next: null },
    groups: { crunchy: group('crunchy'), chewy: group('chewy') },
  };
}

const open = async (fetch, shelf) => {
  const catalog = new StickerCatalog({ baseURL: 'https://s.example', fetch, shelf, live: false, view: { scale: 2 } });
  const changes = [];
  catalog.addEventListener('change', (e) => changes.push(e.detail.source));
  await catalog.open();
  return { catalog, changes };
};

test('a first open fetches the index and the groups shown; a revalidation with no change costs one 304', async () => {
  const state = demo();
  const { fetch, calls } = service(state);
  const { catalog } = await open(fetch, new Shelf({ indexedDB: null }));
  assert.deepEqual([...catalog.groups.keys()].sort(), ['chewy', 'crunchy']);
  const before = calls.length;
  assert.equal(await catalog.revalidate(), false);
  assert.equal(calls.length - before, 1, 'one request');
  assert.equal(calls.at(-1).init.headers['If-None-Match'], `"${state.etag}"`);
});

test('a second open shows the stored catalog before any network answer, and offline', async () => {
  const state = demo();
  const shelf = new Shelf({ indexedDB: null });
  await open(service(state).fetch, shelf);
  // Action: the service is unreachable now.
  const offline = async () => {
    throw new TypeError('Failed to fetch');
  };
  const { catalog, changes } = await open(offline, shelf);
  assert.deepEqual(changes, ['storage']);
  assert.deepEqual(catalog.index.groups.map((g) => g.id), ['crunchy', 'chewy']);
  assert.equal(catalog.groups.get('chewy').stickers[0].id, 'chewy-1');
});

test('a changed group is fetched again, a group that left is dropped, and nothing else is asked', async () => {
  const state = demo();
  const { fetch, calls } = service(state);
  const { catalog } = await open(fetch, new Shelf({ indexedDB: null }));
  // Action: chewy gets a sticker, crunchy leaves the view.
  state.etag = '2'.repeat(32);
  state.versions.chewy = 'c'.repeat(32);
  state.groups.chewy = group('chewy', [...state.groups.chewy.stickers, { ...state.groups.chewy.stickers[0], id: 'chewy-2' }]);
  state.index = { revision: 2, groups: [summary('chewy', state.versions.chewy)], next: null };
  const before = calls.length;
  assert.equal(await catalog.revalidate(), true);
  assert.deepEqual(calls.slice(before).map((c) => new URL(c.url).pathname), ['/v1/groups', '/v1/groups/chewy']);
  assert.deepEqual([...catalog.groups.keys()], ['chewy']);
  assert.equal(catalog.groups.get('chewy').stickers.length, 2);
});

test('an answer that breaks the rules is refused whole: what was shown stays', async () => {
  const state = demo();
  const { fetch } = service(state);
  const { catalog } = await open(fetch, new Shelf({ indexedDB: null }));
  state.etag = '3'.repeat(32);
  state.versions.chewy = 'd'.repeat(32);
  state.index = { revision: 3, groups: [summary('chewy', state.versions.chewy)], next: null };
  state.groups.chewy = { ...group('chewy'), id: 'crunchy' }; // a lie: another group under chewy's name
  await assert.rejects(catalog.revalidate(), (e) => e.kind === 'invalidAnswer');
  assert.deepEqual([...catalog.groups.keys()].sort(), ['chewy', 'crunchy'], 'the crunchy group was not dropped');
  assert.equal(catalog.index.revision, 1);
});

test('stored answers are bounded in bytes, least recently used first', async () => {
  const shelf = new Shelf({ indexedDB: null, maxBytes: 100 });
  await shelf.put('a', { etag: '"a"', body: {}, bytes: 60 }, 1);
  await shelf.put('b', { etag: '"b"', body: {}, bytes: 60 }, 2);
  assert.equal(await shelf.get('a'), undefined);
  assert.equal((await shelf.get('b')).etag, '"b"');
  await shelf.put('huge', { etag: '"h"', body: {}, bytes: 101 }, 3);
  assert.equal(await shelf.get('huge'), undefined);
});
