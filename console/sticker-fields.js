// The text fields of a sticker, shared by the upload list and the edit dialog.
import { h, field, list, localized, localizedText } from './dom.js';

const descriptionLimit = 150;

/** The description: required, at most 150 characters (what VoiceOver reads), with a live count. */
function descriptionField(value, label) {
  const input = h('textarea', { name: 'description', required: true, maxlength: descriptionLimit, rows: 2 });
  input.value = value;
  const count = h('span', { class: 'count', 'aria-live': 'polite' });
  const update = () => { count.textContent = `${input.value.length} / ${descriptionLimit}`; };
  input.addEventListener('input', update);
  update();
  const wrapper = field(label, input, 'Required: what a screen reader says for this sticker.');
  wrapper.append(count);
  return { wrapper, input };
}

/** The fields for `sticker` (or defaults); `values()` gives the API's field values. `compact` hides the rarely used. */
export function stickerFields(sticker, { prefix = '', compact = false } = {}) {
  const name = h('input', { name: 'name', required: true, maxlength: 100, value: sticker.name ?? '' });
  const description = descriptionField(sticker.description ?? '', `${prefix}Description`);
  const emoji = h('input', { name: 'emoji', value: (sticker.emoji ?? []).join(', ') });
  const keywords = h('input', { name: 'keywords', value: (sticker.keywords ?? []).join(', ') });
  const flags = h('input', { name: 'flags', value: (sticker.flags ?? []).join(', '), pattern: '[a-z0-9_, \\-]*' });
  const texts = h('textarea', { name: 'localizedDescriptions', rows: 2 });
  texts.value = localizedText(sticker.localizedDescriptions);
  const element = h('div', { class: 'sticker-fields' },
    field(`${prefix}Name`, name),
    description.wrapper,
    field(`${prefix}Emoji`, emoji, 'Comma-separated, e.g. 😋, 🙂'),
    compact ? null : field(`${prefix}Keywords`, keywords, 'Comma-separated search words.'),
    compact ? null : field(`${prefix}Flags`, flags, 'Comma-separated, e.g. chocolate; filters select by them.'),
    compact ? null : field(`${prefix}Translated descriptions`, texts, 'One per line: fr = Un cookie aux pépites'));
  return {
    element,
    values: () => ({
      name: name.value.trim(), description: description.input.value.trim(), emoji: list(emoji.value),
      keywords: list(keywords.value), flags: list(flags.value), localizedDescriptions: localized(texts.value),
    }),
  };
}
