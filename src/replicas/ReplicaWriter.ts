import {
  type WriteContext,
  WriteCoordinator,
  type WriterHealth,
  type WriteTransaction,
} from '../commands/WriteCoordinator.js';
import { WriterUnavailableError } from '../errors/requestErrors.js';
import type { ChangeEvent } from '../events/ChangeEvent.js';

/**
 * The write side of a read replica: it decides nothing. Writes sent to a replica are
 * forwarded to the writer (or refused) before they reach a view; anything that still
 * gets here (a write made on the replica's own behalf) is refused with 503, never
 * appended to a log this process only follows.
 */
export class ReplicaWriter extends WriteCoordinator {
  override async init(): Promise<void> {}

  /** Up: this process has no writer of its own to be down; the writer's health is the writer's. */
  override health(): WriterHealth {
    return { state: 'up' };
  }

  override execute<T>(
    _context: WriteContext,
    _decide: (tx: WriteTransaction) => Promise<T>,
  ): Promise<{ result: T; events: ChangeEvent[] }> {
    return Promise.reject(new WriterUnavailableError('this is a read replica: writes are made by the writer', 5, true));
  }
}
