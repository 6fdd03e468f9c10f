// Filters: modes like "chocoholic" that clients pass as ?filter=. The flags typed show their effect at once, before
// saving: the stickers a client would get.
import { manifest, request } from './api.js';
import { h, field, list, confirmAction } from './dom.js';
import { status, failed } from './status.js';

/** What `flags` select: groups, stickers and small thumbnails, from the anonymous manifest. */
async function effect(flags, into) {
  if (flags.length === 0) return into.replaceChildren(h('p', {}, 'Type flags to see what they select.'));
  try {
    const answer = await manifest({ flags: flags.join(','), size: 'small', scale: '1', format: 'png' });
    const stickers = answer.groups.flatMap((g) => g.stickers);
    into.replaceChildren(
      h('p', { class: 'summary' }, `Selects ${stickers.length} sticker${stickers.length === 1 ? '' : 's'} in `,
        `${answer.groups.length} group${answer.groups.length === 1 ? '' : 's'}: `,
        answer.groups.map((g) => g.name).join(', ') || 'none'),
      h('div', { class: 'thumbs' }, ...stickers.slice(0, 48).map((s) =>
        h('img', { src: s.thumbnail.url, alt: s.description, width: s.thumbnail.width, height: s.thumbnail.height, class: 'true-size' }))));
  } catch (error) {
    into.replaceChildren(h('p', { class: 'error' }, error.problem?.detail ?? error.message));
  }
}

function editor(existing, reload) {
  const name = h('input', { name: 'name', required: true, pattern: '[a-z0-9]([a-z0-9\\-]{0,62}[a-z0-9])?', value: existing?.name ?? '', readonly: Boolean(existing) });
  const title = h('input', { name: 'title', maxlength: 100, value: existing?.title ?? '' });
  const flags = h('input', { name: 'flags', required: true, value: (existing?.flags ?? []).join(', ') });
  const shown = h('div', { class: 'effect', 'aria-live': 'polite', id: 'filter-effect' });
  let timer;
  flags.addEventListener('input', () => { clearTimeout(timer); timer = setTimeout(() => effect(list(flags.value), shown), 250); });
  const form = h('form', { class: 'card', 'aria-labelledby': 'filter-title' },
    h('h2', { id: 'filter-title' }, existing ? `Edit ${existing.name}` : 'New filter'),
    h('div', { class: 'row' },
      field('Name', name, 'What clients pass as ?filter=; lowercase letters, digits and dashes.'),
      field('Title', title, 'Shown to people; empty: the name.'),
      field('Flags', flags, 'Comma-separated; a sticker must carry every one (on itself or its group).')),
    h('button', { type: 'submit', class: 'primary' }, 'Save filter'),
    h('h3', {}, 'Effect'), shown);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await request('PUT', `/v1/admin/filters/${name.value}`, { title: title.value.trim() || null, flags: list(flags.value) });
      status(`Saved the filter ${name.value}.`, 'ok');
      await reload();
    } catch (error) { failed(error, 'Saving the filter'); }
  });
  effect(list(flags.value), shown);
  return form;
}

export async function render(main) {
  main.append(h('h1', {}, 'Filters'));
  const area = h('div');
  const draw = async (editing) => {
    let filters;
    try { filters = (await request('GET', '/v1/filters', undefined, { anonymous: true })).filters; } catch (error) { return failed(error, 'Loading filters'); }
    const rows = filters.map((filter) => h('tr', {},
      h('th', { scope: 'row' }, h('code', {}, filter.name)), h('td', {}, filter.title), h('td', {}, filter.flags.join(', ')),
      h('td', { class: 'actions' },
        h('a', { href: `#/preview?filter=${filter.name}` }, `Preview ${filter.name}`),
        h('button', { type: 'button', onclick: () => draw(filter), 'aria-label': `Edit ${filter.name}` }, 'Edit'),
        h('button', {
          type: 'button', class: 'danger', 'aria-label': `Delete ${filter.name}`,
          onclick: async () => {
            if (!await confirmAction(`Delete the filter ${filter.name}? Clients asking for it get 404.`)) return;
            try { await request('DELETE', `/v1/admin/filters/${filter.name}`); status(`Deleted ${filter.name}.`, 'ok'); await draw(); } catch (error) { failed(error, 'Deleting the filter'); }
          },
        }, 'Delete'))));
    area.replaceChildren(
      filters.length
        ? h('table', {}, h('caption', {}, 'Filters clients may use'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Name'), h('th', { scope: 'col' }, 'Title'), h('th', { scope: 'col' }, 'Flags'), h('th', { scope: 'col' }, 'Actions'))),
          h('tbody', {}, ...rows))
        : h('p', {}, 'No filters yet.'),
      editing ? h('p', {}, h('button', { type: 'button', onclick: () => draw() }, 'New filter instead')) : null,
      editor(editing, () => draw()));
  };
  main.append(area);
  await draw();
}
