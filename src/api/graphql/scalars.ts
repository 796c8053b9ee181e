/** Scalars the derived schema needs beyond GraphQL's own. */
import { GraphQLError, GraphQLScalarType, Kind, valueFromASTUntyped } from 'graphql';

/**
 * Any JSON value, as the REST complete form renders it (custom fields, config contexts,
 * computed values, JSON model fields), named as graphene's GenericScalar, which NetBox uses
 * for custom fields and config contexts. (NetBox's JSON model fields are graphene-django's
 * JSONString, a JSON text; here they are the value itself.)
 */
export const GraphQLJSON = new GraphQLScalarType({
  name: 'GenericScalar',
  description: 'Any JSON value.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

/** A decimal as REST renders it (a number, or a string where the value is kept as one). */
export const GraphQLDecimal = new GraphQLScalarType({
  name: 'Decimal',
  description: 'A decimal number, as the REST API renders it.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast, variables) => valueFromASTUntyped(ast, variables),
});

/** Integers beyond GraphQL's 32-bit Int (an ASN reaches 4294967295), as NetBox's BigInt. */
export const GraphQLBigInt = new GraphQLScalarType({
  name: 'BigInt',
  description: 'An integer beyond the 32-bit range of Int.',
  serialize: (value) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
    throw new GraphQLError(`BigInt cannot represent a non-integer value: ${String(value)}`);
  },
  parseValue: (value) => {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
    throw new GraphQLError(`BigInt cannot represent a non-integer value: ${JSON.stringify(value)}`);
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.INT) throw new GraphQLError('BigInt cannot represent a non-integer value.', { nodes: ast });
    return Number(ast.value);
  },
});
