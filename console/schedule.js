// Schedules in the console: RFC 3339 moments shown and entered in the browser's own time zone (datetime-local).

/** `iso` (RFC 3339) as a datetime-local input's value in local time, to the second; '' for none. */
export function localInput(iso) {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** A datetime-local input's value (local time) as RFC 3339 in UTC; null for empty. */
export function moment(value) {
  return value ? new Date(value).toISOString() : null;
}

/** Where a group stands today: a draft, scheduled, live, or ended. */
export function visibility(group, now = new Date()) {
  if (!group.published) return { label: 'Draft', live: false };
  if (group.publishAt && new Date(group.publishAt) > now) return { label: `Scheduled: ${new Date(group.publishAt).toLocaleString()}`, live: false };
  if (group.unpublishAt && new Date(group.unpublishAt) <= now) return { label: `Ended: ${new Date(group.unpublishAt).toLocaleString()}`, live: false };
  if (group.unpublishAt) return { label: `Live until ${new Date(group.unpublishAt).toLocaleString()}`, live: true };
  return { label: 'Published', live: true };
}
