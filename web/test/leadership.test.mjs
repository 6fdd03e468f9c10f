import assert from 'node:assert/strict';
import test from 'node:test';
import { Leadership } from '../stickers.js';
import { Bus, Clock } from './support.mjs';

let elected = 0; // how many times any tab became leader: each is an event stream opened
function tabs(count, bus, clock, first = 0) {
  return Array.from({ length: count }, (_, i) => new Leadership({
    channel: bus.channel(), id: `tab-${String(first + i).padStart(2, '0')}`, setTimer: clock.setTimer,
    clearTimer: clock.clearTimer, onChange: (leader) => (elected += leader ? 1 : 0),
  }));
}
const leaders = (all) => all.filter((t) => t.leader).map((t) => t.id);

test('ten tabs opened at once elect one leader within three beats, and keep one', async () => {
  const bus = new Bus();
  const clock = new Clock();
  elected = 0;
  const all = tabs(10, bus, clock);
  all.forEach((t) => t.start());
  await clock.advance(3000);
  assert.equal(leaders(all).length, 1);
  assert.equal(elected, 1, 'no tab led for a moment and stepped down: each would have opened a stream');
  const first = leaders(all)[0];
  await clock.advance(20_000);
  assert.deepEqual(leaders(all), [first], 'no second leader, no change of leader');
});

test('a tab opened later follows the leader it hears', async () => {
  const bus = new Bus();
  const clock = new Clock();
  const all = tabs(3, bus, clock, 5);
  all.forEach((t) => t.start());
  await clock.advance(3000);
  const late = tabs(1, bus, clock, 0)[0]; // the lowest id, which would win a contest
  late.start();
  await clock.advance(10_000);
  assert.equal(late.leader, false);
  assert.equal(leaders([...all, late]).length, 1);
});

test('when the leader closes, another tab takes over within two beats', async () => {
  const bus = new Bus();
  const clock = new Clock();
  const all = tabs(4, bus, clock);
  all.forEach((t) => t.start());
  await clock.advance(3000);
  const leader = all.find((t) => t.leader);
  leader.stop();
  const rest = all.filter((t) => t !== leader);
  await clock.advance(2000);
  assert.equal(leaders(rest).length, 1);
});

test('a leader that vanishes without a word (a crashed tab) is replaced after its silence', async () => {
  const bus = new Bus();
  const clock = new Clock();
  const all = tabs(3, bus, clock);
  all.forEach((t) => t.start());
  await clock.advance(3000);
  const leader = all.find((t) => t.leader);
  // Its channel goes quiet and its timers stop, as a killed process's would.
  for (const timer of leader.timers) clock.clearTimer(timer);
  leader.channel.close();
  await clock.advance(6000);
  assert.equal(leaders(all.filter((t) => t !== leader)).length, 1);
});

test('two leaders (a partition healed) settle on one', async () => {
  const clock = new Clock();
  const [left, right] = [new Bus(), new Bus()];
  const a = tabs(1, left, clock, 1)[0];
  const b = tabs(1, right, clock, 2)[0];
  a.start();
  b.start();
  await clock.advance(3000);
  assert.ok(a.leader && b.leader);
  // Join them: b's channel now hears a's.
  const bridge = left.channel();
  bridge.addEventListener('message', (m) => b.channel.deliver(m.data));
  b.channel.postMessage = (data) => a.channel.deliver(data);
  await clock.advance(3000);
  assert.deepEqual(leaders([a, b]), ['tab-01']);
});
