/**
 * The choice tables of circuits models (NetBox keeps them in circuits/choices.py), one
 * declaration each: a model's file names the table, this file spells it.
 */
import type { Choice } from '../fieldDefinition.js';

/** The life cycle of a circuit. */
export const CIRCUIT_STATUS_CHOICES: Choice[] = [
  { value: 'planned', label: 'Planned' },
  { value: 'provisioning', label: 'Provisioning' },
  { value: 'active', label: 'Active' },
  { value: 'offline', label: 'Offline' },
  { value: 'deprovisioning', label: 'Deprovisioning' },
  { value: 'decommissioned', label: 'Decommissioned' },
];

/** The side of a circuit a termination is on. */
export const CIRCUIT_TERMINATION_SIDE_CHOICES: Choice[] = [
  { value: 'A', label: 'A' },
  { value: 'Z', label: 'Z' },
];
