// A refusal's field errors (a problem's `errors`: [{field, message}]) shown beside the fields they name, as well as
// in the status line: "audience.countries[1]" goes to the countries' slot, marking its controls invalid.
import { h } from './dom.js';

/** An empty, hidden slot for one field's errors; `id` lets controls point at it with aria-describedby. */
export function errorSlot(id) {
  return h('p', { class: 'field-error', id, hidden: true });
}

/** The problem's errors under `prefix` ("audience"), by the first name after it: {countries: [{index, sub,
 * message, field}]}, where "countries[1]" has index 1 and "appVersions.minimum" sub "minimum". Errors naming the
 * prefix itself, or nothing under it, are under ''. */
export function fieldErrors(problem, prefix = '') {
  const result = {};
  for (const { field = '', message = '' } of problem?.errors ?? []) {
    let rest = field.startsWith(prefix) ? field.slice(prefix.length) : null;
    if (rest?.startsWith('.')) rest = rest.slice(1);
    const match = rest === null ? null : /^([A-Za-z]+)(?:\[(\d+)\])?(?:\.(.+))?$/.exec(rest);
    const key = match ? match[1] : '';
    (result[key] ??= []).push({
      field, message, index: match?.[2] === undefined ? null : Number(match[2]), sub: match?.[3] ?? null,
    });
  }
  return result;
}

/** Shows `messages` (a list of lines) in `slot`, and marks `controls` invalid and described by it; none clears. */
export function showError(slot, messages, controls = []) {
  slot.replaceChildren(...messages.flatMap((message, at) => (at ? [h('br'), message] : [message])));
  slot.hidden = messages.length === 0;
  for (const control of controls) {
    const described = (control.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id && id !== slot.id);
    if (messages.length) {
      control.setAttribute('aria-invalid', 'true');
      described.push(slot.id);
    } else control.removeAttribute('aria-invalid');
    if (described.length) control.setAttribute('aria-describedby', described.join(' '));
    else control.removeAttribute('aria-describedby');
  }
}
