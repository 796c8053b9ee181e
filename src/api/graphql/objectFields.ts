/**
 * The fields of a model's object type, derived from its definition: each field of the REST
 * complete form, with relations as objects (permission-filtered through RequestReads) and
 * everything else as REST renders it (choices as their value).
 */
import {
  GraphQLBoolean,
  type GraphQLFieldConfig,
  GraphQLID,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLOutputType,
  GraphQLString,
} from 'graphql';

import type { FieldDefinition, GenericListItem } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ReadDocument } from '../../projections/ReadStore.js';
import type { GraphqlContext } from './context.js';
import { graphqlName } from './names.js';
import { GraphQLBigInt, GraphQLDecimal, GraphQLJSON } from './scalars.js';

const INT_MAX = 2 ** 31 - 1;

export type Field = GraphQLFieldConfig<ReadDocument, GraphqlContext>;

/** How the schema builder names the types of other models (object types and unions of several). */
export interface TypeLookup {
  object(model: string): GraphQLOutputType | null;
  union(owner: ModelDefinition, field: FieldDefinition, targets: string[]): GraphQLOutputType | null;
  /** A field of another model (the fk a holder names its parent by). */
  fieldOf(model: string, name: string): FieldDefinition | undefined;
}

/** The GraphQL field of one REST field, or null for one the complete form never shows. */
export function objectField(definition: ModelDefinition, field: FieldDefinition, types: TypeLookup): Field | null {
  if (field.internal || field.writeOnly) return null;
  const name = field.name;
  const rendered = (type: GraphQLOutputType): Field => ({
    type,
    description: field.help,
    resolve: (doc, _args, { reads }) => reads.renderedField(definition, doc, name),
  });
  if (field.image || field.secret) return rendered(GraphQLString);
  switch (field.type) {
    case 'id':
      return { type: new GraphQLNonNull(GraphQLID), resolve: (doc) => doc.id };
    case 'url':
    case 'display':
      return rendered(GraphQLString);
    case 'count':
      return rendered(GraphQLInt);
    case 'custom_fields':
      return {
        type: GraphQLJSON,
        description: field.help,
        resolve: (doc, _args, { reads }) => reads.customFieldData(definition, field, doc),
      };
    case 'computed':
      return computedField(definition, field, types) ?? rendered(GraphQLJSON);
    case 'string':
    case 'cidr':
    case 'ip_address':
    case 'mac_address':
    case 'wwn':
    case 'content_type':
    case 'datetime':
      return plain(field, GraphQLString);
    case 'date':
      return {
        type: GraphQLString,
        resolve: (doc) => (typeof doc[name] === 'string' ? (doc[name] as string).slice(0, 10) : null),
      };
    case 'integer':
      return plain(field, field.max !== undefined && field.max > INT_MAX ? GraphQLBigInt : GraphQLInt);
    case 'decimal':
      return plain(field, GraphQLDecimal);
    case 'boolean':
      return plain(field, GraphQLBoolean);
    case 'json':
    case 'array':
      return plain(field, GraphQLJSON);
    case 'choice':
      return choiceField(field);
    case 'fk': {
      // shown by id in REST (an inventory item's parent), an object here as in NetBox's GraphQL
      const type = types.object(field.target!);
      return (
        type && {
          type,
          description: field.help,
          resolve: (doc, _args, { reads }) => reads.object(field.target!, doc[name]),
        }
      );
    }
    case 'm2m':
    case 'tags': {
      if (field.representation === 'slug') return rendered(new GraphQLList(GraphQLString));
      const type = types.object(field.target!);
      return (
        type && {
          type: new GraphQLList(type),
          description: field.help,
          resolve: (doc, _args, { reads }) => reads.objects(field.target!, doc[name]),
        }
      );
    }
    case 'generic_fk': {
      const type = types.union(definition, field, field.targets ?? []);
      return (
        type && {
          type,
          description: field.help,
          resolve: (doc, _args, { reads }) => {
            const model = doc[field.typeField!];
            return typeof model === 'string' ? reads.object(model, doc[field.idField!]) : null;
          },
        }
      );
    }
    case 'generic_list': {
      const type = types.union(definition, field, field.targets ?? []);
      return (
        type && {
          type: new GraphQLList(type),
          description: field.help,
          resolve: async (doc, _args, { reads }) => {
            const items = Array.isArray(doc[name]) ? (doc[name] as GenericListItem[]) : [];
            const found = await Promise.all(items.map((item) => reads.object(item.object_type, item.object_id)));
            return found.filter((d) => d !== null);
          },
        }
      );
    }
    case 'reverse': {
      const type = types.object(field.target!);
      if (!type) return null;
      if (field.oneToOne) {
        return {
          type,
          resolve: async (doc, _args, { reads }) => (await reads.related(field.target!, field.via!, doc.id))[0] ?? null,
        };
      }
      return {
        type: new GraphQLList(type),
        resolve: (doc, _args, { reads }) => reads.related(field.target!, field.via!, doc.id),
      };
    }
    default:
      return rendered(GraphQLJSON);
  }
}

