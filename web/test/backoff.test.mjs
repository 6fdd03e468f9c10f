import assert from 'node:assert/strict';
import test from 'node:test';
import { CatalogError, fullJitter, nextDelay, retryAfterMs, Transport } from '../stickers.js';
import { scriptedFetch } from './support.mjs';

test('full jitter draws from zero to a ceiling that doubles up to the cap', () => {
  assert.equal(fullJitter(1, { random: () => 0 }), 0);
  assert.equal(fullJitter(1, { random: () => 0.999999 }), 499);
  assert.equal(fullJitter(4, { random: () => 0.5 }), 2000);
  assert.equal(fullJitter(40, { random: () => 0.999999 }), 299_999);
  const draws = Array.from({ length: 200 }, () => fullJitter(3));
  assert.ok(draws.every((d) => d >= 0 && d < 2000) && new Set(draws).size > 100, 'spread, not one value');
});

test('Retry-After is whole seconds, capped at 300, and a floor under the backoff', () => {
  assert.equal(retryAfterMs('5'), 5000);
  assert.equal(retryAfterMs('86400'), 300_000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2026 07:28:00 GMT'), 0);
  assert.equal(retryAfterMs('-1'), 0);
  assert.equal(retryAfterMs(undefined), 0);
  assert.equal(nextDelay(1, '7', () => 0.9), 7000);
  assert.equal(nextDelay(12, '1', () => 0.5), Math.max(1000, fullJitter(12, { random: () => 0.5 })));
});

function transport(route, options = {}) {
  const { fetch, calls } = scriptedFetch(route);
  const slept = [];
  const clock = { now: 0 };
  const sleep = async (ms) => {
    slept.push(ms);
    clock.now += ms;
  };
  const client = new Transport({ baseURL: 'https://s.example', fetch, sleep, now: () => clock.now, random: () => 0.5, ...options });
  return { client, calls, slept, clock };
}

test('a 503 is tried again after its Retry-After, and the answer then counts', async () => {
  const { client, calls, slept } = transport((url, init, n) =>
    n === 1 ? { status: 503, headers: { 'retry-after': '2' }, body: { code: 'database_unavailable' } } : { body: { ok: 1 } });
  const answer = await client.get('https://s.example/v1/groups');
  assert.deepEqual(answer.json, { ok: 1 });
  assert.equal(calls.length, 2);
  assert.ok(slept[0] >= 2000);
});

test('an outage ends work: past the tries, the client waits out Retry-After before sending anything else', async () => {
  const { client, calls, clock } = transport(() => ({ status: 503, headers: { 'retry-after': '120' }, body: {} }));
  await assert.rejects(client.get('https://s.example/v1/groups'), (e) => e instanceof CatalogError
    && e.kind === 'unavailable' && e.status === 503 && e.retryAfter === 120_000);
  assert.equal(calls.length, 1, 'a Retry-After past 30 s is not waited for inside a request');
  // A second request while the service asked for quiet costs nothing.
  await assert.rejects(client.get('https://s.example/v1/manifest'), /asked to wait/);
  assert.equal(calls.length, 1);
  clock.now += 121_000;
  await assert.rejects(client.get('https://s.example/v1/manifest'));
  assert.equal(calls.length, 2);
});

test('a refusal is typed with its status and code, and is not tried again', async () => {
  const { client, calls } = transport(() => ({ status: 404, body: { code: 'not_found', detail: 'No group x' } }));
  await assert.rejects(client.get('https://s.example/v1/groups/x'),
    (e) => e.kind === 'refused' && e.status === 404 && e.code === 'not_found' && e.message === 'No group x');
  assert.equal(calls.length, 1);
});

test('a 401 asks the page for a fresh token once', async () => {
  const asked = [];
  const token = async ({ refresh }) => (asked.push(refresh), refresh ? 'fresh' : 'stale');
  const { client, calls } = transport((url, init) =>
    init.headers.Authorization === 'Bearer fresh' ? { body: {} } : { status: 401, body: { code: 'invalid_token' } },
  { token });
  await client.get('https://s.example/v1/groups');
  assert.deepEqual(asked, [false, true]);
  assert.equal(calls.length, 2);
});

test('concurrent reads of one URL share one request; facts travel as headers', async () => {
  const { client, calls } = transport(() => ({ body: { n: 1 } }), { facts: { platform: 'web', installation: 'abcdefgh12' } });
  const [a, b] = await Promise.all([client.get('https://s.example/v1/groups'), client.get('https://s.example/v1/groups')]);
  assert.deepEqual(a.json, b.json);
  assert.equal(calls.length, 1);
  assert.equal(calls[0].init.headers['Sticker-Platform'], 'web');
  assert.equal(calls[0].init.headers['Sticker-Installation'], 'abcdefgh12');
});
