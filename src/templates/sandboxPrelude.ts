/**
 * The script that prepares a sandbox context after nunjucks' runtime is loaded into it. It
 * runs inside the context (a realm that cannot generate code from strings and holds no host
 * object), so it is kept as source text here rather than as a function of this module.
 *
 * Like Jinja2's SandboxedEnvironment (NetBox renders in one), a template reaches only the data
 * it is given and what the runtime offers: no name that leads to a constructor, prototype or
 * the calling function; a key is used only if it is already a string or number (nunjucks would
 * convert an object key to a string a second time, after any check, so an object whose
 * `toString` answers differently on each call could slip past one); arguments that carry
 * their own `toString`/`valueOf` are refused; `range` is capped as Jinja2's sandbox caps it.
 *
 * It defines `__templates` (compiled templates are pushed there) and `__render()`, which reads
 * `__input` (the context as JSON text) and `__querysets` (a JSON array of names) and answers
 * JSON text: `{"ok": true, "outputs": [...]}` or `{"ok": false, "message": "...", "template": "..."}`.
 */
export const SANDBOX_PRELUDE = String.raw`
(function (global) {
  'use strict';
  var nunjucks = global.nunjucks;
  nunjucks.installJinjaCompat();
  var runtime = nunjucks.runtime;
  var hasOwn = Object.prototype.hasOwnProperty;
  var MAX_RANGE = 100000;
  var BLOCKED = Object.create(null);
  ['constructor', 'prototype', 'caller', 'callee', 'arguments', 'call', 'apply', 'bind',
   'toLocaleString', 'mro', 'func_globals', 'gi_frame', 'gi_code', 'cr_frame', 'ag_frame']
    .forEach(function (name) { BLOCKED[name] = true; });

  function keyOf(name) {
    if (typeof name === 'number') return name;
    if (typeof name !== 'string') return undefined;
    if (BLOCKED[name] === true || name.slice(0, 2) === '__') return undefined;
    return name;
  }

  function refuse(what) {
    throw new Error('access to ' + what + ' is not allowed in a sandboxed template');
  }

  // Functions and methods that take an attribute or key name from their arguments.
  var KEYED = Object.create(null);
  ['get', 'pop', 'setdefault', 'has_key', 'update', 'groupby', 'sort', 'sum', 'selectattr', 'rejectattr',
   'join', 'dictsort', 'batch'].forEach(function (name) { KEYED[name] = true; });

  function checkArgument(value, keyed) {
    if (typeof value === 'function') refuse('a function as an argument');
    if (keyed && typeof value === 'string' && value.split('.').some(function (part) { return keyOf(part) === undefined; })) {
      refuse('the attribute "' + value + '"');
    }
    if (value !== null && typeof value === 'object' &&
        (hasOwn.call(value, 'toString') || hasOwn.call(value, 'valueOf') || hasOwn.call(value, 'toJSON'))) {
      refuse('an argument with its own conversion');
    }
    if (keyed && value !== null && typeof value === 'object') {
      Object.keys(value).forEach(function (key) { if (keyOf(key) === undefined) refuse('the key "' + key + '"'); });
    }
  }

  function checked(fn, name, from) {
    var keyed = KEYED[name] === true;
    return function () {
      for (var i = from; i < arguments.length; i++) checkArgument(arguments[i], keyed);
      return fn.apply(this, arguments);
    };
  }

  var memberLookup = runtime.memberLookup;
  runtime.memberLookup = function (obj, name) {
    if (arguments.length === 4) {
      for (var i = 1; i < 4; i++) {
        if (arguments[i] != null && typeof arguments[i] !== 'number') return undefined;
      }
      return memberLookup.apply(this, arguments);
    }
    var key = keyOf(name);
    if (key === undefined) return undefined;
    var value = memberLookup.call(this, obj, key);
    return typeof value === 'function' ? checked(value, key, 0) : value;
  };

  var contextOrFrameLookup = runtime.contextOrFrameLookup;
  runtime.contextOrFrameLookup = function (context, frame, name) {
    var key = keyOf(name);
    return key === undefined ? undefined : contextOrFrameLookup.call(this, context, frame, key);
  };

  var env = new nunjucks.Environment([], { autoescape: false, throwOnUndefined: false });
  env.addFilter('tojson', function (value, indent) {
    return new runtime.SafeString(JSON.stringify(value === undefined ? null : value, null, indent));
  });
  Object.keys(env.filters).forEach(function (name) {
    env.filters[name] = checked(env.filters[name], name, 1);
  });
  var range = env.globals.range;
  env.globals.range = checked(function (start, stop, step) {
    var from = stop === undefined ? 0 : start;
    var to = stop === undefined ? start : stop;
    var by = step || 1;
    if (Math.ceil((to - from) / by) > MAX_RANGE) {
      throw new Error('Range too big. The sandbox blocks ranges larger than MAX_RANGE (' + MAX_RANGE + ').');
    }
    return range.apply(this, arguments);
  }, 'range', 0);
  env.globals.cycler = checked(env.globals.cycler, 'cycler', 0);
  env.globals.joiner = checked(env.globals.joiner, 'joiner', 0);

  // Nothing a template does may change how the runtime, the filters or the built-in
  // prototypes behave for the rest of the render (the guards above rely on them).
  [runtime, nunjucks.lib, env.filters, env.globals, Object, Object.prototype, Array.prototype, String.prototype,
   Function.prototype, Number.prototype, Boolean.prototype, RegExp.prototype, Date.prototype, JSON, Math].forEach(Object.freeze);

  var templates = [];
  global.__templates = templates;

  global.__render = function () {
    var name = null;
    try {
      var context = JSON.parse(global.__input);
      JSON.parse(global.__querysets).forEach(function (key) {
        var list = context[key];
        if (Array.isArray(list)) Object.defineProperty(list, 'all', { value: function () { return list; } });
      });
      var outputs = [];
      for (var i = 0; i < templates.length; i++) {
        name = templates[i].name;
        global.__rendering = name; // read by the host when the render is stopped at its time limit
        outputs.push(new nunjucks.Template({ type: 'code', obj: templates[i].code }, env, name).render(context));
      }
      return JSON.stringify({ ok: true, outputs: outputs });
    } catch (error) {
      return JSON.stringify({ ok: false, template: name, message: String(error && error.message) });
    }
  };
})(this);
`;
