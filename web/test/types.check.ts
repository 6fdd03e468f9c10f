// Compiled by tsc --noEmit only: the declarations are usable as a page would use them.
import { StickerCatalog, picture, debounced, CatalogError } from '../stickers.js';

const catalog = new StickerCatalog({ baseURL: 'https://s.example', token: () => undefined, facts: { platform: 'web' } });
catalog.addEventListener('change', () => {});
void catalog.open().then(async () => {
  const group = await catalog.group('chewy');
  const element: HTMLPictureElement = picture(group.stickers[0], { scale: 2 });
  document.body.append(element);
  const search = debounced((q, o) => catalog.search(q, o));
  const results = await search('cookie');
  results.forEach((r) => r.locked && r.productId?.length);
  catalog.record(group.stickers[0].id, 'sent');
}).catch((e: unknown) => e instanceof CatalogError && e.kind === 'unavailable');
