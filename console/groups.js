// Groups: every group in display order (drag or move to reorder: one call) with who sees it, and a form to create one.
import { request } from './api.js';
import { h, field } from './dom.js';
import { moveButtons, reorderable } from './reorder.js';
import { status, failed } from './status.js';
import { visibility } from './schedule.js';
import { description, restricted, summary } from './audience-text.js';

/** Every group, page after page, in display order. */
export async function allGroups() {
  const groups = [];
  let offset = 0;
  while (offset !== null) {
    const page = await request('GET', `/v1/admin/groups?limit=200&offset=${offset}`);
    groups.push(...page.groups);
    offset = page.nextOffset;
  }
  return groups;
}

function badges(group) {
  return h('span', { class: 'badges' },
    ((state) => h('span', { class: state.live ? 'badge ok' : 'badge' }, state.label))(visibility(group)),
    group.productId ? h('span', { class: 'badge premium' }, `Premium: ${group.productId}`) : null,
    h('span', { class: restricted(group.audience) ? 'badge audience' : 'badge', title: description(group.audience),
      dataset: { audience: '' } }, h('span', { class: 'visually-hidden' }, 'Who sees it: '), summary(group.audience)),
    h('span', { class: 'badge' }, group.sizeClass),
    h('span', { class: 'badge' }, `${group.stickerCount} sticker${group.stickerCount === 1 ? '' : 's'}`));
}

async function move(ids, id, index) {
  try {
    await request('PATCH', `/v1/admin/groups/${id}`, { position: index });
    status(`Moved ${id} to position ${index + 1}.`, 'ok');
  } catch (error) { failed(error, 'Moving the group'); }
}

function createForm() {
  const id = h('input', { name: 'id', required: true, pattern: '[a-z0-9]([a-z0-9\\-]{0,62}[a-z0-9])?', maxlength: 64, autocomplete: 'off' });
  const name = h('input', { name: 'name', required: true, maxlength: 100 });
  const size = h('select', { name: 'sizeClass' }, ...['small', 'medium', 'large'].map((s) => h('option', { value: s, selected: s === 'medium' }, s)));
  const product = h('input', { name: 'productId', pattern: '[A-Za-z0-9._\\-]{1,100}', autocomplete: 'off' });
  const published = h('input', { type: 'checkbox', name: 'published', checked: true });
  const form = h('form', { class: 'card', 'aria-labelledby': 'new-group' },
    h('h2', { id: 'new-group' }, 'New group'),
    h('div', { class: 'row' },
      field('Id', id, 'Lowercase letters, digits and dashes; part of URLs, cannot change.'),
      field('Name', name),
      field('Size class', size, 'small 100 pt, medium 136 pt, large 206 pt'),
      field('Premium product id', product, 'Empty: free for everyone.')),
    h('label', { class: 'check' }, published, ' Published (clients see it)'),
    h('button', { type: 'submit', class: 'primary' }, 'Create group'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const draft = { id: id.value, name: name.value, sizeClass: size.value, published: published.checked };
    if (product.value) draft.productId = product.value;
    try {
      await request('POST', '/v1/admin/groups', draft);
      status(`Created ${draft.name}.`, 'ok');
      location.hash = `#/groups/${draft.id}`;
    } catch (error) { failed(error, 'Creating the group'); }
  });
  return form;
}

/** Groups a page shows: 2,000 list items with their badges and buttons took Chromium seconds to lay out. */
const PAGE = 100;

/** Text as the filter compares it: lowercase, without accents. */
const fold = (text) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

function listItem(list, group, reorder) {
  const item = h('li', { draggable: reorder ? 'true' : 'false', dataset: { id: group.id } },
    h('span', { class: 'grip', 'aria-hidden': 'true' }, reorder ? '⠿' : ''),
    h('a', { href: `#/groups/${group.id}`, class: 'group-name' }, group.name),
    h('code', {}, group.id),
    group.description ? h('span', { class: 'group-about' }, group.description) : null,
    badges(group));
  if (reorder) item.append(moveButtons(list, item, group.name, reorder));
  return item;
}

export async function render(main) {
  main.append(h('h1', {}, 'Groups'));
  // The first 200 groups are drawn as soon as they come; the rest load behind them, so the first page shows as fast
  // for 2,000 groups as for 20.
  let groups, offset;
  try {
    ({ groups, nextOffset: offset } = await request('GET', '/v1/admin/groups?limit=200&offset=0'));
  } catch (error) { return failed(error, 'Loading groups'); }
  if (!groups.length) return main.append(h('p', {}, 'No groups yet: create the first below.'), createForm());
  const list = h('ol', { class: 'group-list', 'aria-label': 'Groups in display order' });
  const filter = h('input', { id: 'group-filter', type: 'search', autocomplete: 'off',
    placeholder: 'Filter by name or id', 'aria-label': 'Filter groups by name or id' });
  const pager = h('nav', { class: 'pager', 'aria-label': 'Pages of groups' });
  const hint = h('p', { class: 'hint' });
  let page = 0;
  // A move within the page shown: its place in the whole order is the page's start plus its place on the page.
  const reorder = (ids, id, index) => {
    const at = page * PAGE + index;
    groups.splice(at, 0, ...groups.splice(groups.findIndex((group) => group.id === id), 1));
    return move(ids, id, at);
  };
  const matching = () => {
    const query = fold(filter.value.trim());
    return query ? groups.filter((g) => fold(g.name).includes(query) || g.id.includes(query)) : groups;
  };
  const drawPager = (shown) => {
    const pages = Math.max(1, Math.ceil(shown.length / PAGE));
    const start = page * PAGE;
    const turn = (step, label) => h('button', { type: 'button', disabled: page + step < 0 || page + step >= pages,
      onclick: () => { page += step; draw(); list.scrollIntoView({ block: 'start' }); } }, label);
    pager.replaceChildren(turn(-1, '← Previous'),
      h('span', { id: 'group-range', 'aria-live': 'polite' }, shown.length
        ? `${start + 1}–${Math.min(start + PAGE, shown.length)} of ${shown.length}${offset === null ? '' : '…'}`
        : 'No group matches.'),
      turn(1, 'Next →'));
  };
  const draw = () => {
    const query = filter.value.trim();
    const shown = matching();
    page = Math.min(page, Math.max(0, Math.ceil(shown.length / PAGE) - 1));
    list.replaceChildren(
      ...shown.slice(page * PAGE, (page + 1) * PAGE).map((g) => listItem(list, g, query ? null : reorder)));
    drawPager(shown);
    hint.textContent = query ? 'Clear the filter to reorder groups.'
      : 'Drag a group, or use its arrows, to change the order clients see; a group\'s own page sets any position.';
  };
  filter.addEventListener('input', () => { page = 0; draw(); });
  reorderable(list, (ids, id, index) => reorder(ids, id, index));
  draw();
  main.append(filter, list, pager, hint, createForm());
  try {
    while (offset !== null && list.isConnected) {
      const more = await request('GET', `/v1/admin/groups?limit=200&offset=${offset}`);
      groups.push(...more.groups);
      offset = more.nextOffset;
      // The page shown stays as it is (a drag in progress, the focus); only a filter's matches and the count move.
      if (filter.value.trim()) draw(); else drawPager(matching());
    }
  } catch (error) { failed(error, 'Loading the rest of the groups'); }
}
