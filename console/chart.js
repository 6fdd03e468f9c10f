// A bar chart of counts per day, as inline SVG built with DOM calls: no library, nothing from another origin, and
// nothing the Content-Security-Policy blocks (colours and fonts come from console.css classes, never a style attribute).
// Bars rather than a line: each day is a separate count, and a day with none should read as a gap, not a slope.

const svgNS = 'http://www.w3.org/2000/svg';

/** s('rect', {x: 1}, child...) makes an SVG element, as h() does an HTML one (every value set as text). */
function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(svgNS, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null) element.setAttribute(key, String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) element.append(child);
  return element;
}

/** Round y-axis values from 0 to at least `max`: steps of 1, 2 or 5 × 10ⁿ, about `wanted` of them, whole numbers
 * only (counts are), so the gridlines fall where a reader can add them up at a glance. */
export function yTicks(max, wanted = 4) {
  if (max <= 0) return [0, 1];
  const rough = max / wanted;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * power).find((m) => m >= rough));
  const ticks = [0];
  while (ticks.at(-1) < max) ticks.push(ticks.at(-1) + step);
  return ticks;
}

/** Every how many days a label fits without overlapping (`room` px each), in steps that read as a calendar. */
export function labelStep(days, plotWidth, room = 58) {
  const needed = Math.ceil((days * room) / plotWidth);
  return [1, 2, 3, 7, 14, 28, 56, 91, 182, 364].find((step) => step >= needed) ?? needed;
}

// Days are UTC dates ("2026-11-03"): formatted in UTC, or a reader west of Greenwich would see the day before.
const dayOf = (day) => new Date(`${day}T00:00:00Z`);
const short = (day, year) => dayOf(day).toLocaleDateString(undefined,
  { month: 'short', day: 'numeric', year: year ? 'numeric' : undefined, timeZone: 'UTC' });
const long = (day) => dayOf(day).toLocaleDateString(undefined,
  { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });

/** The chart of `counts` (one per day of `days`), `width` × `height` px: a bar per day whose tooltip says the day and
 * its count, the peak's count written above it, a y axis with round ticks, day labels thinned to fit (the last day
 * always labelled: it is the one people look for), and `title` and `description` for screen readers. `unit` names
 * what is counted in tooltips ("sent"). */
export function barChart({ days, counts, title, description, unit, width = 720, height = 260 }) {
  // A period across New Year names the years, or "Nov 1" at both ends would read as the same day; the longer last
  // label, centred under the last bar, needs more room on the right.
  const years = days[0].slice(0, 4) !== days.at(-1).slice(0, 4);
  const margin = { top: 22, right: years ? 44 : 30, bottom: 34, left: 46 };
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = height - margin.top - margin.bottom;
  const max = Math.max(0, ...counts);
  const ticks = yTicks(max);
  const y = (value) => margin.top + plotHeight - (value / ticks.at(-1)) * plotHeight;
  const baseline = y(0);
  const slot = plotWidth / days.length;
  // Gaps between bars while there is room for them; a year of days packs them side by side.
  const barWidth = slot >= 4 ? slot * 0.7 : Math.max(slot - 0.5, 0.5);
  const centre = (index) => margin.left + slot * (index + 0.5);
  const id = 'chart-' + Math.random().toString(36).slice(2, 10);

  const svg = s('svg', {
    class: 'chart', role: 'img', viewBox: `0 0 ${width} ${height}`, width, height,
    'aria-labelledby': `${id}-title ${id}-desc`,
  }, s('title', { id: `${id}-title` }, title), s('desc', { id: `${id}-desc` }, description));

  const grid = s('g', { class: 'y-axis' });
  for (const tick of ticks) {
    grid.append(s('line', { class: tick === 0 ? 'axis' : 'grid', x1: margin.left, x2: width - margin.right, y1: y(tick), y2: y(tick) }),
      s('text', { x: margin.left - 8, y: y(tick) + 4, 'text-anchor': 'end' }, tick.toLocaleString()));
  }
  svg.append(grid, s('line', { class: 'axis', x1: margin.left, x2: margin.left, y1: margin.top, y2: baseline }));

  const peak = counts.indexOf(max);
  const bars = s('g', { class: 'bars' });
  counts.forEach((count, index) => {
    // The whole column answers the pointer, so a day with no bar (a zero) still shows its tooltip.
    bars.append(s('g', { class: 'day' }, s('title', {}, `${long(days[index])}: ${count.toLocaleString()} ${unit}`),
      s('rect', { class: 'hit', x: margin.left + slot * index, y: margin.top, width: slot, height: plotHeight }),
      s('rect', {
        class: index === peak && max > 0 ? 'bar peak' : 'bar', x: centre(index) - barWidth / 2, y: y(count),
        width: barWidth, height: baseline - y(count), 'data-day': days[index], 'data-count': count,
      })));
  });
  svg.append(bars);
  if (max > 0) {
    svg.append(s('text', { class: 'peak-label', x: centre(peak), y: y(max) - 6, 'text-anchor': 'middle' }, max.toLocaleString()));
  } else {
    svg.append(s('text', { class: 'empty', x: margin.left + plotWidth / 2, y: margin.top + plotHeight / 2, 'text-anchor': 'middle' },
      `Nothing ${unit} in this period`));
  }

  const step = labelStep(days.length, plotWidth, years ? 86 : 58);
  const labels = s('g', { class: 'x-axis' });
  for (let index = days.length - 1; index >= 0; index -= step) {
    labels.append(s('line', { class: 'axis', x1: centre(index), x2: centre(index), y1: baseline, y2: baseline + 4 }),
      s('text', { class: 'day-label', x: centre(index), y: baseline + 18, 'text-anchor': 'middle' }, short(days[index], years)));
  }
  svg.append(labels);
  return svg;
}
