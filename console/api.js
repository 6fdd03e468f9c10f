// The public admin API, with the token the user signed in with (kept in sessionStorage: gone with the tab, never in
// a URL or a cookie). A 401 anywhere signs out.

const tokenKey = 'stickercatalog.adminToken';

export const session = {
  get token() { return sessionStorage.getItem(tokenKey); },
  signIn(token) { sessionStorage.setItem(tokenKey, token); },
  signOut() { sessionStorage.removeItem(tokenKey); },
};

/** An answer that is not 2xx: `problem` is its application/problem+json body (or one made up for it). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** A random key, so that a write retried after a lost answer is applied once: a retry must send the same key. */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return 'console-' + Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function headers(extra = {}) {
  const result = { Accept: 'application/json', ...extra };
  if (session.token) result.Authorization = `Bearer ${session.token}`;
  return result;
}

async function problemOf(response) {
  try { return await response.json(); } catch { return { code: 'http_' + response.status, title: response.statusText, detail: '' }; }
}

function signedOut(status) {
  if (status === 401) window.dispatchEvent(new CustomEvent('console:unauthorized'));
}

/** `method path` with an optional JSON body; resolves to the JSON answer (null for 204). `signIn`: a 401 only
 * throws (the sign-in form says the token was refused) instead of ending the session. */
export async function request(method, path, body, { anonymous = false, signIn = false } = {}) {
  const extra = body === undefined ? {} : { 'Content-Type': 'application/json' };
  if (method !== 'GET') extra['Idempotency-Key'] = idempotencyKey();
  const init = { method, headers: anonymous ? { Accept: 'application/json' } : headers(extra), cache: 'no-cache' };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  if (!response.ok) {
    if (!anonymous && !signIn) signedOut(response.status);
    throw new ApiError(response.status, await problemOf(response));
  }
  return response.status === 204 ? null : response.json();
}

/** Uploads one file into a group with XMLHttpRequest (fetch reports no upload progress); `progress(0...1)`. `key`
 * is the file's Idempotency-Key, the same on every attempt, so that an upload whose answer was lost is stored once. */
export function upload(groupId, file, fields, progress, key) {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    for (const [key, value] of Object.entries(fields)) if (value !== '') form.append(key, value);
    form.append('file', file, file.name);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/v1/admin/groups/${encodeURIComponent(groupId)}/stickers`);
    for (const [name, value] of Object.entries(headers({ 'Idempotency-Key': key }))) xhr.setRequestHeader(name, value);
    xhr.upload.addEventListener('progress', (event) => { if (event.lengthComputable) progress(event.loaded / event.total); });
    xhr.addEventListener('load', () => {
      let body = {};
      try { body = JSON.parse(xhr.responseText); } catch { body = { code: 'http_' + xhr.status, detail: xhr.statusText }; }
      if (xhr.status === 201) return resolve(body);
      signedOut(xhr.status);
      const error = new ApiError(xhr.status, body);
      error.retryAfter = Number(xhr.getResponseHeader('Retry-After')) || 0;
      reject(error);
    });
    xhr.addEventListener('error', () => reject(new ApiError(0, { code: 'network', title: 'Network error', detail: 'The service could not be reached.' })));
    xhr.send(form);
  });
}

/** The manifest as a client gets it: anonymous, or as `user` sees it (through the admin API); at moment `at` (RFC 3339)
 * with what is scheduled now, or as a `caller` (country, platform, appVersion, bucket: groups with an audience),
 * through the admin API's preview. */
export function manifest(query, user, at, caller = {}) {
  const facts = Object.entries(caller).filter(([, value]) => value !== '' && value !== undefined);
  if (at || facts.length) {
    const all = { ...query, ...Object.fromEntries(facts), at: at ?? '', user: user ?? '' };
    const params = new URLSearchParams(Object.entries(all).filter(([, value]) => value !== ''));
    return request('GET', `/v1/admin/manifest?${params}`);
  }
  const search = new URLSearchParams(Object.entries(query).filter(([, value]) => value !== '')).toString();
  const suffix = search ? '?' + search : '';
  return user
    ? request('GET', `/v1/admin/users/${encodeURIComponent(user)}/manifest${suffix}`)
    : request('GET', `/v1/manifest${suffix}`, undefined, { anonymous: true });
}

/** Search as an anonymous client with the same view: `q` and the view's parameters; premium results come locked. */
export function search(q, query) {
  const params = new URLSearchParams(Object.entries({ q, ...query }).filter(([, value]) => value !== ''));
  return request('GET', `/v1/search?${params}`, undefined, { anonymous: true });
}

/** Up to ten completions of `prefix` for the search box. */
export function suggestions(prefix, locale) {
  const params = new URLSearchParams(Object.entries({ q: prefix, locale }).filter(([, value]) => value !== ''));
  return request('GET', `/v1/search/suggestions?${params}`, undefined, { anonymous: true });
}

/** Downloads what `path` answers (a zip, or the media type `accept` names) as a file named by its Content-Disposition
 * (else `fallback`): the bytes and the name. Through fetch, not a link, because the token goes in a header. */
export async function download(path, accept = 'application/zip', fallback = 'stickers.zip') {
  const response = await fetch(path, { headers: headers({ Accept: `${accept}, application/problem+json` }), cache: 'no-store' });
  if (!response.ok) {
    signedOut(response.status);
    throw new ApiError(response.status, await problemOf(response));
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? fallback;
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60000);
  return { name, bytes: blob.size };
}
