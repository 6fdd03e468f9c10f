// Stats: the stickers and groups used most in a period (sent, viewed or tapped, counted by UTC day), with their
// pictures, and a chart of one's count per day. The period, action and charted row are kept in the hash
// (#/stats?from=&to=&action=&sticker=), so a view can be linked to and survives a reload.
import { download, request } from './api.js';
import { h, field } from './dom.js';
import { failed, status } from './status.js';
import { thumbnail } from './stickers.js';
import { barChart } from './chart.js';

const actions = { sent: 'Sent', viewed: 'Viewed', tapped: 'Tapped' };
const perDay = { sent: 'Sends per day', viewed: 'Views per day', tapped: 'Taps per day' };
const top = 20;
const filterName = { stickers: 'sticker', groups: 'group' };

/** The UTC day `offset` days from today, "YYYY-MM-DD": the API counts whole UTC days, not the browser's. */
function utcDay(offset = 0) {
  return new Date(Date.now() + offset * 86400000).toISOString().slice(0, 10);
}

const statsQuery = (period, extra = {}) => new URLSearchParams({ ...period, ...extra });

/** Pictures for rows: the stats name stickers and groups only, so each group is read once from the admin API, whose
 * image URLs are signed (premium and draft stickers show too). Nothing for what was deleted. */
function pictureCache() {
  const groups = new Map();
  const group = (id) => {
    if (!groups.has(id)) groups.set(id, request('GET', `/v1/admin/groups/${encodeURIComponent(id)}`).catch(() => null));
    return groups.get(id);
  };
  return {
    async stickers(row) {
      const found = row.group ? (await group(row.group))?.stickers.find((sticker) => sticker.id === row.id) : null;
      if (found || row.name === null) return found;
      // Moved to another group since it was counted: read alone.
      return request('GET', `/v1/admin/stickers/${encodeURIComponent(row.id)}`).catch(() => null);
    },
    async groups(row) {
      const found = await group(row.id);
      return found?.stickers.find((sticker) => sticker.id === found.coverStickerId) ?? found?.stickers[0];
    },
  };
}

/** The top table of `kind` ("stickers" or "groups"), a page at a time; clicking a row, or its name's button by
 * keyboard, calls `pick(kind, row)`. */
function topTable(kind, pictures, pick) {
  const noun = filterName[kind];
  const body = h('tbody');
  const totalHeading = h('th', { scope: 'col', class: 'number' }, 'Sent');
  const counted = h('p', { class: 'hint' });
  const more = h('button', { type: 'button', hidden: true }, `More ${kind}`);
  const csv = h('button', { type: 'button' }, 'Download CSV');
  let period = null;
  let next = null;
  let shown = [];
  let generation = 0; // a newer period's answer replaces an older one still on its way, never mixes with it

  const row = (item, rank) => {
    const name = item.name ?? `Deleted ${noun}`;
    const picture = h('td', { class: 'thumb' });
    pictures[kind](item).then((sticker) => {
      if (sticker) picture.replaceChildren(h('img', { src: thumbnail(sticker).url, alt: '', width: 40, height: 40 }));
    });
    const line = h('tr', { class: 'pickable', dataset: { id: item.id } },
      h('td', { class: 'number' }, String(rank)), picture,
      h('th', { scope: 'row' }, h('button', { type: 'button', class: 'link', 'aria-label': `Chart ${name}` }, name)),
      kind === 'stickers' ? h('td', {}, item.group ?? '') : null,
      h('td', { class: 'number' }, item.total.toLocaleString()));
    line.addEventListener('click', () => pick(kind, item)); // the button's click bubbles here too
    return line;
  };
  const load = async () => {
    const mine = generation;
    const page = await request('GET', `/v1/admin/stats/${kind}?${statsQuery(period, { limit: top, ...(next ? { cursor: next } : {}) })}`);
    if (mine !== generation) return;
    table.days = page.days;
    body.append(...page.rows.map((item, index) => row(item, shown.length + index + 1)));
    shown.push(...page.rows);
    next = page.next;
    more.hidden = next === null;
    counted.textContent = `${shown.length} of ${page.total} ${page.total === 1 ? noun : kind} counted.`;
    if (shown.length === 0) {
      body.append(h('tr', {}, h('td', { colspan: kind === 'stickers' ? 5 : 4 }, `No ${noun} ${period.action} in this period.`)));
    }
  };
  more.addEventListener('click', () => load().catch((error) => failed(error, `Loading more ${kind}`)));
  csv.addEventListener('click', async () => {
    try {
      const file = `${kind}-${period.action}-${period.from}-${period.to}.csv`;
      const made = await download(`/v1/admin/stats/${kind}?${statsQuery(period, { limit: 500 })}`, 'text/csv', file);
      status(`Downloaded ${made.name} (${made.bytes.toLocaleString()} bytes).`, 'ok');
    } catch (error) { failed(error, 'Downloading the CSV'); }
  });
  const title = h('h2', { id: `stats-${kind}-title` }, `Top ${kind}`);
  const table = {
    days: [],
    element: h('section', { class: 'card', id: `stats-${kind}`, 'aria-labelledby': title.id }, title,
      h('table', {}, h('thead', {}, h('tr', {},
        ...['Rank', 'Picture', kind === 'stickers' ? 'Sticker' : 'Group', kind === 'stickers' ? 'Group' : null]
          .filter(Boolean).map((text) => h('th', { scope: 'col' }, text)), totalHeading)), body),
      counted, h('div', { class: 'actions' }, more, csv, h('span', { class: 'hint' }, 'CSV: up to 500 rows, a column per day.'))),
    async show(chosen) {
      generation += 1;
      [period, next, shown] = [{ ...chosen }, null, []];
      totalHeading.textContent = actions[period.action];
      body.replaceChildren();
      await load();
    },
    mark(id) { for (const line of body.rows) line.classList.toggle('charted', line.dataset.id === id); },
    find(id) { return shown.find((item) => item.id === id); },
  };
  return table;
}

