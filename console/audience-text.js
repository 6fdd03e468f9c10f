// An audience in a few words, for the group list, the Audience panel and the export's group picker:
// "Everyone", or its conditions joined by " · " such as "CA, US · iOS · ≥2.3 · 10%".

const platformNames = { ios: 'iOS', android: 'Android', web: 'Web' };

/** How a platform name reads: iOS, Android, Web, or the name itself. */
export function platformLabel(name) {
  return platformNames[name] ?? name;
}

/** A percentage with at most one decimal: 12.5%, 10%. */
export function percentText(value) {
  return `${Math.round(value * 10) / 10}%`;
}

/** Whether `audience` restricts anyone: null, absent or without a condition is everyone. */
export function restricted(audience) {
  if (!audience) return false;
  const { countries, platforms, appVersions, percentage } = audience;
  return Boolean(countries?.length || platforms?.length || appVersions?.minimum || appVersions?.maximum)
    || (percentage !== undefined && percentage !== null);
}

/** The versions range: "2.3–3.1", "≥2.3" or "≤3.1"; '' for none. */
export function versionsText(range) {
  const { minimum, maximum } = range ?? {};
  if (minimum && maximum) return `${minimum}–${maximum}`;
  if (minimum) return `≥${minimum}`;
  return maximum ? `≤${maximum}` : '';
}

/** Who sees a group with `audience`, in one short line; countries sorted, more than `most` of them counted. */
export function summary(audience, most = 6) {
  if (!restricted(audience)) return 'Everyone';
  const parts = [];
  const countries = [...(audience.countries ?? [])].sort();
  if (countries.length > most) parts.push(`${countries.slice(0, most).join(', ')} +${countries.length - most}`);
  else if (countries.length) parts.push(countries.join(', '));
  if (audience.platforms?.length) parts.push(audience.platforms.map(platformLabel).join(', '));
  const versions = versionsText(audience.appVersions);
  if (versions) parts.push(versions);
  if (audience.percentage !== undefined && audience.percentage !== null) parts.push(percentText(audience.percentage));
  return parts.join(' · ');
}

/** The same in full sentence form, for a tooltip or a screen reader. */
export function description(audience) {
  if (!restricted(audience)) return 'Everyone sees this group.';
  const parts = [];
  if (audience.countries?.length) parts.push(`in ${[...audience.countries].sort().join(', ')}`);
  if (audience.platforms?.length) parts.push(`on ${audience.platforms.map(platformLabel).join(' or ')}`);
  const versions = versionsText(audience.appVersions);
  if (versions) parts.push(`with app version ${versions}`);
  if (audience.percentage !== undefined && audience.percentage !== null) {
    parts.push(`within ${percentText(audience.percentage)} of installations`);
  }
  return `Only callers ${parts.join(', ')} see this group.`;
}
