// Preview: the manifest exactly as a client gets it, for any filter, size, scale, locale and format, anonymous or
// as a given user (their premium groups unlocked), with the real rendition images at their true pixel size.
import { manifest, request, search, suggestions } from './api.js';
import { h, field } from './dom.js';
import { failed } from './status.js';
import { localInput, moment } from './schedule.js';
import { callerInputs, callerText } from './caller-inputs.js';

function select(name, options, chosen) {
  return h('select', { name }, ...options.map(([value, label]) => h('option', { value, selected: value === chosen }, label)));
}

function picture(asset, alt) {
  // width and height are the picture's own pixels; CSS never scales these (.true-size).
  return h('img', { src: asset.url, alt, width: asset.width, height: asset.height, class: 'true-size' });
}

/** A group as a client shows it: cover, then stickers at their true pixel size. */
export function groupSection(group) {
  const count = group.locked ? `Locked: needs ${group.productId}` : `${group.stickers.length} sticker${group.stickers.length === 1 ? '' : 's'}`;
  return h('section', { class: group.locked ? 'preview-group locked' : 'preview-group', dataset: { group: group.id } },
    h('h2', {}, group.name, ' ', h('span', { class: group.locked ? 'badge premium' : 'badge' }, count),
      h('span', { class: 'badge' }, group.sizeClass)),
    h('ol', { class: 'preview-stickers', 'aria-label': `${group.name} as a client sees it` },
      group.cover ? h('li', { class: 'cover' }, picture(group.cover, `Cover of ${group.name}`),
        h('span', { class: 'caption' }, `Cover · ${group.cover.width} px`)) : null,
      ...group.stickers.map((sticker) => h('li', { dataset: { sticker: sticker.id } },
        picture(sticker.asset, sticker.description),
        h('span', { class: 'caption' }, `${sticker.name} · ${sticker.asset.width} px${sticker.asset.animated ? ' · animated' : ''}`)))));
}

/** Search results as a client's search box shows them, best first; locked ones with the product that unlocks them. */
function resultList(answer) {
  return h('ol', { class: 'preview-stickers search-results', 'aria-label': `Results for ${answer.query}` },
    ...answer.results.map((result) => h('li', { dataset: { sticker: result.id } },
      result.asset ? picture(result.asset, result.description) : h('span', { class: 'badge premium' }, `Locked: ${result.productId}`),
      h('span', { class: 'caption' }, `${result.name} · ${result.group.name}`))));
}

