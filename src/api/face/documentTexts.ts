import { stringify as toYaml } from 'yaml';

/** Base URLs differ by Host header; a few are kept so a client varying it cannot grow memory. */
const MAX_CACHED = 16;

/**
 * The JSON and YAML texts of a schema document, made once per key (format, version and base
 * URL) and kept: the documents are megabytes and the same for every request with that key.
 */
export function documentTexts() {
  const texts = new Map<string, string>();
  const cached = (key: string, make: () => string) => {
    let text = texts.get(key);
    if (text === undefined) {
      if (texts.size >= MAX_CACHED) texts.delete(texts.keys().next().value!);
      texts.set(key, (text = make()));
    }
    return text;
  };
  return {
    json: (key: string, document: () => unknown) => cached(`json ${key}`, () => JSON.stringify(document())),
    yaml: (key: string, document: () => unknown) =>
      cached(`yaml ${key}`, () => toYaml(document(), { aliasDuplicateObjects: false, lineWidth: 0 })),
  };
}
