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

/** ISO 8601 dates and date-times as graphene's Date and DateTime read them (a date alone is midnight). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * A filter argument taking one date or date-time (NetBox's DateFilter and DateTimeFilter
 * arguments, typed as graphene's scalars of these names). The text reaches the REST filter
 * as written, which parses it as the query string's value.
 */
function temporalScalar(name: 'Date' | 'DateTime', pattern: RegExp, what: string): GraphQLScalarType {
  const accept = (value: unknown): string => {
    if (typeof value === 'string' && pattern.test(value)) return value;
    throw new GraphQLError(`${name} cannot represent a value that is not ${what}: ${JSON.stringify(value)}`);
  };
  return new GraphQLScalarType({
    name,
    description: `${what[0]!.toUpperCase()}${what.slice(1)} (ISO 8601).`,
    serialize: (value) => value,
    parseValue: accept,
    parseLiteral: (ast) => {
      if (ast.kind !== Kind.STRING)
        throw new GraphQLError(`${name} cannot represent a non-string value.`, { nodes: ast });
      return accept(ast.value);
    },
  });
}

export const GraphQLDateInput = temporalScalar('Date', ISO_DATE, 'a date');
export const GraphQLDateTimeInput = temporalScalar('DateTime', ISO_DATE_TIME, 'a date or date-time');
