// Webhook deliveries: the inbox and the quarantine (refused deliveries kept for replay), newest first; show one
// with its raw body, and replay it with today's configuration.
import { request } from './api.js';
import { h, field } from './dom.js';
import { status, failed } from './status.js';

const statuses = ['received', 'applied', 'stale', 'ignored', 'orphaned', 'conflict', 'malformed', 'unauthorized', 'rejected'];
const quarantined = new Set(['conflict', 'malformed', 'unauthorized', 'rejected']);

async function showDelivery(id, into) {
  try {
    const event = await request('GET', `/v1/admin/webhook-events/${id}`);
    into.replaceChildren(h('h2', { id: 'delivery-title' }, `Delivery ${event.id}`),
      h('dl', {}, ...[['Source', `${event.source} (${event.environment})`], ['Event id', event.eventId ?? ''], ['Status', event.status],
        ['Detail', event.detail ?? ''], ['Received', new Date(event.receivedAt).toLocaleString()], ['Bytes', String(event.bytes)]]
        .flatMap(([term, value]) => [h('dt', {}, term), h('dd', {}, value)])),
      h('pre', { tabindex: '0', 'aria-label': 'Raw body' }, event.body ?? ''));
    into.querySelector('h2').setAttribute('tabindex', '-1');
    into.querySelector('h2').focus();
  } catch (error) { failed(error, 'Loading the delivery'); }
}

export async function render(main, { params }) {
  main.append(h('h1', {}, 'Webhook deliveries'));
  const filter = h('select', { name: 'status' }, h('option', { value: '' }, 'All'),
    ...statuses.map((s) => h('option', { value: s, selected: params.get('status') === s }, quarantined.has(s) ? `${s} (quarantine)` : s)));
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'Older deliveries');
  const detail = h('section', { class: 'card', 'aria-live': 'polite', id: 'delivery' });
  let before = null;
  const row = (event) => h('tr', { dataset: { delivery: event.id } },
    h('th', { scope: 'row' }, String(event.id)), h('td', {}, new Date(event.receivedAt).toLocaleString()),
    h('td', {}, event.source), h('td', {}, h('span', { class: event.quarantined ? 'badge premium' : 'badge' }, event.status)),
    h('td', {}, event.detail ?? ''),
    h('td', { class: 'actions' },
      h('button', { type: 'button', 'aria-label': `Show delivery ${event.id}`, onclick: () => showDelivery(event.id, detail) }, 'Show'),
      h('button', {
        type: 'button', 'aria-label': `Replay delivery ${event.id}`,
        onclick: async () => {
          try {
            const result = await request('POST', `/v1/admin/webhook-events/${event.id}/replay`);
            status(`Replayed delivery ${event.id}: ${result.status}.`, 'ok');
            await reload();
          } catch (error) { failed(error, `Replaying delivery ${event.id}`); }
        },
      }, 'Replay')));
  const load = async () => {
    const query = new URLSearchParams({ limit: '50' });
    if (filter.value) query.set('status', filter.value);
    if (before) query.set('before', String(before));
    const page = await request('GET', `/v1/admin/webhook-events?${query}`);
    body.append(...page.events.map(row));
    before = page.nextBefore ?? null;
    more.hidden = before === null;
    if (body.children.length === 0) body.append(h('tr', {}, h('td', { colspan: 6 }, 'No deliveries.')));
  };
  const reload = async () => { body.replaceChildren(); before = null; await load().catch((error) => failed(error, 'Loading deliveries')); };
  filter.addEventListener('change', reload);
  more.addEventListener('click', () => load().catch((error) => failed(error, 'Loading deliveries')));
  main.append(h('div', { class: 'card' }, field('Status', filter, 'Quarantine: refused deliveries kept for replay.')),
    h('table', {}, h('caption', {}, 'Deliveries, newest first'),
      h('thead', {}, h('tr', {}, ...['Id', 'Received', 'Source', 'Status', 'Detail', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))), body),
    more, detail);
  await reload();
  if (params.get('show')) await showDelivery(params.get('show'), detail);
}