export async function render(main, { params }) {
  const period = { from: params.get('from') ?? utcDay(-29), to: params.get('to') ?? utcDay(), action: params.get('action') ?? 'sent' };
  let charted = params.has('sticker') ? { kind: 'stickers', id: params.get('sticker') }
    : params.has('group') ? { kind: 'groups', id: params.get('group') } : null;
  const from = h('input', { type: 'date', name: 'from', value: period.from, required: true });
  const to = h('input', { type: 'date', name: 'to', value: period.to, required: true });
  const action = h('select', { name: 'action' },
    ...Object.entries(actions).map(([value, label]) => h('option', { value, selected: value === period.action }, label)));
  const form = h('form', { class: 'card', 'aria-label': 'Period' },
    h('div', { class: 'row period' }, field('From', from, 'UTC day'), field('To', to, 'UTC day'),
      field('Action', action), h('button', { type: 'submit', class: 'primary' }, 'Show')));
  const hint = h('p', { class: 'hint' }, 'Choose a sticker or group below to chart it day by day.');
  const chartArea = h('section', { class: 'card stats-chart', id: 'stats-chart', 'aria-live': 'polite' }, hint);
  const pictures = pictureCache();
  const tables = {};
  const remember = () => {
    const query = statsQuery(period, charted ? { [filterName[charted.kind]]: charted.id } : {});
    history.replaceState(null, '', `#/stats?${query}`); // no hashchange: the screen stays as it is
  };
  const chart = async (kind, item) => {
    charted = { kind, id: item.id };
    remember();
    Object.values(tables).forEach((table) => table.mark(item.id));
    let row = item.counts ? item : tables[kind].find(item.id);
    if (!row) { // not among the rows shown (a link to it, or past the first page): its own counts
      const page = await request('GET', `/v1/admin/stats/${kind}?${statsQuery(period, { [filterName[kind]]: item.id })}`);
      row = page.rows[0] ?? { id: item.id, name: item.id, total: 0, counts: page.days.map(() => 0) };
      row.days = page.days;
    }
    const days = row.days ?? tables[kind].days;
    const name = row.name ?? `Deleted ${filterName[kind]} ${row.id}`;
    const max = Math.max(...row.counts);
    const title = `${perDay[period.action]}: ${name}`;
    const description = `${row.total.toLocaleString()} ${period.action} from ${period.from} to ${period.to} (UTC days)`
      + (max > 0 ? `; the most, ${max.toLocaleString()}, on ${days[row.counts.indexOf(max)]}.` : '.');
    const width = Math.max(320, Math.min(1100, chartArea.clientWidth - 34));
    chartArea.replaceChildren(h('h2', { id: 'stats-chart-title' }, title), h('p', { class: 'summary' }, description),
      barChart({ days, counts: row.counts, title, description, unit: period.action, width, height: width < 500 ? 220 : 260 }));
    chartArea.scrollIntoView({ block: 'nearest' });
  };
  const show = async () => {
    if (!from.value || !to.value) return; // a date still being typed
    if (from.value > to.value) return status('From must be on or before To.', 'error');
    Object.assign(period, { from: from.value, to: to.value, action: action.value });
    remember();
    try {
      await Promise.all(Object.values(tables).map((table) => table.show(period)));
      if (charted) await chart(charted.kind, { id: charted.id });
      else chartArea.replaceChildren(hint);
    } catch (error) { failed(error, 'Loading the stats'); }
  };
  const pick = (kind, item) => chart(kind, item).catch((error) => failed(error, 'Charting'));
  tables.stickers = topTable('stickers', pictures, pick);
  tables.groups = topTable('groups', pictures, pick);
  form.addEventListener('submit', (event) => { event.preventDefault(); show(); });
  form.addEventListener('change', () => show());
  main.append(h('h1', {}, 'Stats'),
    h('p', {}, 'How often apps report each sticker sent, viewed or tapped (counts reach this page within seconds).'),
    form, chartArea, h('div', { class: 'stats-tables' }, tables.stickers.element, tables.groups.element));
  await show();
}
