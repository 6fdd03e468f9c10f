// Countries for an audience: a searchable list of every ISO 3166-1 country (type a name or code to narrow it; Enter
// picks the best match) and the chosen ones as chips, each with a button that removes it.
import { h } from './dom.js';
import { byName, countryName } from './countries.js';

/** Whether a country matches what was typed (lower case): its code's start, or any part of its name. */
function matches(code, name, typed) {
  return typed === '' || code.toLowerCase().startsWith(typed) || name.toLowerCase().includes(typed);
}

/** How well a matching country fits what was typed, best first: its code, the start of its name, the start of a
 * word of its name ("states"), the start of its code, anywhere in its name. */
function rank(code, name, typed) {
  const lower = name.toLowerCase();
  if (code.toLowerCase() === typed) return 0;
  if (lower.startsWith(typed)) return 1;
  if (lower.split(/[\s,()-]+/).some((word) => word.startsWith(typed))) return 2;
  return code.toLowerCase().startsWith(typed) ? 3 : 4;
}

/** The picker: `element` (a fieldset), `filter` (its text box), `value()` (the chosen codes, sorted), `set(codes)`,
 * and `onchange` called after every change the user makes. */
export function countryPicker() {
  const chosen = new Set();
  const picker = { onchange: () => {} };
  const chips = h('ul', { class: 'chips', 'aria-label': 'Chosen countries' });
  const none = h('p', { class: 'hint' }, 'None chosen: every country. ',
    'With some chosen, a caller whose country is unknown (no country header) does not see the group.');
  const filter = h('input', {
    type: 'search', name: 'countryFilter', id: 'audience-country-filter', autocomplete: 'off',
    placeholder: 'Name or code: Canada, CA', 'aria-controls': 'audience-country-list',
  });
  const count = h('span', { class: 'hint', 'aria-live': 'polite' }, '');
  const list = h('ul', { class: 'country-list', id: 'audience-country-list', 'aria-label': 'Countries', hidden: true });
  // A button, not <details>: a closed details keeps its boxes laid out (for find-in-page) while hiding them from
  // screen readers; a hidden list is simply gone until asked for.
  const toggleList = h('button', {
    type: 'button', class: 'link', 'aria-expanded': 'false', 'aria-controls': list.id,
    onclick: () => showList(list.hidden),
  }, 'Show the list');
  const showList = (shown) => {
    list.hidden = !shown;
    toggleList.setAttribute('aria-expanded', String(shown));
    toggleList.textContent = shown ? 'Hide the list' : 'Show the list';
  };
  const boxes = new Map();

  const drawChips = () => {
    chips.replaceChildren(...[...chosen].sort().map((code) => h('li', { class: 'chip', dataset: { code } },
      `${countryName(code)} (${code})`,
      h('button', {
        type: 'button', class: 'chip-remove', 'aria-label': `Remove ${countryName(code)}`,
        onclick: () => { toggle(code, false); filter.focus(); },
      }, '×'))));
    chips.hidden = chosen.size === 0;
    none.hidden = chosen.size > 0;
    for (const [code, box] of boxes) box.checked = chosen.has(code);
  };
  const toggle = (code, on) => {
    if (on) chosen.add(code); else chosen.delete(code);
    drawChips();
    picker.onchange();
  };
  for (const [code, name] of byName()) {
    const box = h('input', { type: 'checkbox', name: 'countries', value: code });
    box.addEventListener('change', () => toggle(code, box.checked));
    boxes.set(code, box);
    list.append(h('li', { dataset: { code } }, h('label', { class: 'check' }, box, h('code', {}, code), ` ${name}`)));
  }

  /** Shows only the countries that match the filter; returns the best match for Enter (see `rank`). */
  const narrow = () => {
    const typed = filter.value.trim().toLowerCase();
    let shown = 0, best = null, bestRank = Infinity;
    for (const item of list.children) {
      const { code } = item.dataset;
      const visible = matches(code, countryName(code), typed);
      item.hidden = !visible;
      if (!visible) continue;
      shown += 1;
      const itsRank = rank(code, countryName(code), typed);
      if (itsRank < bestRank) [best, bestRank] = [code, itsRank];
    }
    count.textContent = typed === '' ? `All countries (${list.children.length})`
      : `${shown} match${shown === 1 ? '' : 'es'} for "${filter.value.trim()}"`;
    return best;
  };
  filter.addEventListener('input', () => {
    narrow();
    if (filter.value.trim() !== '') showList(true);
  });
  filter.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault(); // not the form's submit: Enter here picks a country
    const best = narrow();
    if (filter.value.trim() !== '' && best) toggle(best, !chosen.has(best));
  });

  picker.element = h('fieldset', { class: 'countries' }, h('legend', {}, 'Countries'), chips, none,
    h('div', { class: 'field' }, h('label', { for: filter.id }, 'Find a country'), filter),
    h('p', { class: 'country-browser' }, count, ' ', toggleList), list);
  picker.filter = filter;
  picker.value = () => [...chosen].sort();
  picker.set = (codes) => {
    chosen.clear();
    for (const code of codes ?? []) chosen.add(code);
    drawChips();
  };
  narrow();
  drawChips();
  return picker;
}
