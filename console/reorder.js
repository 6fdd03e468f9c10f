// Reordering a list by drag and drop or by keyboard (Move up / Move down buttons): both end in one call of
// `reorder(ids, movedId, index)` with the new order.
import { h } from './dom.js';

/** Makes the children of `container` with a data-id draggable. */
export function reorderable(container, reorder) {
  let dragged = null;
  container.addEventListener('dragstart', (event) => {
    dragged = event.target.closest('[data-id]');
    if (!dragged) return;
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData('text/plain', dragged.dataset.id);
    dragged.classList.add('dragging');
  });
  container.addEventListener('dragend', () => { dragged?.classList.remove('dragging'); dragged = null; });
  container.addEventListener('dragover', (event) => {
    if (dragged && event.target.closest('[data-id]')) event.preventDefault();
  });
  container.addEventListener('drop', (event) => {
    const target = event.target.closest('[data-id]');
    const id = event.dataTransfer.getData('text/plain');
    const moving = [...container.querySelectorAll(':scope > [data-id]')].find((item) => item.dataset.id === id);
    if (!target || !moving || target === moving) return;
    event.preventDefault();
    const box = target.getBoundingClientRect();
    const after = container.dataset.axis === 'x'
      ? event.clientX > box.left + box.width / 2
      : event.clientY > box.top + box.height / 2;
    target.insertAdjacentElement(after ? 'afterend' : 'beforebegin', moving);
    commit(container, moving, reorder);
  });
}

/** "Move up" and "Move down" buttons for the item named `name`, for keyboard users. */
export function moveButtons(container, item, name, reorder) {
  const move = (step) => {
    const sibling = step < 0 ? item.previousElementSibling : item.nextElementSibling;
    if (!sibling?.dataset.id) return;
    sibling.insertAdjacentElement(step < 0 ? 'beforebegin' : 'afterend', item);
    commit(container, item, reorder).then(() => item.querySelector(step < 0 ? '.move-up' : '.move-down')?.focus());
  };
  return h('span', { class: 'moves' },
    h('button', { type: 'button', class: 'move-up', 'aria-label': `Move ${name} up`, title: 'Move up', onclick: () => move(-1) }, '↑'),
    h('button', { type: 'button', class: 'move-down', 'aria-label': `Move ${name} down`, title: 'Move down', onclick: () => move(1) }, '↓'));
}

function commit(container, moved, reorder) {
  const ids = [...container.querySelectorAll(':scope > [data-id]')].map((item) => item.dataset.id);
  return reorder(ids, moved.dataset.id, ids.indexOf(moved.dataset.id));
}
