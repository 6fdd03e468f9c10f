// The console's shell: sign-in, the sections, and routing by the URL's hash (#/groups, #/groups/ID...).
import { session, request, ApiError } from './api.js';
import { h, replace, field } from './dom.js';
import { status, clearStale } from './status.js';
import * as groups from './groups.js';
import * as group from './group.js';
import * as preview from './preview.js';
import * as filters from './filters.js';
import * as purchases from './purchases.js';
import * as webhooks from './webhooks.js';
import * as exporting from './export.js';
import * as releases from './releases.js';
import * as stats from './stats.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const signOutButton = document.getElementById('sign-out');

const routes = [
  [/^\/groups$/, groups.render],
  [/^\/groups\/([a-z0-9-]+)$/, group.render],
  [/^\/preview$/, preview.render],
  [/^\/filters$/, filters.render],
  [/^\/purchases$/, purchases.render],
  [/^\/webhooks$/, webhooks.render],
  [/^\/export$/, exporting.render],
  [/^\/releases$/, releases.render],
  [/^\/stats$/, stats.render],
];

function signedIn(yes) {
  nav.hidden = !yes;
  signOutButton.hidden = !yes;
}

function showSignIn(message) {
  signedIn(false);
  const token = h('input', { type: 'password', name: 'token', autocomplete: 'off', required: true, minlength: 16 });
  const error = h('p', { class: 'error', role: 'alert', id: 'sign-in-error' }, message ?? '');
  const form = h('form', { class: 'card sign-in', 'aria-labelledby': 'sign-in-title' },
    h('h1', { id: 'sign-in-title', tabindex: '-1' }, 'Sign in'),
    h('p', {}, 'Paste an admin token: STICKER_ADMIN_TOKEN, or one made by "stickerd token create --name NAME". ',
      'It is kept in this tab only and forgotten when the tab closes.'),
    field('Admin token', token),
    error,
    h('button', { type: 'submit', class: 'primary' }, 'Sign in'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    session.signIn(token.value.trim());
    try {
      await request('GET', '/v1/admin/groups?limit=1', undefined, { signIn: true });
      status('Signed in.', 'ok');
      if (!location.hash.startsWith('#/') || location.hash === '#/sign-in') location.hash = '#/groups';
      else route();
    } catch (failure) {
      session.signOut();
      error.textContent = failure instanceof ApiError && failure.status === 401
        ? 'That token was refused. Check it and try again.'
        : `Signing in failed: ${failure.message}`;
      token.focus();
    }
  });
  replace(main, form);
  token.focus();
}

/** Renders the screen the hash names; the sign-in form while no token is kept. */
export async function route() {
  if (!session.token) return showSignIn();
  signedIn(true);
  const [path, query] = (location.hash.startsWith('#/') ? location.hash.slice(1) : '/groups').split('?');
  const params = new URLSearchParams(query ?? '');
  for (const link of nav.querySelectorAll('a')) {
    if (path.startsWith(link.getAttribute('href').slice(1))) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  for (const [pattern, render] of routes) {
    const match = pattern.exec(path);
    if (!match) continue;
    clearStale();
    replace(main);
    await render(main, { params, match });
    main.querySelector('h1')?.setAttribute('tabindex', '-1');
    return;
  }
  location.hash = '#/groups';
}

signOutButton.addEventListener('click', () => {
  session.signOut();
  status('Signed out.', 'ok');
  showSignIn();
});
window.addEventListener('console:unauthorized', () => {
  session.signOut();
  showSignIn('Your token is no longer accepted: sign in again.');
});
window.addEventListener('hashchange', () => { if (location.hash.startsWith('#/')) route(); });
route();
