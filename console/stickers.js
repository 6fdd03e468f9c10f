// A group's stickers: pictures in order (drag or move to reorder: one call), cover choice, edit and delete.
import { request } from './api.js';
import { h, confirmAction } from './dom.js';
import { moveButtons, reorderable } from './reorder.js';
import { stickerFields } from './sticker-fields.js';
import { status, failed } from './status.js';

/** The smallest still rendition: a thumbnail that loads fast (the uploaded image when there is none). */
export function thumbnail(sticker) {
  const stills = sticker.renditions.filter((r) => r.still).sort((a, b) => a.edge - b.edge);
  return stills[0]?.asset ?? sticker.asset;
}

function editDialog(sticker, reload) {
  const fields = stickerFields(sticker);
  const form = h('form', { method: 'dialog' },
    h('h2', { id: 'edit-title' }, `Edit ${sticker.name}`),
    fields.element,
    h('div', { class: 'actions' },
      h('button', { type: 'button', onclick: () => dialog.close() }, 'Cancel'),
      h('button', { type: 'submit', class: 'primary' }, 'Save')));
  const dialog = h('dialog', { class: 'editor', 'aria-labelledby': 'edit-title' }, form);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    try {
      await request('PATCH', `/v1/admin/stickers/${sticker.id}`, fields.values());
      dialog.close();
      status(`Saved ${fields.values().name}.`, 'ok');
      await reload();
    } catch (error) { failed(error, 'Saving the sticker'); }
  });
  dialog.addEventListener('close', () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
}

/** The sticker grid of `group` (an admin group with its stickers); `reload()` redraws the page after a change. */
export function stickerGrid(group, reload) {
  const coverId = group.coverStickerId ?? group.stickers[0]?.id;
  const grid = h('ol', { class: 'sticker-grid', dataset: { axis: 'x' }, 'aria-label': `Stickers of ${group.name} in order` });
  const reorder = async (ids) => {
    try {
      await request('PUT', `/v1/admin/groups/${group.id}/order`, { stickerIds: ids });
      status('Sticker order saved.', 'ok');
    } catch (error) { failed(error, 'Reordering'); await reload(); }
  };
  for (const sticker of group.stickers) {
    const picture = thumbnail(sticker);
    const cover = h('input', { type: 'radio', name: 'cover', value: sticker.id, checked: sticker.id === coverId });
    cover.addEventListener('change', async () => {
      try {
        await request('PATCH', `/v1/admin/groups/${group.id}`, { coverStickerId: sticker.id });
        status(`${sticker.name} is the cover of ${group.name}.`, 'ok');
      } catch (error) { failed(error, 'Choosing the cover'); }
    });
    const card = h('li', { class: 'sticker-card', draggable: 'true', dataset: { id: sticker.id } },
      h('img', { src: picture.url, alt: sticker.description, width: 100, height: 100, loading: 'lazy', draggable: 'false' }),
      h('p', { class: 'sticker-name' }, sticker.name, sticker.animated ? h('span', { class: 'badge' }, `Animated, ${sticker.frames} frames`) : null),
      h('p', { class: 'emoji' }, sticker.emoji.join(' ')),
      h('label', { class: 'check' }, cover, ` Cover`),
      h('div', { class: 'card-actions' },
        h('button', { type: 'button', 'aria-label': `Edit ${sticker.name}`, onclick: () => editDialog(sticker, reload) }, 'Edit'),
        h('button', {
          type: 'button', class: 'danger', 'aria-label': `Delete ${sticker.name}`,
          onclick: async () => {
            if (!await confirmAction(`Delete ${sticker.name}? Clients drop it at their next sync.`)) return;
            try {
              await request('DELETE', `/v1/admin/stickers/${sticker.id}`);
              status(`Deleted ${sticker.name}.`, 'ok');
              await reload();
            } catch (error) { failed(error, 'Deleting'); }
          },
        }, 'Delete')));
    card.querySelector('.card-actions').prepend(moveButtons(grid, card, sticker.name, reorder));
    cover.setAttribute('aria-label', `Use ${sticker.name} as the cover`);
    grid.append(card);
  }
  reorderable(grid, reorder);
  return grid;
}
