// Who a client is, for groups with an audience: its country, platform, app version and bucket (its place among
// 1,000 for a percentage rollout). The preview and the export both take them; each empty one is unknown, and a group
// restricted on something unknown is not shown (a percentage shows only at 100% without a bucket).
import { h, field } from './dom.js';
import { byName } from './countries.js';

const platformPattern = '[a-z][a-z0-9\\-]{0,31}';
const versionPattern = '[0-9]{1,6}(\\.[0-9]{1,6}){0,2}';

/** The four inputs, filled from `params` (country, platform, appVersion, bucket: the API's names). `fields` are the
 * labelled controls to lay out, `values()` what to send (blanks left out), `controls` the inputs themselves. */
export function callerInputs(params = new URLSearchParams()) {
  const country = h('select', { name: 'country' }, h('option', { value: '' }, 'Unknown'),
    ...byName().map(([code, name]) => h('option', { value: code, selected: code === params.get('country') },
      `${name} (${code})`)));
  const platform = h('input', {
    name: 'appPlatform', list: 'caller-platforms', pattern: platformPattern, maxlength: 32, autocomplete: 'off',
    placeholder: 'ios, android, web', value: params.get('platform') ?? '',
  });
  const appVersion = h('input', {
    name: 'appVersion', pattern: versionPattern, maxlength: 20, autocomplete: 'off', placeholder: 'e.g. 2.3.1',
    value: params.get('appVersion') ?? '',
  });
  const bucket = h('input', {
    type: 'number', name: 'bucket', min: 0, max: 999, step: 1, inputmode: 'numeric', placeholder: '0 to 999',
    value: params.get('bucket') ?? '',
  });
  const suggestions = h('datalist', { id: 'caller-platforms' },
    ...['ios', 'android', 'web'].map((name) => h('option', { value: name })));
  return {
    controls: { country, platform, appVersion, bucket },
    fields: [
      field('Country', country, 'Unknown: as without a country header.'),
      field('Platform', platform, 'As the app states it.'),
      field('App version', appVersion, 'major[.minor[.patch]]'),
      field('Bucket', bucket, 'The installation\'s place among 1,000: a group at p% shows to buckets below 10 × p.'),
      suggestions,
    ],
    values() {
      const all = {
        country: country.value, platform: platform.value.trim(), appVersion: appVersion.value.trim(),
        bucket: bucket.value.trim(),
      };
      return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== ''));
    },
  };
}

/** `values()` in words for a summary: ", in US, on ios, app 2.3, bucket 0"; '' when none is given. */
export function callerText(values) {
  const parts = [];
  if (values.country) parts.push(`in ${values.country}`);
  if (values.platform) parts.push(`on ${values.platform}`);
  if (values.appVersion) parts.push(`app ${values.appVersion}`);
  if (values.bucket !== undefined) parts.push(`bucket ${values.bucket}`);
  return parts.map((part) => `, ${part}`).join('');
}

/** A caller inside `audience` (its first country and platform, its minimum version, bucket 0), as the preview's URL
 * parameters; {} for everyone. */
export function insideOf(audience) {
  const inside = {};
  if (audience?.countries?.length) inside.country = [...audience.countries].sort()[0];
  if (audience?.platforms?.length) inside.platform = audience.platforms[0];
  const version = audience?.appVersions?.minimum ?? audience?.appVersions?.maximum;
  if (version) inside.appVersion = version;
  if (typeof audience?.percentage === 'number') inside.bucket = '0';
  return inside;
}
