/**
 * The bounds of a query, checked after validation and before anything is read:
 * - depth: nested selections of fields (introspection's own fields not counted);
 * - aliases: fields given another name (each answers the same work again);
 * - cost: the objects the answer may hold, estimated: a top-level list counts its `limit`
 *   (else MAX_PAGE_SIZE), a list inside an object GRAPHQL_LIST_ESTIMATE per parent, an
 *   object one; fragments counted where they are spread;
 * - selections: those the walk visits with fragments expanded where they are spread, so a
 *   chain of fragments each spreading the next twice (2^n selections from a short document,
 *   none of which costs objects) is refused instead of holding the event loop.
 * The walk stops at the first bound passed, so a document built to blow up costs no more.
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  getNamedType,
  getNullableType,
  type GraphQLCompositeType,
  GraphQLError,
  type GraphQLSchema,
  isListType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxCost: number;
  listEstimate: number;
  /** What a top-level list without `limit` may return (0: no maximum). */
  maxPageSize: number;
}

class LimitPassed extends Error {}

/** Selections a query may expand to: far above any real query, far below a second of walking. */
export const MAX_EXPANDED_SELECTIONS = 100_000;

export function checkLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  limits: QueryLimits,
): GraphQLError[] {
  const operations = document.definitions.filter(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  const operation = operationName
    ? operations.find((o) => o.name?.value === operationName)
    : operations.length === 1
      ? operations[0]
      : undefined;
  if (!operation) return []; // execution names the problem
  const fragments = new Map(
    document.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const root = schema.getRootType(operation.operation);
  if (!root) return [];
  let aliases = 0;
  let cost = 0;
  let selections = 0;
  const fail = (message: string): never => {
    throw new LimitPassed(message);
  };

  const walk = (
    set: SelectionSetNode,
    parent: GraphQLCompositeType,
    depth: number,
    multiplicity: number,
    top: boolean,
  ) => {
    for (const selection of set.selections) {
      if (++selections > MAX_EXPANDED_SELECTIONS) {
        fail(`Query expands to more than ${MAX_EXPANDED_SELECTIONS} selections (fragments counted where spread).`);
      }
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        const fragment = fragments.get(selection.name.value);
        const condition = fragment && (typeOf(schema, fragment.typeCondition.name.value) ?? parent);
        if (fragment && condition) walk(fragment.selectionSet, condition, depth, multiplicity, top);
        continue;
      }
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const condition = selection.typeCondition ? typeOf(schema, selection.typeCondition.name.value) : parent;
        walk(selection.selectionSet, condition ?? parent, depth, multiplicity, top);
        continue;
      }
      field(selection, parent, depth, multiplicity, top);
    }
  };

  const field = (node: FieldNode, parent: GraphQLCompositeType, depth: number, multiplicity: number, top: boolean) => {
    const name = node.name.value;
    if (name.startsWith('__')) return; // introspection and __typename: bounded by the schema, not the data
    if (node.alias && node.alias.value !== name && ++aliases > limits.maxAliases) {
      fail(`Query uses more than ${limits.maxAliases} aliases (GRAPHQL_MAX_ALIASES).`);
    }
    if (depth > limits.maxDepth) fail(`Query is deeper than ${limits.maxDepth} levels (GRAPHQL_MAX_DEPTH).`);
    if (!node.selectionSet || !isObjectType(parent)) return;
    const definition = parent.getFields()[name];
    if (!definition) return;
    const type = getNullableType(definition.type);
    const many = isListType(type);
    const size = many ? (top ? topListSize(node, variables, limits) : limits.listEstimate) : 1;
    const objects = multiplicity * size;
    cost += objects;
    if (cost > limits.maxCost) {
      fail(
        `Query may return more than ${limits.maxCost} objects (GRAPHQL_MAX_COST); ask for fewer with limit or less nesting.`,
      );
    }
    const named = getNamedType(definition.type) as GraphQLCompositeType;
    walk(node.selectionSet, named, depth + 1, objects, false);
  };

  try {
    walk(operation.selectionSet, root, 1, 1, true);
  } catch (error) {
    if (error instanceof LimitPassed) return [new GraphQLError(error.message)];
    throw error;
  }
  return [];
}

function typeOf(schema: GraphQLSchema, name: string): GraphQLCompositeType | undefined {
  return schema.getType(name) as GraphQLCompositeType | undefined;
}

/** A top-level list's `limit` (a literal or a variable), capped as the resolver caps it. */
function topListSize(
  node: FieldNode,
  variables: Record<string, unknown> | null | undefined,
  limits: QueryLimits,
): number {
  const argument = node.arguments?.find((a) => a.name.value === 'limit');
  const asked = argument ? intOf(argument.value, variables) : null;
  const max = limits.maxPageSize > 0 ? limits.maxPageSize : Number.POSITIVE_INFINITY;
  const size = asked !== null && asked > 0 ? Math.min(asked, max) : max;
  return Number.isFinite(size) ? size : limits.maxCost + 1;
}

function intOf(value: ValueNode, variables: Record<string, unknown> | null | undefined): number | null {
  if (value.kind === Kind.INT) return Number(value.value);
  if (value.kind === Kind.VARIABLE) {
    const given = variables?.[value.name.value];
    return typeof given === 'number' ? given : null;
  }
  return null;
}
