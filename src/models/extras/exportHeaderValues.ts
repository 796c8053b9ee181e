/**
 * An export template's MIME type and file extension go into response headers
 * (Content-Type, Content-Disposition's filename): only values that cannot break out of
 * them are accepted, and values stored before that rule are not served as they are.
 */

/** RFC 9110's token characters, less the quote: no space, control character, quote, `;` or `/`. */
const TOKEN = '[A-Za-z0-9!#$%&*+.^_`|~-]+';

/** `type/subtype`, optionally with `; name=value` parameters, all of token characters. */
export const MIME_TYPE_PATTERN = `^${TOKEN}/${TOKEN}( *; *${TOKEN}=${TOKEN})*$`;
export const MIME_TYPE_MESSAGE =
  'Enter a media type of the form type/subtype, optionally with ; name=value parameters, ' +
  'in letters, digits and !#$%&*+.^_`|~- only.';

/** Printable ASCII less space, quotes, `;`, `/` and `\`: a file name's tail that stays inside filename="…". */
export const FILE_EXTENSION_PATTERN = '^[A-Za-z0-9!#$%&()*+,.:<=>?@\\[\\]^_`{|}~-]+$';
export const FILE_EXTENSION_MESSAGE =
  'Enter an extension of letters, digits and punctuation, without spaces, quotes, semicolons or slashes.';

const mimeType = new RegExp(MIME_TYPE_PATTERN, 'u');
const fileExtension = new RegExp(FILE_EXTENSION_PATTERN, 'u');

/** The stored MIME type when it is a well-formed one, else null (the caller serves plain text). */
export function servableMimeType(value: unknown): string | null {
  return typeof value === 'string' && mimeType.test(value) ? value : null;
}

/** The stored extension when it is a safe one, else null (the file is named without one). */
export function servableFileExtension(value: unknown): string | null {
  return typeof value === 'string' && fileExtension.test(value) ? value : null;
}
