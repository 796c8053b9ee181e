/**
 * A NetBox 3.x REST API (or another netledger's) read with a token: every object of a
 * list endpoint in its complete JSON form, pages read several at a time.
 */
export interface SourceApiOptions {
  /** Base URL, e.g. https://netbox.example (with or without /api). */
  url: string;
  token: string;
  /** Objects per page (NetBox's MAX_PAGE_SIZE caps it; 1000 is its default cap). */
  pageSize?: number;
  /** Pages read at once. */
  parallel?: number;
  fetch?: typeof fetch;
}

export class SourceApiError extends Error {}

export class SourceApi {
  readonly base: string;
  private readonly pageSize: number;
  private readonly parallel: number;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: SourceApiOptions) {
    this.base = options.url.replace(/\/+$/, '').replace(/\/api$/, '');
    this.pageSize = options.pageSize ?? 1000;
    this.parallel = options.parallel ?? 4;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** GET /api/<route> as JSON; a 404 is null (an endpoint this source does not serve). */
  async get(route: string): Promise<unknown> {
    const url = route.startsWith('http') ? route : `${this.base}/api/${route.replace(/^\/+/, '')}`;
    const response = await this.fetchImpl(url, {
      headers: { Authorization: `Token ${this.options.token}`, Accept: 'application/json' },
    });
    if (response.status === 404) return null;
    if (!response.ok)
      throw new SourceApiError(`GET ${url}: ${response.status} ${(await response.text()).slice(0, 300)}`);
    return response.json();
  }

  /**
   * Every object of a list endpoint (`dcim/devices`), ordered by id. Null when the
   * source does not serve it. `onPage` hears the count so far and the total.
   */
  async list(
    path: string,
    onPage?: (read: number, total: number) => void,
    extra = '',
  ): Promise<Array<Record<string, unknown>> | null> {
    const first = (await this.get(`${path}/?limit=${this.pageSize}&offset=0&ordering=id${extra}`)) as Page | null;
    if (!first) return null;
    const total = first.count;
    const pages: Array<Array<Record<string, unknown>>> = [first.results];
    let read = first.results.length;
    onPage?.(read, total);
    const offsets: number[] = [];
    for (let offset = first.results.length; offset < total && first.results.length > 0; offset += this.pageSize)
      offsets.push(offset);
    let next = 0;
    const worker = async () => {
      while (next < offsets.length) {
        const index = next++;
        const page = (await this.get(
          `${path}/?limit=${this.pageSize}&offset=${offsets[index]}&ordering=id${extra}`,
        )) as Page;
        pages[index + 1] = page.results;
        read += page.results.length;
        onPage?.(read, total);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.parallel, offsets.length) }, worker));
    const all = pages.flat();
    // Objects created while paging may shift the pages: keep each id once.
    const seen = new Set<number>();
    return all
      .filter((o) => !seen.has(Number(o.id)) && seen.add(Number(o.id)))
      .sort((a, b) => Number(a.id) - Number(b.id));
  }
}

interface Page {
  count: number;
  results: Array<Record<string, unknown>>;
}
