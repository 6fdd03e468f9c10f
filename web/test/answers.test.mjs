import assert from 'node:assert/strict';
import test from 'node:test';
import { CatalogError, checkGroupPage, checkIndexPage, checkResults, readJSON } from '../stickers.js';
import { asset, group, sticker, summary } from './support.mjs';

const refused = (body, pattern) => assert.throws(body, (error) => error instanceof CatalogError
  && error.kind === 'invalidAnswer' && pattern.test(error.message));

test('an index page with unique ids and well-formed versions passes; a repeated id or a bad version does not', () => {
  const page = { revision: 3, groups: [summary('crunchy'), summary('chewy')], next: null };
  assert.equal(checkIndexPage(page), page);
  refused(() => checkIndexPage({ ...page, groups: [summary('crunchy'), summary('crunchy')] }), /listed twice/);
  refused(() => checkIndexPage({ ...page, groups: [summary('crunchy', 'xyz')] }), /bad version/);
  refused(() => checkIndexPage({ ...page, revision: '3' }), /no revision/);
  refused(() => checkIndexPage({ ...page, groups: [{ ...summary('a'), locked: 'no' }] }), /locked/);
  refused(() => checkIndexPage({ ...page, next: 'has spaces' }), /bad next/);
});

test('a group page must be the group asked for, lock its stickers away, and never repeat a sticker across pages', () => {
  assert.equal(checkGroupPage(group('chewy'), 'chewy').id, 'chewy');
  refused(() => checkGroupPage(group('chewy'), 'crunchy'), /answered chewy/);
  refused(() => checkGroupPage({ ...group('chewy'), locked: true, productId: 'p' }, 'chewy'), /locked, yet/);
  const seen = new Set();
  checkGroupPage(group('chewy', [sticker('s1')]), 'chewy', seen);
  refused(() => checkGroupPage(group('chewy', [sticker('s1')]), 'chewy', seen), /listed twice/);
  refused(() => checkGroupPage(group('chewy', [{ ...sticker('s2'), asset: { ...asset(1), sha256: 'nope' } }]), 'chewy'),
    /sha256/);
  refused(() => checkGroupPage(group('chewy', [{ ...sticker('s3'), placeholder: 'red' }]), 'chewy'), /placeholder/);
});

test('a locked search result carries no image', () => {
  const result = { id: 's', name: 's', description: '', group: { id: 'g', name: 'G' }, locked: false, asset: asset(1) };
  checkResults({ results: [result], next: null });
  refused(() => checkResults({ results: [{ ...result, locked: true }], next: null }), /locked, yet/);
  refused(() => checkResults({ results: [result, result], next: null }), /repeated/);
});

test('a body is read within its bounds: an announced length over the limit is refused unread', async () => {
  assert.deepEqual((await readJSON(new Response('{"a":1}'))).json, { a: 1 });
  const big = new Response('{}', { headers: { 'content-length': String(100 << 20) } });
  await assert.rejects(readJSON(big), /over the/);
  await assert.rejects(readJSON(new Response('x'.repeat(2000)), 1000), /over 1000 bytes/);
  await assert.rejects(readJSON(new Response('not json')), /not JSON/);
});

test('a body far larger than it announced is cut off and refused', async () => {
  // Setup: a stream that says 10 bytes and sends 100,000 (a compressed body decodes larger, but not like this).
  const body = new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode('{"a":"' + 'x'.repeat(100_000) + '"}'));
      controller.close();
    },
  });
  const response = { headers: new Headers({ 'content-length': '10' }), body };
  await assert.rejects(readJSON(response), /far larger than it announced/);
});

test('sources for srcset are checked too; picture() makes a <source> per format with 1x-3x', async () => {
  const sources = [1, 2, 3].flatMap((scale) => ['webp', 'png'].map((format) =>
    ({ format, scale, url: `/v1/assets/${format}${scale}`, width: 136 * scale, height: 136 * scale })));
  checkGroupPage(group('chewy', [{ ...sticker('s1'), sources }]), 'chewy');
  refused(() => checkGroupPage(group('chewy', [{ ...sticker('s1'), sources: [{ ...sources[0], scale: 4 }] }]), 'chewy'),
    /sources/);
  const { picture } = await import('../stickers.js');
  const made = [];
  const element = (tag) => {
    const node = { tag, children: [], style: {}, append: (...c) => node.children.push(...c) };
    made.push(node);
    return node;
  };
  const document = { createElement: element };
  const root = picture({ ...sticker('s1'), sources }, { baseURL: 'https://s.example/', scale: 3, document });
  const [webp, png, img] = root.children;
  assert.equal(webp.type, 'image/webp');
  assert.equal(webp.srcset, 'https://s.example/v1/assets/webp1 1x, https://s.example/v1/assets/webp2 2x, https://s.example/v1/assets/webp3 3x');
  assert.equal(png.type, 'image/png');
  assert.deepEqual([img.width, img.height, img.loading, img.decoding, img.alt], [136, 136, 'lazy', 'async', 's1 sticker']);
});
