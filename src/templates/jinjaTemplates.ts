import nunjucks from 'nunjucks';

/**
 * Jinja2 templates (webhook bodies, headers and URLs; export templates) rendered with
 * nunjucks, which reads Jinja2's syntax. Output is not HTML-escaped (Jinja2's default for
 * strings), and Jinja2's `tojson` filter is there, which nunjucks lacks. nunjucks' Jinja2
 * compatibility is installed (dict.items()/keys()/values(), True/False/None, slices), as
 * templates written for NetBox use them.
 */
nunjucks.installJinjaCompat();
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
