/**
 * Adds a model definition to src/models/index.ts: its import, in path order, and its name
 * at the end of its app's section of `allModels` (a new section when the app has none).
 */

export interface Registration {
  /** The exported const, e.g. 'contactrole'. */
  exportName: string;
  /** The URL app, which names the section, e.g. 'tenancy'. */
  app: string;
  /** The model file's name without extension, e.g. 'contactrole'. */
  file: string;
}

/** The index text with the model registered; unchanged when it is registered already. */
export function registerModel(indexText: string, { exportName, app, file }: Registration): string {
  const importLine = `import { ${exportName} } from './${app}/${file}.js';`;
  if (indexText.includes(importLine)) return indexText;
  const lines = indexText.split('\n');

  const modulePath = (line: string) => /from '([^']+)'/.exec(line)?.[1] ?? '';
  const imports = lines
    .map((line, i) => ({ line, i }))
    .filter(({ line }) => /^import \{ \w+ \} from '\.\/\w+\/\w+\.js';$/.test(line));
  if (!imports.length) throw new Error('src/models/index.ts: no model imports found');
  const after = imports.filter(({ line }) => modulePath(line).localeCompare(modulePath(importLine)) < 0);
  lines.splice((after.length ? after[after.length - 1].i : imports[0].i - 1) + 1, 0, importLine);

  const start = lines.findIndex((line) => /^export const allModels\b/.test(line));
  const end = lines.findIndex((line, i) => i > start && line === '];');
  if (start < 0 || end < 0) throw new Error('src/models/index.ts: no allModels list found');
  const section = lines.findIndex((line, i) => i > start && i < end && line.trim() === `// ${app}`);
  if (section < 0) {
    lines.splice(end, 0, `  // ${app}`, `  ${exportName},`);
  } else {
    let last = section;
    while (last + 1 < end && /^\s+\w+,$/.test(lines[last + 1])) last++;
    lines.splice(last + 1, 0, `  ${exportName},`);
  }
  return lines.join('\n');
}
