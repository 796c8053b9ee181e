/**
 * The choice tables of tenancy models (NetBox keeps them in tenancy/choices.py), one
 * declaration each: a model's file names the table, this file spells it.
 */
import type { Choice } from '../fieldDefinition.js';

/** How much a contact matters for the object assigned. */
export const CONTACT_PRIORITY_CHOICES: Choice[] = [
  { value: 'primary', label: 'Primary' },
  { value: 'secondary', label: 'Secondary' },
  { value: 'tertiary', label: 'Tertiary' },
  { value: 'inactive', label: 'Inactive' },
];
