// Releases: every visible change, newest first, with who made it and what it changed; a preview of the catalog as
// each left it; and restore, after a confirmation that says what the restore will change.
import { request } from './api.js';
import { h, confirmAction } from './dom.js';
import { status, failed } from './status.js';
import { groupSection } from './preview.js';

const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A release's summary in words: "Added groups: christmas · 3 stickers changed · Filter changed: chocoholic". */
export function describe(summary) {
  if (!summary) return 'History starts here (what came before is forgotten)';
  const parts = [];
  const { groups, stickers, filters } = summary;
  if (groups.added.length) parts.push(`Groups added: ${groups.added.join(', ')}`);
  if (groups.removed.length) parts.push(`Groups removed: ${groups.removed.join(', ')}`);
  if (groups.changed.length) parts.push(`Groups changed: ${groups.changed.join(', ')}`);
  if (groups.reordered) parts.push('Groups reordered');
  if (stickers.added) parts.push(`${plural(stickers.added, 'sticker')} added`);
  if (stickers.changed) parts.push(`${plural(stickers.changed, 'sticker')} changed`);
  if (stickers.removed) parts.push(`${plural(stickers.removed, 'sticker')} removed`);
  if (stickers.reorderedIn.length) parts.push(`Stickers reordered in ${stickers.reorderedIn.join(', ')}`);
  for (const [kind, names] of [['added', filters.added], ['changed', filters.changed], ['removed', filters.removed]]) {
    if (names.length) parts.push(`Filters ${kind}: ${names.join(', ')}`);
  }
  return parts.length ? parts.join(' · ') : 'Pictures re-rendered (nothing else clients see)';
}

/** What going from manifest `now` to manifest `then` changes, in words, for the confirmation. */
export function difference(now, then) {
  const before = new Map(now.groups.map((g) => [g.id, g]));
  const after = new Map(then.groups.map((g) => [g.id, g]));
  const back = then.groups.filter((g) => !before.has(g.id)).map((g) => g.name);
  const gone = now.groups.filter((g) => !after.has(g.id)).map((g) => g.name);
  const changed = [];
  for (const group of then.groups) {
    const current = before.get(group.id);
    if (!current) continue;
    const ids = new Set(current.stickers.map((s) => s.id));
    const added = group.stickers.filter((s) => !ids.has(s.id)).length;
    const removed = current.stickers.length - (group.stickers.length - added);
    if (JSON.stringify(current) !== JSON.stringify(group)) {
      const name = current.name === group.name ? group.name : `${current.name} → ${group.name}`;
      changed.push(`${name}${added || removed ? ` (+${added} −${removed} stickers)` : ''}`);
    }
  }
  const lines = [];
  if (back.length) lines.push(`Groups that come back: ${back.join(', ')}.`);
  if (gone.length) lines.push(`Groups that go: ${gone.join(', ')}.`);
  if (changed.length) lines.push(`Groups that change: ${changed.join(', ')}.`);
  const order = (m) => m.groups.map((g) => g.id).filter((id) => before.has(id) && after.has(id)).join();
  if (order(now) !== order(then)) lines.push('The order of groups changes.');
  lines.push('Drafts, scheduled groups and stickers, and filters also become what they were then (drafts made since are deleted).');
  return lines.join(' ');
}

export async function render(main) {
  main.append(h('h1', {}, 'Releases'),
    h('p', {}, 'Every change clients see is a release. Restoring one makes groups, stickers, their order, covers, flags, ',
      'filters, translations, schedules and premium products what they were then, as a new release that can be undone. ',
      'Purchases are never rolled back.'));
  const body = h('tbody');
  const more = h('button', { type: 'button', hidden: true }, 'Older releases');
  const detail = h('section', { class: 'card preview', 'aria-live': 'polite', id: 'release-preview' });
  let before = null;
  let current = null;
  const preview = async (revision) => {
    try {
      const manifest = await request('GET', `/v1/admin/releases/${revision}/manifest?scale=1&size=small`);
      detail.replaceChildren(h('h2', { id: 'release-preview-title', tabindex: '-1' }, `The catalog at release ${revision}`),
        h('p', { class: 'summary' }, `${plural(manifest.groups.length, 'group')}, `,
          plural(manifest.groups.reduce((n, g) => n + g.stickers.length, 0), 'sticker'), ' (small, @1x).'),
        ...manifest.groups.map(groupSection));
      detail.querySelector('h2').focus();
    } catch (error) { failed(error, `Loading release ${revision}`); }
  };
  const restore = async (revision) => {
    try {
      const [now, then] = await Promise.all([request('GET', '/v1/admin/manifest?scale=1&size=small'),
        request('GET', `/v1/admin/releases/${revision}/manifest?scale=1&size=small`)]);
      if (!await confirmAction(`Restore release ${revision}? ${difference(now, then)}`, 'Restore')) return;
      // A restore rewrites the whole catalog alone: say so while it runs, and offer no second one meanwhile.
      status(`Restoring release ${revision}… other changes to the catalog wait until it is done.`, 'info');
      for (const button of document.querySelectorAll('button.danger')) button.disabled = true;
      const result = await request('POST', `/v1/admin/releases/${revision}/restore`);
      status(result.changed ? `Restored release ${revision}: the catalog is now at revision ${result.revision}.`
        : `Release ${revision} is what the catalog already holds: nothing changed.`, 'ok');
      await reload();
    } catch (error) {
      failed(error, `Restoring release ${revision}`);
      for (const button of document.querySelectorAll('button.danger')) button.disabled = false;
    }
  };
  const row = (release) => h('tr', { dataset: { release: release.revision } },
    h('th', { scope: 'row' }, String(release.revision), release.revision === current ? h('span', { class: 'badge' }, 'current') : null),
    h('td', {}, new Date(release.releasedAt).toLocaleString()),
    h('td', {}, release.author),
    h('td', {}, release.restoredFrom ? `Restore of release ${release.restoredFrom}: ` : '', describe(release.summary)),
    h('td', { class: 'actions' },
      h('button', { type: 'button', 'aria-label': `Preview release ${release.revision}`, onclick: () => preview(release.revision) }, 'Preview'),
      release.revision === current ? null
        : h('button', { type: 'button', class: 'danger', 'aria-label': `Restore release ${release.revision}`,
          onclick: () => restore(release.revision) }, 'Restore')));
  const load = async () => {
    const query = new URLSearchParams({ limit: '50' });
    if (before) query.set('before', String(before));
    const page = await request('GET', `/v1/admin/releases?${query}`);
    if (current === null) current = page.releases[0]?.revision ?? null;
    body.append(...page.releases.map(row));
    before = page.nextBefore ?? null;
    more.hidden = before === null;
    if (body.children.length === 0) body.append(h('tr', {}, h('td', { colspan: 5 }, 'No releases kept.')));
  };
  const reload = async () => {
    body.replaceChildren(); before = null; current = null;
    await load().catch((error) => failed(error, 'Loading releases'));
  };
  more.addEventListener('click', () => load().catch((error) => failed(error, 'Loading releases')));
  main.append(h('table', {}, h('caption', {}, 'Releases, newest first'),
    h('thead', {}, h('tr', {}, ...['Revision', 'When', 'By', 'What changed', 'Actions'].map((t) => h('th', { scope: 'col' }, t)))), body),
  more, detail);
  await reload();
}
