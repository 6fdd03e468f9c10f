// Uploading many stickers at once: drop files (or pick them), check their text, upload; each file shows its own
// progress and the API's verdict in plain words, and "N of M" counts the whole batch.
import { idempotencyKey, upload } from './api.js';
import { h } from './dom.js';
import { explain } from './verdicts.js';
import { stickerFields } from './sticker-fields.js';
import { status } from './status.js';

const parallel = 3;
/** Tries of one upload that end without an answer (a network error, a 503) before it waits for the next Upload. */
const attempts = 4;

/** "choc-chip_cookie.png" gives "Choc chip cookie". */
function nameFrom(file) {
  const stem = file.name.replace(/\.[^.]*$/, '').replace(/[-_]+/g, ' ').trim().slice(0, 100) || 'Sticker';
  return stem.charAt(0).toUpperCase() + stem.slice(1);
}

function kilobytes(bytes) { return `${Math.ceil(bytes / 1024)} KB`; }

/** One staged file: its preview, its fields, its progress, its verdict, and its Idempotency-Key, the same on every
 * attempt, so that a retry after a lost answer cannot store it twice. */
function stagedItem(file, index) {
  const name = nameFrom(file);
  const fields = stickerFields({ name, description: name }, { prefix: `${file.name}: `, compact: true });
  const progress = h('progress', { max: 1, value: 0, 'aria-label': `Upload of ${file.name}` });
  const verdict = h('div', { class: 'verdict', 'aria-live': 'polite' }, 'Waiting');
  const preview = URL.createObjectURL(file);
  const element = h('li', { class: 'staged', dataset: { file: file.name } },
    h('img', { src: preview, alt: `Preview of ${file.name}`, width: 80, height: 80, onload: () => URL.revokeObjectURL(preview) }),
    h('div', {}, h('p', { class: 'file-name' }, `${index + 1}. ${file.name} (${kilobytes(file.size)})`), fields.element),
    h('div', { class: 'outcome' }, progress, verdict));
  return { file, fields, progress, verdict, element, state: 'waiting', key: idempotencyKey() };
}

function showVerdict(item, kind, heading, ...lines) {
  item.state = kind;
  item.element.classList.remove('kept', 'refused');
  item.element.classList.add(kind);
  item.verdict.replaceChildren(h('strong', {}, heading), ...lines.filter(Boolean).map((line) => h('p', {}, line)));
}

/** Answers after which the upload may or may not be stored: it is sent again, with the same key. */
function unanswered(error) {
  return error.status === 0 || error.status === 503 || error.problem.code === 'idempotency_key_in_use';
}

const pause = (seconds) => new Promise((resolve) => { setTimeout(resolve, seconds * 1000); });

async function send(groupId, item) {
  const values = item.fields.values();
  const fields = {
    name: values.name, description: values.description, emoji: values.emoji.join(','),
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      item.verdict.textContent = 'Uploading';
      const sticker = await upload(groupId, item.file, fields, (done) => { item.progress.value = done; }, item.key);
      item.progress.value = 1;
      const warnings = (sticker.warnings ?? []).map((w) => `Note: ${w.detail}`);
      return showVerdict(item, 'kept', `Kept as ${sticker.name}: ${sticker.asset.width} x ${sticker.asset.height} pixels`, ...warnings);
    } catch (error) {
      if (error.status === 503 && error.problem.code === 'too_many_uploads') {
        item.verdict.textContent = 'Waiting for a free upload slot';
        attempt -= 1;
        await pause(Math.max(1, error.retryAfter));
        continue;
      }
      if (unanswered(error) && attempt < attempts) {
        item.verdict.textContent = 'No answer: trying again';
        await pause(Math.max(1, error.retryAfter ?? 0) * attempt);
        continue;
      }
      const { title, advice, detail, fields: problems } = explain(error.problem);
      item.progress.value = 0;
      if (unanswered(error)) {
        // Not refused for what it is: it waits, with its key, for the next Upload.
        showVerdict(item, 'refused', `No answer: ${title}`, detail, 'Press Upload to send it again: it is stored once either way.');
        item.state = 'waiting';
        return;
      }
      return showVerdict(item, 'refused', `Refused: ${title}`, detail, ...problems, advice);
    }
  }
}

/** The upload area for group `groupId`; `uploaded()` runs after a batch in which at least one file was kept. */
export function uploader(groupId, uploaded) {
  let items = [];
  const input = h('input', { type: 'file', accept: 'image/png,image/apng,image/webp,image/gif,image/jpeg', multiple: true, id: 'upload-files' });
  const staged = h('ol', { class: 'staged-list', 'aria-label': 'Files to upload' });
  const summary = h('p', { class: 'summary', 'aria-live': 'polite' });
  const start = h('button', { type: 'submit', class: 'primary', disabled: true }, 'Upload');
  const form = h('form', { class: 'card upload', 'aria-labelledby': 'upload-title' },
    h('h2', { id: 'upload-title' }, 'Add stickers'),
    h('div', { class: 'dropzone' },
      h('p', {}, 'Drop PNG, APNG, WebP, GIF or JPEG files here, or '),
      h('label', { for: 'upload-files', class: 'button' }, 'choose files'),
      input,
      h('p', { class: 'hint' }, 'Each file: PNG, APNG, WebP, GIF or JPEG (opaque), 300 to 618 pixels a side (@3x), at most 500 KB, 10 s and 100 frames.')),
    staged, summary, start);
  const stage = (files) => {
    const pngs = [...files];
    items = items.filter((item) => item.state === 'waiting').concat(pngs.map((file, i) => stagedItem(file, items.length + i)));
    staged.replaceChildren(...items.map((item) => item.element));
    start.disabled = items.length === 0;
    start.textContent = `Upload ${items.length} sticker${items.length === 1 ? '' : 's'}`;
    summary.textContent = `${items.length} file${items.length === 1 ? '' : 's'} ready.`;
  };
  input.addEventListener('change', () => { stage(input.files); input.value = ''; });
  const zone = form.querySelector('.dropzone');
  zone.addEventListener('dragover', (event) => { event.preventDefault(); zone.classList.add('over'); });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => { event.preventDefault(); zone.classList.remove('over'); stage(event.dataTransfer.files); });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const batch = items.filter((item) => item.state === 'waiting');
    if (batch.length === 0) return;
    start.disabled = true;
    let finished = 0;
    const count = () => { summary.textContent = `${finished} of ${batch.length} uploaded`; };
    count();
    const queue = [...batch];
    await Promise.all(Array.from({ length: Math.min(parallel, queue.length) }, async () => {
      for (let item = queue.shift(); item; item = queue.shift()) { await send(groupId, item); finished += 1; count(); }
    }));
    const kept = batch.filter((item) => item.state === 'kept').length;
    summary.textContent = `${finished} of ${batch.length} uploaded: ${kept} kept, ${batch.length - kept} refused.`;
    status(summary.textContent, kept === batch.length ? 'ok' : 'error');
    start.textContent = 'Upload';
    start.disabled = !items.some((item) => item.state === 'waiting');
    if (kept > 0) await uploaded();
  });
  return form;
}
