/**
 * The choice tables of virtualization models (NetBox keeps them in virtualization/choices.py), one
 * declaration each: a model's file names the table, this file spells it.
 */
import type { Choice } from '../fieldDefinition.js';

/** The life cycle of a virtual machine. */
export const VIRTUAL_MACHINE_STATUS_CHOICES: Choice[] = [
  { value: 'offline', label: 'Offline' },
  { value: 'active', label: 'Active' },
  { value: 'planned', label: 'Planned' },
  { value: 'staged', label: 'Staged' },
  { value: 'failed', label: 'Failed' },
  { value: 'decommissioning', label: 'Decommissioning' },
];

/** The life cycle of a cluster. */
export const CLUSTER_STATUS_CHOICES: Choice[] = [
  { value: 'planned', label: 'Planned' },
  { value: 'staging', label: 'Staging' },
  { value: 'active', label: 'Active' },
  { value: 'decommissioning', label: 'Decommissioning' },
  { value: 'offline', label: 'Offline' },
];
