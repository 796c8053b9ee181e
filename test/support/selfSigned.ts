import { spawnSync } from 'node:child_process';
import { isIP } from 'node:net';
import path from 'node:path';

/** A self-signed certificate for `host` (an IP or a DNS name), made by openssl in `dir`; null where openssl is missing. */
export function selfSigned(dir: string, host = '127.0.0.1'): { key: string; cert: string } | null {
  const key = path.join(dir, 'key.pem');
  const cert = path.join(dir, 'cert.pem');
  const name = `${isIP(host) ? 'IP' : 'DNS'}:${host}`;
  const made = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      `/CN=${host}`,
      '-addext',
      `subjectAltName=${name}`,
    ],
    { stdio: 'ignore' },
  );
  return made.status === 0 ? { key, cert } : null;
}
