/**
 * The fields device components and their templates share word for word (NetBox's
 * ComponentModel, ModularComponentModel and their template counterparts). The builders
 * (deviceComponentModel, componentTemplateModel) place them; a model whose own fields
 * interleave them (an interface) lists them itself.
 */
import type { FieldDefinition } from '../fieldDefinition.js';
import { INTERFACE_POE_MODE_CHOICES, INTERFACE_POE_TYPE_CHOICES, POWER_FEED_LEG_CHOICES } from './choices.js';

/** The device a component belongs to: deleting the device deletes its components. */
export const deviceField: FieldDefinition = {
  name: 'device',
  type: 'fk',
  target: 'dcim.device',
  onDelete: 'CASCADE',
  required: true,
  relatedName: '%(class)ss',
};

/** The module of the device that holds a component, if one does. */
export const moduleField: FieldDefinition = {
  name: 'module',
  type: 'fk',
  target: 'dcim.module',
  onDelete: 'CASCADE',
  nullable: true,
  default: null,
  relatedName: '%(class)ss',
};

/** A component's (or template's) name, unique on its device (or device type). */
export const componentNameField: FieldDefinition = { name: 'name', type: 'string', required: true, maxLength: 64 };

/** The physical label, shown beside the name. */
export const labelField: FieldDefinition = { name: 'label', type: 'string', blank: true, default: '', maxLength: 64 };

/** Marked as connected without a cable (a cabled object's alternative to one). */
export const markConnectedField: FieldDefinition = { name: 'mark_connected', type: 'boolean', default: false };

/** A template of a component only device types have: its device type is required. */
export const deviceTypeField: FieldDefinition = {
  name: 'device_type',
  type: 'fk',
  target: 'dcim.devicetype',
  onDelete: 'CASCADE',
  required: true,
  relatedName: '%(class)ss',
};

/** A template of a component modules can have too belongs to one of a device type and a module type. */
export const modularTemplateOwnerFields: FieldDefinition[] = [
  {
    name: 'device_type',
    type: 'fk',
    target: 'dcim.devicetype',
    onDelete: 'CASCADE',
    nullable: true,
    default: null,
    relatedName: '%(class)ss',
  },
  {
    name: 'module_type',
    type: 'fk',
    target: 'dcim.moduletype',
    onDelete: 'CASCADE',
    nullable: true,
    default: null,
    relatedName: '%(class)ss',
  },
];

/** Templates are not change-logged objects: no tags or custom fields, only their timestamps. */
export const templateTimestampFields: FieldDefinition[] = [
  { name: 'created', type: 'date', readOnly: true, nullable: true },
  { name: 'last_updated', type: 'datetime', readOnly: true, nullable: true },
];

/** A port's colour, as six lower-case hex digits (front and rear ports). */
export const colorField: FieldDefinition = {
  name: 'color',
  type: 'string',
  blank: true,
  default: '',
  maxLength: 6,
  pattern: '^[0-9a-f]{6}$',
};

/** A component's type, which may be left out (console and power ports and outlets). */
export function optionalTypeField(choices: FieldDefinition['choices']): FieldDefinition {
  return { name: 'type', type: 'choice', blank: true, emptyAsNull: true, default: '', choices };
}

/** A power port's (or its template's) draws, in watts. */
export const drawFields: FieldDefinition[] = [
  { name: 'maximum_draw', type: 'integer', nullable: true, default: null, min: 1, max: 32767 },
  { name: 'allocated_draw', type: 'integer', nullable: true, default: null, min: 1, max: 32767 },
];

/** The phase an outlet (or its template) feeds, of a three-phase feed. */
export const feedLegField: FieldDefinition = {
  name: 'feed_leg',
  type: 'choice',
  blank: true,
  emptyAsNull: true,
  default: '',
  choices: POWER_FEED_LEG_CHOICES,
};

/** Where a front port (or its template) is mapped to its rear port: which of the rear port's positions. */
export const rearPortPositionField: FieldDefinition = {
  name: 'rear_port_position',
  type: 'integer',
  default: 1,
  min: 1,
  max: 1024,
};

/** How many front port positions a rear port (or its template) maps. */
export const positionsField: FieldDefinition = { name: 'positions', type: 'integer', default: 1, min: 1, max: 1024 };

/** How an interface (or its template) supplies or draws Power over Ethernet. */
export const poeFields: FieldDefinition[] = [
  {
    name: 'poe_mode',
    type: 'choice',
    blank: true,
    emptyAsNull: true,
    default: '',
    choices: INTERFACE_POE_MODE_CHOICES,
  },
  {
    name: 'poe_type',
    type: 'choice',
    blank: true,
    emptyAsNull: true,
    default: '',
    choices: INTERFACE_POE_TYPE_CHOICES,
  },
];