export async function render(main, { params }) {
  main.append(h('h1', {}, 'Preview'));
  let filters = [];
  try { filters = (await request('GET', '/v1/filters', undefined, { anonymous: true })).filters; } catch (error) { failed(error, 'Loading filters'); }
  const controls = {
    filter: select('filter', [['', 'None'], ...filters.map((f) => [f.name, f.title])], params.get('filter') ?? ''),
    flags: h('input', { name: 'flags', value: params.get('flags') ?? '' }),
    size: select('size', [['', "Each group's own"], ['small', 'small'], ['medium', 'medium'], ['large', 'large']], params.get('size') ?? ''),
    scale: select('scale', [['1', '@1x'], ['2', '@2x'], ['3', '@3x']], params.get('scale') ?? '3'),  // the API's default
    locale: h('input', { name: 'locale', value: params.get('locale') ?? '', placeholder: 'e.g. fr-CA' }),
    format: select('format', [['', 'PNG, animated where it moves'], ['png', 'Still PNG only'], ['webp', 'WebP, animated where it moves']], params.get('format') ?? ''),
    user: h('input', { name: 'user', value: params.get('user') ?? '', autocomplete: 'off' }),
    at: h('input', { name: 'at', type: 'datetime-local', value: localInput(params.get('at')) }),
    q: h('input', { name: 'q', type: 'search', value: params.get('q') ?? '', maxlength: 100, list: 'search-suggestions',
      placeholder: 'Word, prefix, typo or emoji', autocomplete: 'off' }),
  };
  const caller = callerInputs(params);
  const completions = h('datalist', { id: 'search-suggestions' });
  const form = h('form', { class: 'card', 'aria-labelledby': 'preview-options' },
    h('h2', { id: 'preview-options' }, 'As which client'),
    h('div', { class: 'row' }, field('Search', controls.q, 'Empty: the whole manifest. Words, a prefix, a typo or emoji: the stickers this view shows that match, best first (as an anonymous client).'),
      completions),
    h('div', { class: 'row' },
      field('Filter', controls.filter), field('Flags', controls.flags, 'Comma-separated, all required.'),
      field('Size', controls.size), field('Scale', controls.scale), field('Locale', controls.locale),
      field('Format', controls.format),
      field('As user', controls.user, 'Empty: anonymous. A user id: their premium groups unlock.'),
      field('At', controls.at, 'Empty: now. A moment (your local time): the catalog then, with what is scheduled now.')),
    h('fieldset', { class: 'caller' }, h('legend', {}, 'Who the client is'),
      h('p', { class: 'hint' }, 'For groups with an audience. Empty: unknown, and a group limited on it is not shown. ',
        'The manifest takes these; the search does not.'),
      h('div', { class: 'row' }, ...caller.fields)),

    h('button', { type: 'submit', class: 'primary' }, 'Show'));
  const result = h('div', { class: 'preview', 'aria-live': 'polite', id: 'preview-result' });
  const only = params.get('group');
  const show = async () => {
    const query = Object.fromEntries(['filter', 'flags', 'size', 'scale', 'locale', 'format'].map((k) => [k, controls[k].value.trim()]));
    const user = controls.user.value.trim();
    const q = controls.q.value.trim();
    try {
      if (q) {
        const answer = await search(q, query);
        result.replaceChildren(h('p', { class: 'summary' }, `Search "${answer.query}": revision ${answer.revision}, `,
          `${answer.total} result${answer.total === 1 ? '' : 's'}${answer.total > answer.results.length ? `, the first ${answer.results.length}` : ''}`,
          answer.locale ? `, texts in ${answer.locale}` : '', '.'), resultList(answer));
        return;
      }
      const at = moment(controls.at.value);
      const facts = caller.values();
      const answer = await manifest(query, user, at, facts);
      const groups = only ? answer.groups.filter((g) => g.id === only) : answer.groups;
      const stickers = groups.reduce((sum, g) => sum + g.stickers.length, 0);
      result.replaceChildren(
        h('p', { class: 'summary' }, `${user ? `As ${user}` : 'Anonymous'}${callerText(facts)}`,
          `${at ? ` at ${new Date(at).toLocaleString()}` : ''}: revision ${answer.revision}, `,
          `${groups.length} group${groups.length === 1 ? '' : 's'}, ${stickers} sticker${stickers === 1 ? '' : 's'}`,
          answer.locale ? `, texts in ${answer.locale}` : '', '.'),
        ...groups.map(groupSection));
      if (groups.length === 0) result.append(h('p', {}, 'Nothing is visible with these options.'));
    } catch (error) {
      result.replaceChildren();
      failed(error, 'The preview');
    }
  };
  form.addEventListener('submit', (event) => { event.preventDefault(); show(); });
  form.addEventListener('change', () => show());
  controls.q.addEventListener('input', async () => {
    const prefix = controls.q.value.trim();
    if (!prefix) return completions.replaceChildren();
    try {
      const answer = await suggestions(prefix, controls.locale.value.trim());
      // Answers to earlier keystrokes can arrive after later ones: only the one for what is typed now is shown.
      if (controls.q.value.trim() !== prefix) return;
      completions.replaceChildren(...answer.suggestions.map((text) => h('option', { value: text })));
    } catch { completions.replaceChildren(); }
  });
  main.append(form, result);
  await show();
}
