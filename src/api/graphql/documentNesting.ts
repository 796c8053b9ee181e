/**
 * How deeply a query document nests its brackets, measured on its tokens before it is
 * parsed: graphql-js parses and validates by recursion, and a document of a few thousand
 * nested selection sets or list values (well under the token limit) overflows the stack,
 * which no GraphQL error names. Refused here, such a document is a 400 naming the bound.
 */
import { GraphQLError, Lexer, Source, TokenKind } from 'graphql';

/** Far above any real query (the introspection query GraphiQL sends nests 10), far below the stack's reach. */
export const MAX_NESTING = 100;

const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/** The error for a document nested deeper than MAX_NESTING, or null (a syntax error is left to the parser). */
export function nestingError(query: string, maxTokens: number): GraphQLError | null {
  const lexer = new Lexer(new Source(query));
  let depth = 0;
  try {
    for (let tokens = 0; tokens <= maxTokens; tokens++) {
      const token = lexer.advance();
      if (token.kind === TokenKind.EOF) return null;
      if (OPENING.has(token.kind) && ++depth > MAX_NESTING) {
        return new GraphQLError(`Query nests brackets more than ${MAX_NESTING} levels deep.`, {
          source: lexer.source,
          positions: [token.start],
        });
      }
      if (CLOSING.has(token.kind)) depth--;
    }
  } catch (error) {
    if (error instanceof GraphQLError) return null; // the parser names it, with its location
    throw error;
  }
  return null; // past the token limit: the parser refuses it
}