/**
 * A computed field that names objects, as those objects (each permission-filtered): the
 * first of several foreign keys that is set (a device's primary IP), a reference the model
 * computes (a port's link peers, a circuit's termination on side A: a union where it may
 * name several models), or the object holding this one (a device's parent device, through
 * the bay it is installed in). Null for a computed value that names none.
 */
function computedField(definition: ModelDefinition, field: FieldDefinition, types: TypeLookup): Field | null {
  if (field.coalesce && field.target) {
    const type = types.object(field.target);
    const first = (doc: ReadDocument) => field.coalesce!.map((key) => doc[key]).find((v) => typeof v === 'number');
    return type && { type, resolve: (doc, _args, { reads }) => reads.object(field.target!, first(doc)) };
  }
  if (field.references && field.targets?.length) {
    const type = types.union(definition, field, field.targets);
    if (!type) return null;
    const objects = async (doc: ReadDocument, reads: GraphqlContext['reads']) => {
      const items = await reads.referenceItems(definition, field, doc);
      if (items === null) return null;
      const found = await Promise.all(items.map((item) => reads.object(item.object_type, item.object_id)));
      return found.filter((d) => d !== null);
    };
    if (field.references === 'many') {
      return {
        type: new GraphQLList(type),
        description: field.help,
        resolve: (doc, _args, { reads }) => objects(doc, reads),
      };
    }
    return {
      type,
      description: field.help,
      resolve: async (doc, _args, { reads }) => (await objects(doc, reads))?.[0] ?? null,
    };
  }
  if (field.heldBy) {
    const { model, via, parent } = field.heldBy;
    const target = types.fieldOf(model, parent)?.target;
    const type = target ? types.object(target) : null;
    return (
      type && {
        type,
        description: field.help,
        resolve: async (doc, _args, { reads }) => {
          const [holder] = await reads.related(model, via, doc.id);
          return holder ? reads.object(target!, holder[parent]) : null;
        },
      }
    );
  }
  return null;
}

/** A value stored as REST renders it: the stored one, else the field's default. */
function plain(field: FieldDefinition, type: GraphQLOutputType): Field {
  const name = field.name;
  return {
    type,
    description: field.help,
    resolve: (doc) => (doc[name] === undefined ? (field.default ?? null) : doc[name]),
  };
}

/** A choice as its value (REST's `{value, label}` without the label; an empty one is null as there). */
function choiceField(field: FieldDefinition): Field {
  const numeric = (field.choices ?? []).length > 0 && (field.choices ?? []).every((c) => typeof c.value === 'number');
  const name = field.name;
  return {
    type: numeric ? GraphQLInt : GraphQLString,
    description: field.help,
    resolve: (doc) => {
      const value = doc[name];
      if (value === undefined || value === null) return null;
      if (value === '' && field.choiceRender !== 'plain' && field.emptyAsNull !== false) return null;
      return value;
    },
  };
}

/** The field's name in the schema. */
export function fieldName(field: FieldDefinition): string {
  return graphqlName(field.name);
}
