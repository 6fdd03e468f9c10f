// Exports: the catalog as WhatsApp, Telegram or Signal packs, or Xcode's Stickers.xcstickers, downloaded as a zip
// (GET /v1/admin/exports/{platform}); its report.json lists every sticker's bytes and PSNR and every refusal.
import { download, request } from './api.js';
import { allGroups } from './groups.js';
import { h, field } from './dom.js';
import { status, failed } from './status.js';
import { callerInputs } from './caller-inputs.js';
import { restricted, summary } from './audience-text.js';

const platforms = [
  ['whatsapp', 'WhatsApp', 'contents.json and a folder per pack: 512 x 512 WebPs, a tray icon, 3 to 30 stickers, 1 to 3 emoji each.'],
  ['telegram', 'Telegram', 'A folder per set with set.json, the Bot API calls: one side 512 px, a thumbnail; animations go still.'],
  ['signal', 'Signal', 'A folder per pack with manifest.json: 512 x 512 pictures, APNGs that loop forever, a cover, one emoji each.'],
  ['xcstickers', 'iMessage (Xcode)', 'Stickers.xcstickers for an iMessage app, the @3x pictures of the view.'],
];

export async function render(main) {
  main.append(h('h1', {}, 'Export'),
    h('p', {}, 'Take the catalog to another sticker platform. Each pack is what that platform accepts; groups are split or ',
      'fitted, a sticker that cannot be is refused with its reason (see report.json in the zip). Premium groups stay out.'));
  let groups = [], filters = [];
  try {
    [groups, filters] = await Promise.all([
      allGroups().then((all) => all.filter((g) => g.published && !g.productId)),
      request('GET', '/v1/filters', undefined, { anonymous: true }).then((answer) => answer.filters),
    ]);
  } catch (error) { return failed(error, 'Loading groups and filters'); }
  const platform = h('select', { name: 'platform' }, ...platforms.map(([value, label]) => h('option', { value }, label)));
  const about = h('p', { class: 'hint', id: 'export-about' });
  const group = h('select', { name: 'group' }, h('option', { value: '' }, 'Every free published group'),
    ...groups.map((g) => h('option', { value: g.id },
      `${g.name} (${g.id})${restricted(g.audience) ? ` · for ${summary(g.audience)}` : ''}`)));
  const filter = h('select', { name: 'filter' }, h('option', { value: '' }, 'None'), ...filters.map((f) => h('option', { value: f.name }, f.title || f.name)));
  const locale = h('input', { name: 'locale', placeholder: 'fr, pt-BR', maxlength: 35 });
  const publisher = h('input', { name: 'publisher', maxlength: 128, placeholder: 'StickerCatalog' });
  const bot = h('input', { name: 'bot', maxlength: 32, pattern: '[A-Za-z][A-Za-z0-9_]{1,28}[Bb][Oo][Tt]', placeholder: 'CandyBot' });
  const author = h('input', { name: 'author', maxlength: 128, placeholder: 'StickerCatalog' });
  const own = {
    whatsapp: field('Publisher', publisher, 'Shown under every pack in WhatsApp.'),
    telegram: field('Bot username', bot, 'The bot that creates the sets; their names end in _by_<bot>. Required.'),
    signal: field('Author', author, 'Shown with every pack in Signal.'),
  };
  const caller = callerInputs();
  const result = h('p', { class: 'summary', 'aria-live': 'polite', id: 'export-result' });
  const button = h('button', { type: 'submit', class: 'primary' }, 'Download zip');
  const sync = () => {
    about.textContent = platforms.find(([value]) => value === platform.value)[2];
    for (const [name, element] of Object.entries(own)) element.hidden = name !== platform.value;
    bot.required = platform.value === 'telegram';
  };
  platform.addEventListener('change', sync);
  const form = h('form', { class: 'card', 'aria-labelledby': 'export-title' },
    h('h2', { id: 'export-title' }, 'Platform packs'),
    h('div', { class: 'row' }, field('Platform', platform), about),
    h('div', { class: 'row' }, field('Group', group), field('Filter', filter, 'Only what this mode shows.'),
      field('Language', locale, 'Names and descriptions in this language.')),
    h('div', { class: 'row' }, ...Object.values(own)),
    h('fieldset', { class: 'caller' }, h('legend', {}, 'For which client'),
      h('p', { class: 'hint' }, 'Groups with an audience are exported only for a client inside it. ',
        "All empty: everyone's view, without them."),
      h('div', { class: 'row' }, ...caller.fields)),
    button, result);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = { group: group.value, filter: filter.value, locale: locale.value.trim(), ...caller.values() };
    if (platform.value === 'whatsapp') values.publisher = publisher.value.trim();
    if (platform.value === 'telegram') values.bot = bot.value.trim();
    if (platform.value === 'signal') values.author = author.value.trim();
    const query = new URLSearchParams(Object.entries(values).filter(([, value]) => value !== '')).toString();
    button.disabled = true;
    result.textContent = 'Making the packs: every picture is fitted to the platform, which takes a while for animations…';
    try {
      const made = await download(`/v1/admin/exports/${platform.value}${query ? '?' + query : ''}`);
      result.textContent = `Downloaded ${made.name} (${Math.max(1, Math.round(made.bytes / 1024))} KB). report.json inside lists each sticker's bytes and PSNR, and anything refused.`;
      status(`Exported for ${platform.selectedOptions[0].textContent}.`, 'ok');
    } catch (error) {
      result.textContent = '';
      failed(error, 'The export');
    } finally { button.disabled = false; }
  });
  sync();
  main.append(form);
}
