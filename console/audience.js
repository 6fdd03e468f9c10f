// A group's Audience panel: who sees it (countries, platforms, an app version range, a share of installations).
// Save sends the whole audience; "Raise to" only a new percentage of the stored one; "Everyone" clears it. A refusal
// shows its field errors beside the fields ("audience.countries[1]" under Countries) and in the status line.
import { request } from './api.js';
import { h, field, list, confirmAction } from './dom.js';
import { status, failed } from './status.js';
import { countryPicker } from './country-picker.js';
import { percentageControl, tenths } from './percentage.js';
import { errorSlot, fieldErrors, showError } from './field-errors.js';
import { summary, description, percentText, platformLabel, restricted } from './audience-text.js';
import { insideOf } from './caller-inputs.js';

const knownPlatforms = ['ios', 'android', 'web'];
const version = '[0-9]{1,6}(\\.[0-9]{1,6}){0,2}';
const platformName = '[a-z][a-z0-9\\-]{0,31}';

/** `audience` without empty conditions (what the API accepts back); null when nothing is left: everyone. */
export function cleaned(audience) {
  if (!audience) return null;
  const result = {};
  if (audience.countries?.length) result.countries = [...audience.countries];
  if (audience.platforms?.length) result.platforms = [...audience.platforms];
  const { minimum, maximum } = audience.appVersions ?? {};
  if (minimum || maximum) result.appVersions = { ...(minimum ? { minimum } : {}), ...(maximum ? { maximum } : {}) };
  if (typeof audience.percentage === 'number' && tenths(audience.percentage) < 100) {
    result.percentage = tenths(audience.percentage);
  }
  return restricted(result) ? result : null;
}

function lowerQuestion(name, from, to) {
  return `Lower ${name} from ${percentText(from)} to ${percentText(to)}? Installations between the two lose the `
    + 'group at their next sync.';
}

