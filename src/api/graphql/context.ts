import type { Services } from '../Services.js';
import type { RequestReads } from './RequestReads.js';

/** What every resolver of one request is given. */
export interface GraphqlContext {
  services: Services;
  reads: RequestReads;
}
