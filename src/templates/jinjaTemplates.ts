import nunjucks from 'nunjucks';

/**
 * Jinja2 templates (webhook bodies, headers and URLs; export templates) rendered with
 * nunjucks, which reads Jinja2's syntax. Output is not HTML-escaped (Jinja2's default for
 * strings), and Jinja2's `tojson` filter is there, which nunjucks lacks. nunjucks' Jinja2
 * compatibility is installed (dict.items()/keys()/values(), True/False/None, slices), as
 * templates written for NetBox use them.
 */
nunjucks.installJinjaCompat();

/**
 * nunjucks is no sandbox: `range.constructor("...")()` would run any code in the service for
 * whoever may write a template. Like Jinja2's sandbox (NetBox renders in one), no template
 * reaches an object's constructor or prototype: those names read as undefined.
 */
const UNREACHABLE = new Set(['constructor', '__proto__', 'prototype', '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__']);
type Lookup = (...args: unknown[]) => unknown;
const runtime = nunjucks.runtime as unknown as { memberLookup: Lookup; contextOrFrameLookup: Lookup };
const memberLookup = runtime.memberLookup;
const contextOrFrameLookup = runtime.contextOrFrameLookup;
runtime.memberLookup = function guardedMemberLookup(this: unknown, obj: unknown, name: unknown) {
  return UNREACHABLE.has(String(name)) ? undefined : memberLookup.call(this, obj, name);
};
runtime.contextOrFrameLookup = function guardedContextLookup(this: unknown, context: unknown, frame: unknown, name: unknown) {
  return UNREACHABLE.has(String(name)) ? undefined : contextOrFrameLookup.call(this, context, frame, name);
};
const environment = new nunjucks.Environment(null, { autoescape: false, throwOnUndefined: false });
environment.addFilter('tojson', (value: unknown, indent?: number) => new nunjucks.runtime.SafeString(JSON.stringify(value ?? null, null, indent)));

export class TemplateError extends Error {}

export function renderTemplate(code: string, context: Record<string, unknown>): string {
  try {
    return environment.renderString(code, context);
  } catch (error) {
    throw new TemplateError((error as Error).message);
  }
}
