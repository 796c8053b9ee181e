/**
 * The GraphQL schema, derived from the model registry as the REST routes are: for every
 * model an object type (`SiteType`) with the fields of its REST complete form and its
 * reverse relations, a single-object query (`site(id:)`) and a list query (`site_list`)
 * taking the REST filters. No per-model code.
 */
import {
  GraphQLError,
  type GraphQLFieldConfigMap,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  GraphQLObjectType,
  type GraphQLOutputType,
  GraphQLSchema,
  GraphQLString,
  GraphQLUnionType,
} from 'graphql';

import type { FieldDefinition } from '../../models/fieldDefinition.js';
import type { ModelDefinition } from '../../models/modelDefinition.js';
import type { ModelRegistry } from '../../models/registry.js';
import type { ReadDocument } from '../../projections/ReadStore.js';
import { listQueryRequest } from '../listQueryRequest.js';
import { findInOrder } from '../query/listPage.js';
import { and } from '../query/ListQueryCompiler.js';
import type { GraphqlContext } from './context.js';
import { filterParameters, listArguments } from './listArguments.js';
import { graphqlName, namesOf } from './names.js';
import { type Field, fieldName, objectField, type TypeLookup } from './objectFields.js';
import { reverseRelationsOf } from './reverseRelations.js';

export function buildSchema(registry: ModelRegistry): GraphQLSchema {
  const objects = new Map<string, GraphQLObjectType>();
  const unions = new Map<string, GraphQLUnionType>();
  const types: TypeLookup = {
    object: (model) => objects.get(model) ?? null,
    union: (owner, field, targets) => unionOf(registry, objects, unions, owner, field, targets),
    fieldOf: (model, name) => registry.tryGet(model)?.fields.find((f) => f.name === name),
  };
  for (const definition of registry.all()) {
    const names = namesOf(definition);
    objects.set(
      definition.key,
      new GraphQLObjectType<ReadDocument, GraphqlContext>({
        name: names.type,
        description: `${definition.verboseName} (${definition.key})`,
        fields: () => objectFields(registry, definition, types),
      }),
    );
  }
  const query: GraphQLFieldConfigMap<unknown, GraphqlContext> = {};
  for (const definition of registry.all()) {
    const type = objects.get(definition.key)!;
    const names = namesOf(definition);
    query[names.field] = {
      type,
      args: { id: { type: new GraphQLNonNull(GraphQLInt) } },
      resolve: (_root, args, context) => detail(definition, args.id, context),
    };
    query[names.list] = {
      type: new GraphQLList(new GraphQLNonNull(type)),
      args: listArguments(registry, definition),
      resolve: (_root, args, context) => list(definition, args, context),
    };
  }
  return new GraphQLSchema({ query: new GraphQLObjectType({ name: 'Query', fields: query }) });
}

type ObjectFields = GraphQLFieldConfigMap<ReadDocument, GraphqlContext>;

function objectFields(registry: ModelRegistry, definition: ModelDefinition, types: TypeLookup): ObjectFields {
  const fields: Record<string, Field> = {};
  for (const field of definition.fields) {
    const config = objectField(definition, field, types);
    if (config) fields[fieldName(field)] = config;
  }
  // NetBox's types show the stored custom field data under both names (custom_fields is its mixin's)
  if (fields.custom_fields) fields.custom_field_data ??= fields.custom_fields;
  const className = namesOf(definition).className;
  fields.class_type ??= {
    type: GraphQLString,
    description: "The model's class name, as NetBox shows it.",
    resolve: () => className,
  };
  for (const relation of reverseRelationsOf(registry, definition, new Set(Object.keys(fields)))) {
    const type = types.object(relation.source.key);
    if (!type) continue;
    const generic = relation.typeField ? { typeField: relation.typeField, parentModel: definition.key } : undefined;
    const description = `The ${relation.oneToOne ? relation.source.verboseName : relation.source.verboseNamePlural} whose ${relation.typeField ? 'object' : relation.via} is this one.`;
    const related = (doc: ReadDocument, reads: GraphqlContext['reads']) =>
      reads.related(relation.source.key, relation.via, doc.id, generic);
    fields[relation.name] = relation.oneToOne
      ? { type, description, resolve: async (doc, _args, { reads }) => (await related(doc, reads))[0] ?? null }
      : {
          type: new GraphQLList(new GraphQLNonNull(type)),
          description,
          resolve: (doc, _args, { reads }) => related(doc, reads),
        };
  }
  return fields;
}

/** The union of a generic relation's possible objects, one per set of targets and field. */
function unionOf(
  registry: ModelRegistry,
  objects: Map<string, GraphQLObjectType>,
  unions: Map<string, GraphQLUnionType>,
  owner: ModelDefinition,
  field: FieldDefinition,
  targets: string[],
): GraphQLOutputType | null {
  const members = targets.filter((t) => objects.has(t));
  if (members.length === 0) return null;
  if (members.length === 1) return objects.get(members[0])!;
  const pascal = graphqlName(field.name)
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  const name = `${namesOf(owner).className}${pascal}Type`;
  let union = unions.get(name);
  if (!union) {
    union = new GraphQLUnionType({
      name,
      description: `The objects ${owner.verboseName}.${field.name} may name.`,
      types: () => members.map((m) => objects.get(m)!),
      resolveType: (value: object, context: GraphqlContext) => {
        const model = context.reads.modelOf(value);
        return model ? namesOf(registry.get(model)).type : undefined;
      },
    });
    unions.set(name, union);
  }
  return union;
}

async function detail(definition: ModelDefinition, id: number, { reads }: GraphqlContext): Promise<ReadDocument> {
  const scope = await reads.requireScope(definition);
  const [doc] = await reads.find(definition, and(scope, { id }), { limit: 1 });
  if (!doc) throw new GraphQLError(`${namesOf(definition).className} matching query does not exist.`);
  return doc;
}

async function list(
  definition: ModelDefinition,
  args: Record<string, unknown>,
  context: GraphqlContext,
): Promise<ReadDocument[]> {
  const { reads, services } = context;
  const scope = await reads.requireScope(definition);
  const request = listQueryRequest(reads.ctx, services.config, filterParameters(args));
  const filter = await services.queries.compile(definition, request, reads.store);
  const max = services.config.maxPageSize;
  const asked = typeof args.limit === 'number' && args.limit > 0 ? args.limit : null; // 0: the maximum, as REST's limit=0
  const limit = max > 0 ? Math.min(asked ?? max, max) : (asked ?? undefined);
  const skip = typeof args.offset === 'number' && args.offset > 0 ? args.offset : 0;
  const ordering = typeof args.ordering === 'string' ? args.ordering : null;
  const { docs } = await findInOrder(reads.store, definition, and(scope, filter), ordering, {
    brief: false,
    skip,
    limit,
  });
  return reads.counted(definition.key, docs);
}
