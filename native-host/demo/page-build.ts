/**
 * Assembles a {@link PageBuild} from a manifest: text bodies are fixed strings made while the
 * manifest was built (their size is only known then); binary bodies are synthesised on first
 * request from (kind, size, path) and memoised, so a manifest is cheap to build.
 */
import { CorpusPage, CorpusResource, CorpusBody, PageBuild, CONTENT_TYPES } from './corpus-types';
import { fontBytes, gifBytes } from './synth-bytes';

/**
 * @param page the manifest.
 * @param texts the document and every text subresource (CSS/JS), keyed by path. Each string
 *   must be ASCII and exactly the size the manifest declares.
 */
export function makePageBuild(page: CorpusPage, texts: ReadonlyMap<string, string>): PageBuild {
  const byPath = new Map<string, CorpusResource>(page.resources.map((r) => [r.path, r]));
  const cache = new Map<string, CorpusBody>();

  function make(path: string): CorpusBody | undefined {
    const text = texts.get(path);
    if (text !== undefined) {
      const contentType = path === page.path ? CONTENT_TYPES.html : byPath.get(path)?.contentType;
      if (contentType === undefined) return undefined;
      return { contentType, body: Buffer.from(text, 'latin1') };
    }
    const resource = byPath.get(path);
    if (resource === undefined) return undefined;
    // Seeding by path keeps each body independent of build order.
    const body = resource.kind === 'font' ? fontBytes(resource.size, path) : gifBytes(resource.size, path);
    return { contentType: resource.contentType, body };
  }

  return {
    page,
    bodyOf(path: string): CorpusBody | undefined {
      let body = cache.get(path);
      if (body === undefined) {
        body = make(path);
        if (body !== undefined) cache.set(path, body);
      }
      return body;
    },
  };
}
