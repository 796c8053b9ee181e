/**
 * Where an import reads the source's media files: from the URL its API shows (the
 * source's own media, with its token), or from a copy of NetBox's MEDIA_ROOT for a
 * NetBox whose media a token does not reach (`--media-dir`). Either way a file is read
 * only up to a size cap.
 */
import { open } from 'node:fs/promises';
import path from 'node:path';

/** A file that cannot be read, and why (for the operator's list). */
export class MediaUnreadableError extends Error {}

export interface MediaReader {
  /** The file a field's URL (absolute, or relative to the source) names; at most `maxBytes`. */
  read(url: string, maxBytes: number): Promise<Buffer>;
}

/**
 * Files fetched over HTTP. The token goes only to the source's own origin: a URL of
 * another host (a CDN in front of NetBox's media) is fetched without it.
 */
export function httpMedia(base: string, token: string, fetchImpl: typeof fetch = fetch): MediaReader {
  const origin = new URL(base).origin;
  return {
    async read(url, maxBytes) {
      const target = new URL(url, `${base.replace(/\/+$/, '')}/`);
      const headers: Record<string, string> = target.origin === origin ? { Authorization: `Token ${token}` } : {};
      let response: Response;
      try {
        response = await fetchImpl(target, { headers, redirect: 'follow' });
      } catch (error) {
        throw new MediaUnreadableError(`GET ${target.href}: ${(error as Error).message}`);
      }
      // NetBox with LOGIN_REQUIRED sends a request without a session to its login page, token or not.
      if (response.redirected && /\/login\/?$/.test(new URL(response.url).pathname)) {
        await response.body?.cancel();
        throw new MediaUnreadableError(
          `GET ${target.href}: redirected to the login page (a NetBox with LOGIN_REQUIRED serves media to a session only: use --media-dir)`,
        );
      }
      if (!response.ok) {
        await response.body?.cancel();
        throw new MediaUnreadableError(`GET ${target.href}: ${response.status}`);
      }
      if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
        await response.body?.cancel();
        throw new MediaUnreadableError(`GET ${target.href}: larger than ${maxBytes} bytes`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body ?? []) {
        size += (chunk as Uint8Array).length;
        if (size > maxBytes) throw new MediaUnreadableError(`GET ${target.href}: larger than ${maxBytes} bytes`);
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
      return Buffer.concat(chunks);
    },
  };
}

/**
 * Files read from a copy of NetBox's MEDIA_ROOT: the URL's path after `/media/` (NetBox's
 * MEDIA_URL) names the file under `directory`; nothing outside it is ever read.
 */
export function mediaDirectory(directory: string): MediaReader {
  const root = path.resolve(directory);
  return {
    async read(url, maxBytes) {
      const pathname = new URL(url, 'http://source.invalid/').pathname;
      const at = pathname.indexOf('/media/');
      if (at < 0) throw new MediaUnreadableError(`${url}: not under /media/`);
      const file = path.resolve(root, decodeURIComponent(pathname.slice(at + '/media/'.length)));
      if (!file.startsWith(`${root}${path.sep}`)) throw new MediaUnreadableError(`${url}: outside the media directory`);
      let handle;
      try {
        handle = await open(file, 'r');
      } catch (error) {
        throw new MediaUnreadableError(`${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      try {
        const { size, isFile } = await handle.stat().then((s) => ({ size: s.size, isFile: s.isFile() }));
        if (!isFile) throw new MediaUnreadableError(`${file}: not a file`);
        if (size > maxBytes) throw new MediaUnreadableError(`${file}: larger than ${maxBytes} bytes`);
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    },
  };
}
