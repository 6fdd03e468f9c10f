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

export async function render(main) {
  main.append(h('h1', {}, 'Groups'));
  let groups;
  try { groups = await allGroups(); } catch (error) { return failed(error, 'Loading groups'); }
  const list = h('ol', { class: 'group-list', 'aria-label': 'Groups in display order' });
  for (const group of groups) {
    const item = h('li', { draggable: 'true', dataset: { id: group.id } },
      h('span', { class: 'grip', 'aria-hidden': 'true' }, '⠿'),
      h('a', { href: `#/groups/${group.id}`, class: 'group-name' }, group.name),
      h('code', {}, group.id),
      badges(group));
    item.append(moveButtons(list, item, group.name, move));
    list.append(item);
  }
  reorderable(list, move);
  main.append(
    groups.length ? list : h('p', {}, 'No groups yet: create the first below.'),
    h('p', { class: 'hint' }, 'Drag a group, or use its arrows, to change the order clients see.'),
    createForm());
}
