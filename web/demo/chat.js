// The demo chat (stickerd serve --demo, /demo): a transcript, a composer and a sticker picker built on the web module
// alone. ?api=ORIGIN points it at another catalog (the page then calls it across origins: --cors-origin), ?token=JWT
// signs it in (premium groups unlock).
import { StickerCatalog, debounced, picture } from '/web/stickers.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const installation = localStorage.getItem('installation') ?? crypto.randomUUID().replaceAll('-', '');
localStorage.setItem('installation', installation);
const token = params.get('token') ?? undefined;
const catalog = new StickerCatalog({
  baseURL: params.get('api') ?? location.origin,
  token: token ? () => token : undefined,
  facts: { platform: 'web', installation },
  view: { format: 'webp', size: 'medium' },
});
const scale = catalog.view.scale;
window.stickerCatalog = catalog; // for the browser tests: which tab holds the event stream
let selected;

function button(label, content, action) {
  const element = document.createElement('button');
  element.type = 'button';
  element.setAttribute('aria-label', label);
  element.append(content);
  element.addEventListener('click', action);
  return element;
}

function renderTabs() {
  const tabs = $('tabs');
  tabs.replaceChildren(...(catalog.index?.groups ?? []).map((group) => {
    const cover = group.cover ? picture({ ...group, asset: group.cover, description: group.name }, { baseURL: catalog.transport.baseURL, scale })
      : document.createTextNode(group.name);
    const tab = button(group.locked ? `${group.name} (locked)` : group.name, cover, () => select(group.id));
    tab.setAttribute('role', 'tab');
    tab.setAttribute('aria-selected', String(group.id === selected));
    tab.dataset.group = group.id;
    if (group.locked) tab.append(Object.assign(document.createElement('span'), { className: 'lock', textContent: 'Premium' }));
    return tab;
  }));
  if (!selected && catalog.index?.groups.length) select(catalog.index.groups[0].id);
}

async function select(id) {
  selected = id;
  for (const tab of $('tabs').children) tab.setAttribute('aria-selected', String(tab.dataset.group === id));
  const summary = catalog.index?.groups.find((g) => g.id === id);
  if (summary?.locked) {
    const note = Object.assign(document.createElement('p'), { className: 'locked' });
    note.textContent = `${summary.name} is premium: it unlocks with ${summary.productId}.`;
    $('grid').replaceChildren(note);
    return;
  }
  try {
    showStickers((await catalog.group(id)).stickers);
  } catch (error) {
    status(`Could not load ${id}: ${error.message}`);
  }
}

function showStickers(stickers) {
  $('grid').replaceChildren(...stickers.map((sticker) => {
    const item = button(sticker.description || sticker.name, picture(sticker, { baseURL: catalog.transport.baseURL, scale }),
      () => send(sticker));
    item.setAttribute('role', 'listitem');
    item.dataset.sticker = sticker.id;
    return item;
  }));
}

function send(sticker) {
  const item = Object.assign(document.createElement('li'), { className: 'sticker' });
  item.dataset.sticker = sticker.id;
  item.append(picture(sticker, { baseURL: catalog.transport.baseURL, scale }));
  $('transcript').append(item);
  item.scrollIntoView({ block: 'end' });
  catalog.record(sticker.id, 'sent');
}

function status(text) {
  $('status').textContent = text;
}

const search = debounced((q, options) => catalog.search(q, options));
let typed = 0; // the input a result answers: one that arrives after the box changed again is dropped
$('search').addEventListener('input', async (event) => {
  const q = event.target.value.trim();
  const generation = ++typed;
  if (!q) return select(selected);
  try {
    const results = await search(q);
    if (generation === typed) showStickers(results.filter((r) => !r.locked));
  } catch (error) {
    if (error.kind !== 'aborted') status(`Search failed: ${error.message}`);
  }
});

$('toggle').addEventListener('click', () => {
  const picker = $('picker');
  picker.hidden = !picker.hidden;
  $('toggle').setAttribute('aria-expanded', String(!picker.hidden));
});

$('composer').addEventListener('submit', (event) => {
  event.preventDefault();
  const text = $('text').value.trim();
  if (!text) return;
  $('transcript').append(Object.assign(document.createElement('li'), { textContent: text }));
  $('text').value = '';
});

catalog.addEventListener('change', (event) => {
  renderTabs();
  if (selected && catalog.groups.has(selected)) showStickers(catalog.groups.get(selected).stickers);
  document.body.dataset.rendered = event.detail.source; // for tests: what the picker was last drawn from
  if (!performance.getEntriesByName('stickercatalog:rendered').length) performance.mark('stickercatalog:rendered');
  status(event.detail.source === 'storage' ? 'Offline copy' : 'Up to date');
});
catalog.addEventListener('error', (event) => status(`Offline: ${event.detail.message}`));

await catalog.open();
try {
  const trending = await catalog.trending({ limit: 8 });
  $('trending').replaceChildren(...trending.filter((r) => !r.locked).map((result) =>
    button(result.description || result.name, picture(result, { baseURL: catalog.transport.baseURL, scale }), () => send(result))));
} catch {
  // Trending is a nicety: the picker works without it.
}