/** The panel for `group` (as GET /v1/admin/groups/{id} answers it). */
export function audiencePanel(group) {
  let stored = cleaned(group.audience);
  const countries = countryPicker();
  const platformBoxes = knownPlatforms.map((name) => h('input', { type: 'checkbox', name: 'platforms', value: name }));
  const otherPlatforms = h('input', {
    name: 'otherPlatforms', autocomplete: 'off', placeholder: 'e.g. macos, tvos',
    pattern: `\\s*${platformName}(\\s*,\\s*${platformName})*\\s*`,
  });
  const versionInput = (name, example) => h('input', {
    name, pattern: version, placeholder: example, autocomplete: 'off',
  });
  const minimum = versionInput('minimumVersion', 'e.g. 2.3');
  const maximum = versionInput('maximumVersion', 'e.g. 3');
  const percentage = percentageControl((target) => raise(target));
  const slots = Object.fromEntries(['countries', 'platforms', 'appVersions', 'percentage', 'other']
    .map((key) => [key, errorSlot(`audience-error-${key}`)]));
  const now = h('p', { class: 'summary', id: 'audience-now' });
  const said = h('p', { class: 'hint', id: 'audience-description' });
  const previewLink = h('a', { id: 'audience-preview' }, 'Preview as a client inside it');
  const everyoneButton = h('button', { type: 'button', id: 'audience-everyone', onclick: () => everyone() },
    'Everyone');

  const load = (audience) => {
    countries.set(audience?.countries);
    const platforms = audience?.platforms ?? [];
    for (const box of platformBoxes) box.checked = platforms.includes(box.value);
    otherPlatforms.value = platforms.filter((name) => !knownPlatforms.includes(name)).join(', ');
    minimum.value = audience?.appVersions?.minimum ?? '';
    maximum.value = audience?.appVersions?.maximum ?? '';
    percentage.set(audience?.percentage);
  };
  const drawNow = () => {
    now.textContent = `Who sees it now: ${summary(stored)}`;
    said.replaceChildren(description(stored), ' ', stored ? previewLink : '');
    previewLink.href = `#/preview?${new URLSearchParams({ group: group.id, ...insideOf(stored) })}`;
    everyoneButton.disabled = stored === null;
  };
  /** What the form says, as the API takes it; null when it limits nothing. */
  const draft = () => cleaned({
    countries: countries.value(),
    platforms: [...new Set([...platformBoxes.filter((box) => box.checked).map((box) => box.value),
      ...list(otherPlatforms.value.toLowerCase())])],
    appVersions: { minimum: minimum.value.trim(), maximum: maximum.value.trim() },
    percentage: percentage.value(),
  });
  const controlsOf = {
    countries: [countries.filter], platforms: [...platformBoxes, otherPlatforms], appVersions: [minimum, maximum],
    percentage: percentage.controls, other: [],
  };
  /** The refusal's errors beside their fields; `sent` names what an index ("countries[1]") pointed at. */
  const showErrors = (problem, sent) => {
    const errors = fieldErrors(problem, 'audience');
    for (const [key, slot] of Object.entries(slots)) {
      const mine = key === 'other'
        ? Object.entries(errors).filter(([name]) => !(name in controlsOf) || name === 'other').flatMap(([, e]) => e)
        : errors[key] ?? [];
      showError(slot, mine.map((e) => {
        if (key === 'other') return `${e.field || 'audience'}: ${e.message}`;
        if (e.index !== null) return `${sent?.[key]?.[e.index] ?? e.field}: ${e.message}`;
        if (e.sub) return `${e.sub === 'minimum' ? 'Minimum' : e.sub === 'maximum' ? 'Maximum' : e.sub}: ${e.message}`;
        return e.message;
      }), controlsOf[key]);
    }
  };
  const patch = async (audience, message, whole = true) => {
    for (const [key, slot] of Object.entries(slots)) showError(slot, [], controlsOf[key]);
    try {
      const answer = await request('PATCH', `/v1/admin/groups/${encodeURIComponent(group.id)}`, { audience });
      stored = cleaned(answer && 'audience' in answer ? answer.audience : audience);
      if (whole) load(stored); else percentage.stored(stored?.percentage);
      drawNow();
      status(message(stored), 'ok');
    } catch (error) {
      showErrors(error.problem, audience);
      failed(error, 'Saving the audience');
    }
  };
  /** Whether `target` lowers a rollout under way (a stored percentage): asked first. Starting one is not. */
  const lowers = (target) => stored?.percentage !== undefined && target < tenths(stored.percentage);
  const raise = async (target) => {
    const from = tenths(stored?.percentage);
    if (target === from) return;
    if (lowers(target) && !await confirmAction(lowerQuestion(group.name, from, target), 'Lower')) return;
    const next = cleaned({ ...(stored ?? {}), percentage: target });
    const verb = target < from ? 'Lowered' : 'Raised';
    await patch(next, () => `${verb} ${group.name} to ${percentText(target)} of installations.`, false);
  };
  const everyone = async () => {
    const question = `Show ${group.name} to everyone? Callers outside its audience get it at their next sync.`;
    if (!await confirmAction(question, 'Show to everyone')) return;
    await patch(null, () => `${group.name} is shown to everyone.`);
  };

  const form = h('form', { class: 'card audience', id: 'audience', 'aria-labelledby': 'audience-title' },
    h('h2', { id: 'audience-title' }, 'Audience'), now, said,
    h('p', { class: 'hint' }, 'Every condition given must hold; none given is everyone. Platforms and versions are ',
      'what the app states: a way to target, not a security boundary.'),
    countries.element,
    h('fieldset', { class: 'platforms' }, h('legend', {}, 'Platforms'),
      h('div', { class: 'checks' }, ...platformBoxes.map((box) => h('label', { class: 'check' }, box,
        ` ${platformLabel(box.value)}`))),
      field('Other platforms', otherPlatforms,
        'Comma-separated lower-case names. None ticked or named: every platform.'),
      slots.platforms),
    h('fieldset', { class: 'versions' }, h('legend', {}, 'App versions'),
      h('div', { class: 'row' },
        field('Minimum', minimum, 'major[.minor[.patch]], included. Empty: no minimum.'),
        field('Maximum', maximum, 'Included. Empty: no maximum.')),
      slots.appVersions),
    percentage.element, slots.other,
    h('div', { class: 'actions' },
      h('button', { type: 'submit', class: 'primary', id: 'audience-save' }, 'Save audience'), everyoneButton));
  countries.element.append(slots.countries);
  percentage.element.append(slots.percentage);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const next = draft();
    const from = tenths(stored?.percentage), to = tenths(next?.percentage);
    if (lowers(to) && !await confirmAction(lowerQuestion(group.name, from, to), 'Save and lower')) return;
    await patch(next, (saved) => `Saved the audience of ${group.name}: ${summary(saved)}.`);
  });
  load(stored);
  drawNow();
  return form;
}
