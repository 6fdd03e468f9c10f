// One group: its settings (names, description, size class, premium product, published, schedule), its audience, its
// stickers and uploads.
import { request } from './api.js';
import { h, field, list, localized, localizedText, confirmAction } from './dom.js';
import { stickerGrid } from './stickers.js';
import { uploader } from './upload.js';
import { status, failed } from './status.js';
import { localInput, moment } from './schedule.js';
import { audiencePanel } from './audience.js';

function settingsForm(group, reload) {
  const name = h('input', { name: 'name', required: true, maxlength: 100, value: group.name });
  const names = h('textarea', { name: 'localizedNames', rows: 3 });
  names.value = localizedText(group.localizedNames);
  const about = h('input', { name: 'description', maxlength: 300, value: group.description ?? '' });
  const abouts = h('textarea', { name: 'localizedDescriptions', rows: 3 });
  abouts.value = localizedText(group.localizedDescriptions ?? {});
  const flags = h('input', { name: 'flags', value: group.flags.join(', ') });
  const size = h('select', { name: 'sizeClass' },
    ...['small', 'medium', 'large'].map((s) => h('option', { value: s, selected: s === group.sizeClass }, s)));
  const product = h('input', { name: 'productId', value: group.productId ?? '', pattern: '[A-Za-z0-9._\\-]{1,100}', autocomplete: 'off' });
  const published = h('input', { type: 'checkbox', name: 'published', checked: group.published });
  const publishAt = h('input', { type: 'datetime-local', name: 'publishAt', step: 1, value: localInput(group.publishAt) });
  const unpublishAt = h('input', { type: 'datetime-local', name: 'unpublishAt', step: 1, value: localInput(group.unpublishAt) });
  const form = h('form', { class: 'card', 'aria-labelledby': 'settings-title' },
    h('h2', { id: 'settings-title' }, 'Settings'),
    h('div', { class: 'row' },
      field('Name', name),
      field('Size class', size, 'small 100 pt, medium 136 pt, large 206 pt'),
      field('Premium product id', product, 'Empty: free. Otherwise the App Store product that unlocks it.'),
      field('Flags', flags, 'Comma-separated; a flag on the group covers all its stickers.')),
    field('Translated names', names, 'One per line: fr = Croquant'),
    field('Description', about, 'A line under the name in an app\'s list of groups. Empty: none.'),
    field('Translated descriptions', abouts, 'One per line: fr = Des bonbons qui croquent'),
    h('label', { class: 'check' }, published, ' Published (clients see it)'),
    h('div', { class: 'row' },
      field('Appears at', publishAt, 'Your local time. Empty: as soon as it is published. Every client sees it within a second of the moment.'),
      field('Leaves at', unpublishAt, 'Empty: never. Must be after "Appears at".')),
    h('div', { class: 'actions' },
      h('button', { type: 'submit', class: 'primary' }, 'Save settings'),
      h('button', {
        type: 'button', class: 'danger',
        onclick: async () => {
          if (!await confirmAction(`Delete ${group.name} and its ${group.stickerCount} stickers? Clients drop them at their next sync.`)) return;
          try {
            await request('DELETE', `/v1/admin/groups/${group.id}`);
            status(`Deleted ${group.name}.`, 'ok');
            location.hash = '#/groups';
          } catch (error) { failed(error, 'Deleting the group'); }
        },
      }, 'Delete group')));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const patch = {
      name: name.value.trim(), localizedNames: localized(names.value), flags: list(flags.value),
      description: about.value.trim(), localizedDescriptions: localized(abouts.value),
      sizeClass: size.value, productId: product.value.trim() || null, published: published.checked,
    };
    // Only a moment the admin changed is sent: the field shows seconds, not the milliseconds the API may have set.
    if (publishAt.value !== localInput(group.publishAt)) patch.publishAt = moment(publishAt.value);
    if (unpublishAt.value !== localInput(group.unpublishAt)) patch.unpublishAt = moment(unpublishAt.value);
    try {
      await request('PATCH', `/v1/admin/groups/${group.id}`, patch);
      status(`Saved ${patch.name}.`, 'ok');
      await reload();
    } catch (error) { failed(error, 'Saving the group'); }
  });
  return form;
}

export async function render(main, { match }) {
  const id = match[1];
  let group;
  try { group = await request('GET', `/v1/admin/groups/${id}`); } catch (error) {
    main.append(h('h1', {}, 'Group not found'), h('p', {}, h('a', { href: '#/groups' }, 'All groups')));
    return failed(error, 'Loading the group');
  }
  const heading = h('h1', {}, group.name);
  const stickers = h('section', { 'aria-labelledby': 'stickers-title' });
  const drawStickers = async () => {
    group = await request('GET', `/v1/admin/groups/${id}`);
    heading.textContent = group.name;
    stickers.replaceChildren(
      h('h2', { id: 'stickers-title' }, `Stickers (${group.stickers.length})`),
      group.stickers.length ? stickerGrid(group, drawStickers) : h('p', {}, 'No stickers yet: add some below.'),
      h('p', { class: 'hint' }, 'Drag a sticker, or use its arrows, to change the order; pick the cover clients show for the group.'));
  };
  const redraw = async () => { main.replaceChildren(); await render(main, { match }); };
  await drawStickers();
  main.append(
    h('p', {}, h('a', { href: '#/groups' }, '← All groups'), ' · ',
      h('a', { href: `#/preview?group=${id}` }, 'Preview as a client')),
    heading, settingsForm(group, redraw), audiencePanel(group), stickers, uploader(id, drawStickers));
}
