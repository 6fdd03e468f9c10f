// Building the page from elements, never from markup strings: every text from the API goes in as text.

/** h('button', {class: 'x', onclick: f}, 'Save') makes an element; attributes starting with "on" are listeners. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) element.addEventListener(key.slice(2), value);
    else if (key === 'dataset') Object.assign(element.dataset, value);
    else if (value === true) element.setAttribute(key, '');
    else element.setAttribute(key, String(value));
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces what `element` holds. */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** A labelled form field: the label names the control, a hint (if any) describes it. */
export function field(label, control, hint) {
  control.id ||= 'f-' + Math.random().toString(36).slice(2, 10);
  const hintElement = hint ? h('span', { class: 'hint', id: control.id + '-hint' }, hint) : null;
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintElement);
}

/** Comma-separated text to a list without blanks. */
export function list(text) {
  return text.split(',').map((item) => item.trim()).filter((item) => item !== '');
}

/** "fr = Croquant" lines to {fr: "Croquant"}. */
export function localized(text) {
  const result = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) result[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return result;
}

/** {fr: "Croquant"} to "fr = Croquant" lines. */
export function localizedText(object) {
  return Object.entries(object ?? {}).map(([tag, text]) => `${tag} = ${text}`).join('\n');
}

/** Asks before something that cannot be undone, in a modal dialog; resolves true when confirmed. */
export function confirmAction(question, action = 'Delete') {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'confirm', 'aria-labelledby': 'confirm-question' },
      h('p', { id: 'confirm-question' }, question),
      h('div', { class: 'actions' },
        h('button', { type: 'button', onclick: () => dialog.close('cancel') }, 'Cancel'),
        h('button', { type: 'button', class: 'danger', onclick: () => dialog.close('confirm') }, action)));
    dialog.addEventListener('close', () => { dialog.remove(); resolve(dialog.returnValue === 'confirm'); });
    document.body.append(dialog);
    dialog.showModal();
  });
}
