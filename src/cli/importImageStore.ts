/**
 * The import's ImageStore (src/migration/carryFiles.ts) on this process's ledger: files
 * are checked and stored exactly as the service's uploads are (src/api/extras/), under
 * the data directory, before the import's write names them.
 */
import { offerImageBytes, withdrawOffered } from '../api/extras/offerUploadedImage.js';
import type { Ledger } from '../ledger/openLedger.js';
import type { ImageStore } from '../migration/carryFiles.js';

export function importImageStore(ledger: Ledger, logger: (entry: Record<string, unknown>) => void): ImageStore {
  const { config, registry, store } = ledger;
  return {
    // A file as large as the service takes in an upload's request body.
    maxBytes: config.maxBodyBytes,
    offer: (bytes, directory, filename) => offerImageBytes(config.dataDir, 'image', bytes, filename, directory),
    release: (offered, failure) =>
      withdrawOffered({ dataDir: config.dataDir, registry, store, logger }, [...offered], failure),
  };
}
