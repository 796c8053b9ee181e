/**
 * A small strict reader of XML documents for tests (no DTDs, CDATA or processing
 * instructions beyond the declaration): it checks the document is well formed (one root,
 * every tag closed in order, attributes quoted and unique, text and attribute values
 * free of raw '<' and of unknown entities) and returns its elements and texts.
 */

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  /** The text directly inside it, entities decoded. */
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const NAME = /^[A-Za-z_][\w.:-]*$/;

function decode(raw: string, where: string): string {
  if (raw.includes('<')) throw new Error(`raw '<' in ${where}`);
  return raw.replace(/&([^;]*);?/g, (match, entity: string) => {
    if (!match.endsWith(';')) throw new Error(`unterminated entity in ${where}`);
    if (entity in ENTITIES) return ENTITIES[entity];
    if (/^#\d+$/.test(entity)) return String.fromCodePoint(Number(entity.slice(1)));
    if (/^#x[0-9a-fA-F]+$/.test(entity)) return String.fromCodePoint(parseInt(entity.slice(2), 16));
    throw new Error(`unknown entity &${entity}; in ${where}`);
  });
}

function parseAttributes(source: string, tag: string): Record<string, string> {
  const attributes: Record<string, string> = {};
  let rest = source.trim();
  while (rest) {
    const m = /^([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')\s*/.exec(rest);
    if (!m || !NAME.test(m[1])) throw new Error(`bad attribute in <${tag}>: ${rest.slice(0, 40)}`);
    if (m[1] in attributes) throw new Error(`attribute ${m[1]} repeated in <${tag}>`);
    attributes[m[1]] = decode(m[3] ?? m[4], `attribute ${m[1]} of <${tag}>`);
    rest = rest.slice(m[0].length);
  }
  return attributes;
}

/** The elements in document order; throws on the first sign of a malformed document. */
export function readXml(document: string): XmlElement[] {
  const elements: XmlElement[] = [];
  const open: XmlElement[] = [];
  let rootClosed = false;
  let i = 0;
  const body = document.replace(/^<\?xml[^?]*\?>/, '');
  while (i < body.length) {
    const lt = body.indexOf('<', i);
    const text = body.slice(i, lt === -1 ? body.length : lt);
    if (text.trim()) {
      if (open.length === 0) throw new Error(`text outside the root: ${text.trim().slice(0, 40)}`);
      open[open.length - 1].text += decode(text, `<${open[open.length - 1].name}>`);
    }
    if (lt === -1) break;
    if (body.startsWith('<!--', lt)) {
      const end = body.indexOf('-->', lt);
      if (end === -1) throw new Error('unterminated comment');
      i = end + 3;
      continue;
    }
    const gt = body.indexOf('>', lt);
    if (gt === -1) throw new Error('unterminated tag');
    const tag = body.slice(lt + 1, gt);
    i = gt + 1;
    if (tag.startsWith('/')) {
      const name = tag.slice(1).trim();
      const top = open.pop();
      if (!top || top.name !== name) throw new Error(`</${name}> closes <${top?.name ?? 'nothing'}>`);
      if (open.length === 0) rootClosed = true;
      continue;
    }
    const selfClosing = tag.endsWith('/');
    const inner = selfClosing ? tag.slice(0, -1) : tag;
    const name = /^\S+/.exec(inner)?.[0] ?? '';
    if (!NAME.test(name)) throw new Error(`bad element name <${name}>`);
    if (rootClosed || (open.length === 0 && elements.length > 0)) throw new Error('more than one root element');
    const element = { name, attributes: parseAttributes(inner.slice(name.length), name), text: '' };
    elements.push(element);
    if (!selfClosing) open.push(element);
    else if (open.length === 0) rootClosed = true;
  }
  if (open.length > 0) throw new Error(`<${open[open.length - 1].name}> is never closed`);
  if (elements.length === 0) throw new Error('no root element');
  return elements;
}
