// Purchases: look a user up, see what they hold and why (every transaction, the audit trail), grant and revoke.
import { request } from './api.js';
import { h, field, confirmAction } from './dom.js';
import { status, failed } from './status.js';

const date = (text) => (text ? new Date(text).toLocaleString() : '');

function entitlementTable(user, list, redraw) {
  if (list.entitlements.length === 0) return h('p', {}, `${user} holds no product.`);
  return h('table', {}, h('caption', {}, `What ${user} holds`),
    h('thead', {}, h('tr', {}, ...['Product', 'Until', 'Granted by', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...list.entitlements.map((e) => h('tr', { dataset: { product: e.productId } },
      h('th', { scope: 'row' }, h('code', {}, e.productId)), h('td', {}, e.expiresAt ? date(e.expiresAt) : 'No end'),
      h('td', {}, e.grantedBy.map((t) => `${t.source} ${t.transactionId}`).join(', ')),
      h('td', {}, h('button', {
        type: 'button', class: 'danger', 'aria-label': `Revoke ${e.productId}`,
        onclick: async () => {
          if (!await confirmAction(`Revoke ${e.productId} from ${user}? Their premium stickers lock at their next sync.`, 'Revoke')) return;
          try {
            await request('DELETE', `/v1/admin/users/${encodeURIComponent(user)}/entitlements/${encodeURIComponent(e.productId)}`);
            status(`Revoked ${e.productId} from ${user}.`, 'ok');
            await redraw();
          } catch (error) { failed(error, 'Revoking'); }
        },
      }, 'Revoke'))))));
}

function transactionTable(list) {
  const transactions = list.transactions ?? [];
  if (transactions.length === 0) return null;
  return h('table', {}, h('caption', {}, 'Every transaction'),
    h('thead', {}, h('tr', {}, ...['Source', 'Transaction', 'Product', 'Bought', 'Ends', 'Revoked', 'Active'].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...transactions.map((t) => h('tr', {},
      h('td', {}, `${t.source} (${t.environment})`), h('td', {}, t.transactionId), h('td', {}, t.productId),
      h('td', {}, date(t.purchasedAt)), h('td', {}, date(t.expiresAt)), h('td', {}, date(t.revokedAt)), h('td', {}, t.active ? 'yes' : 'no')))));
}

function grantForm(user, redraw) {
  const product = h('input', { name: 'productId', required: true, pattern: '[A-Za-z0-9._\\-]{1,100}', autocomplete: 'off' });
  const until = h('input', { type: 'datetime-local', name: 'expiresAt' });
  const form = h('form', { class: 'card', 'aria-labelledby': 'grant-title' },
    h('h2', { id: 'grant-title' }, `Grant ${user} a product`),
    h('div', { class: 'row' }, field('Product id', product), field('Until', until, 'Empty: no end.')),
    h('button', { type: 'submit', class: 'primary' }, 'Grant'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { productId: product.value.trim() };
    if (until.value) body.expiresAt = new Date(until.value).toISOString();
    try {
      await request('POST', `/v1/admin/users/${encodeURIComponent(user)}/entitlements`, body);
      status(`Granted ${body.productId} to ${user}.`, 'ok');
      await redraw();
    } catch (error) { failed(error, 'Granting'); }
  });
  return form;
}

async function auditSection(user) {
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'Older entries');
  let before = null;
  const load = async () => {
    const page = await request('GET', `/v1/admin/users/${encodeURIComponent(user)}/audit?limit=50${before ? `&before=${before}` : ''}`);
    body.append(...page.entries.map((e) => h('tr', {},
      h('td', {}, date(e.at)), h('td', {}, e.action), h('td', {}, e.productId ?? ''), h('td', {}, e.source),
      h('td', {}, e.webhookEventId ? h('a', { href: `#/webhooks?show=${e.webhookEventId}` }, `delivery ${e.webhookEventId}`) : 'admin'),
      h('td', {}, e.detail ?? ''))));
    before = page.nextBefore ?? null;
    more.hidden = before === null;
  };
  more.addEventListener('click', () => load().catch((error) => failed(error, 'Loading the audit')));
  await load();
  return h('section', { 'aria-labelledby': 'audit-title' }, h('h2', { id: 'audit-title' }, 'Audit trail, newest first'),
    h('table', {}, h('thead', {}, h('tr', {}, ...['When', 'Action', 'Product', 'Source', 'Cause', 'Detail'].map((t) => h('th', { scope: 'col' }, t)))), body),
    more);
}

export async function render(main, { params }) {
  main.append(h('h1', {}, 'Purchases'));
  const userInput = h('input', { name: 'user', required: true, maxlength: 255, autocomplete: 'off', value: params.get('user') ?? '' });
  const lookup = h('form', { class: 'card', role: 'search', 'aria-label': 'Look a user up' },
    field('User id', userInput, "The 'sub' of the user's token."), h('button', { type: 'submit', class: 'primary' }, 'Look up'));
  const area = h('div', { id: 'user-area' });
  const draw = async () => {
    const user = userInput.value.trim();
    if (!user) return;
    try {
      const list = await request('GET', `/v1/admin/users/${encodeURIComponent(user)}/entitlements`);
      area.replaceChildren(
        h('h2', {}, `User ${user}`),
        h('p', {}, h('a', { href: `#/preview?user=${encodeURIComponent(user)}` }, `Preview the catalog as ${user}`)),
        entitlementTable(user, list, draw), transactionTable(list), grantForm(user, draw), await auditSection(user));
    } catch (error) { area.replaceChildren(); failed(error, 'Looking the user up'); }
  };
  lookup.addEventListener('submit', (event) => { event.preventDefault(); draw(); });
  main.append(lookup, area);
  await draw();
}
