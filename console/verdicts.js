// What each problem code means in plain words, and what to change: the rules shown with every rejection.

const meanings = {
  dimensions_out_of_range: ['Wrong size', 'Resize it so that each side is 300 to 618 pixels (supply it at @3x: 618 x 618 for a large group).'],
  too_large: ['File too big', 'Save it under 500 KB: fewer colours, fewer frames or a smaller size.'],
  unsupported_format: ['Not a sticker image', 'Export it as PNG, APNG, WebP, GIF or JPEG; HEIC, AVIF, SVG and others are not accepted.'],
  corrupt_image: ['Damaged file', 'The image data does not decode. Export it again from your editor.'],
  invalid_animation: ['Broken animation', 'Export the animation again; its frames do not fit together.'],
  too_many_frames: ['Too many frames', 'Use at most 100 frames, and keep all of them under the memory limit.'],
  animation_too_long: ['Animation too long', 'One loop may last at most 10 seconds.'],
  rendition_too_large: ['Too noisy to shrink', 'A resized copy would pass 500 KB: use fewer colours or less noise.'],
  validation_failed: ['Missing or wrong details', 'Check the fields named below.'],
  conflict: ['Already exists', 'Choose another id, or edit the existing one.'],
  not_found: ['Not found', 'It may have been deleted meanwhile; reload.'],
  too_many_uploads: ['Busy', 'Too many uploads at once; it is retried automatically.'],
  database_unavailable: ['Service unavailable', 'The database does not answer; try again in a moment.'],
  unauthorized: ['Not signed in', 'Sign in again with an admin token.'],
  invalid_parameter: ['Invalid value', 'Check the fields named below.'],
  unknown_filter: ['Unknown filter', 'Define the filter first, or pick another.'],
  event_conflict: ['Id already used', 'Another delivery with this id is in the inbox.'],
  not_replayable: ['Cannot be replayed', 'This delivery did not keep what a replay needs.'],
  idempotency_key_reused: ['Changed since the first try', 'The first try may have been stored: reload to check, then stage the file again.'],
};

/** {title, advice, detail, fields} for an API problem: its code's meaning and the API's own detail. */
export function explain(problem) {
  const [title, advice] = meanings[problem.code] ?? [problem.title ?? 'Refused', ''];
  const fields = (problem.errors ?? []).map((e) => `${e.field}: ${e.message}`);
  return { title, advice, detail: problem.detail ?? '', fields };
}

/** One line for a status message: "Wrong size: The image is 618 x 700 pixels; ... Resize it ...". */
export function sentence(problem) {
  const { title, advice, detail, fields } = explain(problem);
  return [title + ':', detail, ...fields, advice].filter((part) => part !== '').join(' ');
}
