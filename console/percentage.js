// A percentage rollout's control: a slider (0 to 100 in tenths) and a number box that follow each other, and a
// "Raise to" button that sends only the new percentage. Lowering is allowed but said plainly: it takes the group away
// from installations that have it (buckets are stable per group, so raising keeps everyone who had it).
import { h } from './dom.js';
import { percentText } from './audience-text.js';

/** `value` as a percentage in tenths between 0 and 100; empty or not a number is 100 (no limit). */
export function tenths(value) {
  const number = Number(value);
  if (value === '' || value === null || value === undefined || !Number.isFinite(number)) return 100;
  return Math.min(100, Math.max(0, Math.round(number * 10) / 10));
}

/** The control: `element`, `controls` (slider and box, for errors), `value()`, `set(stored)` (the stored percentage
 * shown and compared with; none is 100), `stored(percentage)` (only what it is compared with). `raise(target)` is
 * called when the button is pressed: "Raise to" or "Lower to" a stored percentage, "Limit to" without one. */
export function percentageControl(raise) {
  let current = 100, explicit = false;
  const slider = h('input', {
    type: 'range', name: 'percentageSlider', id: 'audience-percentage-slider', min: 0, max: 100, step: 0.1,
    value: 100, 'aria-describedby': 'audience-percentage-hint',
  });
  const box = h('input', {
    type: 'number', name: 'percentage', id: 'audience-percentage', min: 0, max: 100, step: 0.1, value: 100,
    inputmode: 'decimal', 'aria-label': 'Share of installations, in percent', class: 'percent-box',
  });
  const button = h('button', { type: 'button', id: 'audience-raise' }, 'Raise to');
  const warning = h('p', { class: 'warning', id: 'audience-lowering', 'aria-live': 'polite' });
  const control = { controls: [slider, box] };
  control.value = () => tenths(box.value);

  const sync = () => {
    const target = control.value();
    const verb = !explicit ? 'Limit to' : target < current ? 'Lower to' : 'Raise to';
    button.disabled = target === current;
    button.classList.toggle('danger', explicit && target < current);
    button.textContent = `${verb} ${percentText(target)}`;
    warning.textContent = target < current
      ? `${explicit ? 'Lowering' : 'Limiting'} the share from ${percentText(current)} to ${percentText(target)} takes `
        + `the group away from installations that see it now: about ${percentText(current - target)} of those in the `
        + 'audience.'
      : '';
  };
  slider.addEventListener('input', () => { box.value = slider.value; sync(); });
  box.addEventListener('input', () => {
    if (box.value !== '' && box.validity.valid) slider.value = box.value;
    sync();
  });
  box.addEventListener('change', () => { // out of range or finer than tenths: the nearest; empty stays empty (100)
    if (box.value === '') return sync();
    box.value = String(control.value());
    slider.value = box.value;
    sync();
  });
  button.addEventListener('click', () => raise(control.value()));

  control.set = (percentage) => {
    current = tenths(percentage);
    explicit = percentage !== undefined && percentage !== null;
    slider.value = box.value = String(current);
    sync();
  };
  control.stored = (percentage) => {
    current = tenths(percentage);
    explicit = percentage !== undefined && percentage !== null;
    sync();
  };
  control.element = h('fieldset', { class: 'percentage' }, h('legend', {}, 'Share of installations'),
    h('div', { class: 'percentage-row' },
      h('label', { for: slider.id, class: 'visually-hidden' }, 'Share of installations'), slider,
      h('span', { class: 'percent-entry' }, box, ' %'), button),
    warning,
    h('p', { class: 'hint', id: 'audience-percentage-hint' },
      '100%: no limit. Each installation has a fixed place among 1,000 for this group, so raising the share keeps ',
      'everyone who had it; lowering takes it away from some.'));
  control.set(100);
  return control;
}
