// The one status line every screen reports to, read out by screen readers (role="status").
import { sentence } from './verdicts.js';

const line = () => document.getElementById('status');
let shownAt = 0;

/** Shows `message`; kind is "ok", "error" or "info". */
export function status(message, kind = 'info') {
  const element = line();
  element.textContent = message;
  element.className = kind;
  shownAt = Date.now();
}

/** Clears a message shown on an earlier screen (one from the step that led here, under 2 s old, stays). */
export function clearStale() {
  if (Date.now() - shownAt > 2000) line().textContent = '';
}

/** Shows what went wrong with an API call in plain words (nothing for a 401: that signs out). */
export function failed(error, doing) {
  if (error.status === 401) return;
  status(`${doing} failed. ${error.problem ? sentence(error.problem) : error.message}`, 'error');
}
