// `node scripts/gen-python-client.mjs`: writes clients/python/svc_client/_schema.py from the
// committed openapi.json — a TypedDict per component schema (and per inline object inside one),
// Literal[...] for enumerations, Optional[...] for nullable members, List/Dict, Any for open or
// unknown parts, and the OPERATIONS table the Python client builds its requests from.
//
// Deterministic: the same document gives the same bytes (no clock, no environment). Python ≥ 3.9:
// typing.TypedDict / Literal / Optional / Union / List / Dict only, definitions in dependency
// order so that every name exists before an evaluated expression uses it.
//
//   node scripts/gen-python-client.mjs            write the file
//   node scripts/gen-python-client.mjs --stdout   print it instead (the drift test compares)
//   node scripts/gen-python-client.mjs --check    exit 1 when the committed file differs
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUTPUT = 'clients/python/svc_client/_schema.py';
const COMMAND = 'node scripts/gen-python-client.mjs';
const REF_PREFIX = '#/components/schemas/';

const PY_KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);

/** camelCase / snake / kebab → PascalCase, for names of inline objects. */
function pascal(text) {
  return text.replace(/[^A-Za-z0-9]+(.)?/g, (_, c) => (c ? c.toUpperCase() : '')).replace(/^./, (c) => c.toUpperCase());
}

/** A Python literal for a JSON scalar (JSON string syntax is valid Python string syntax). */
function pyLiteral(value) {
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null) return 'None';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  throw new Error(`no Python literal for ${JSON.stringify(value)}`);
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A Python docstring body: triple quotes and backslashes cannot end it early. */
function docstring(text, indent) {
  const safe = text.replace(/\\/g, '\\\\').replace(/"""/g, '\\"\\"\\"');
  const lines = safe.split('\n');
  if (lines.length === 1) return `${indent}"""${safe}"""`;
  return `${indent}"""${lines[0]}\n${lines
    .slice(1)
    .map((l) => (l ? indent + l : l))
    .join('\n')}\n${indent}"""`;
}

/** Wraps prose for docstrings. */
function wrap(text, width = 92) {
  const out = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) {
        out.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    out.push(line);
  }
  return out.join('\n');
}

export function generate(doc) {
  const schemas = doc.components?.schemas ?? {};
  /** name → { kind: 'typeddict' | 'alias', deps: Set<string>, render(): string } in discovery order. */
  const defs = new Map();
  const componentNames = new Set(Object.keys(schemas));

  const define = (name, def) => {
    if (defs.has(name)) throw new Error(`two definitions named ${name}: give the generator a naming rule`);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name) || PY_KEYWORDS.has(name)) throw new Error(`${name} is not a Python name`);
    defs.set(name, def);
  };

  /**
   * The Python type expression of a schema. `ctx` names inline objects (Parent + Member);
   * `deps` collects the named definitions the expression uses.
   */
  const typeOf = (schema, ctx, deps, where = ctx) => {
    if (schema === true || schema === undefined) return 'Any';
    if (!isObject(schema)) throw new Error(`${ctx}: a schema must be an object`);
    if (typeof schema.$ref === 'string') {
      if (!schema.$ref.startsWith(REF_PREFIX)) throw new Error(`${ctx}: unsupported $ref ${schema.$ref}`);
      const name = schema.$ref.slice(REF_PREFIX.length);
      if (!componentNames.has(name)) throw new Error(`${ctx}: $ref to an unknown schema ${name}`);
      deps.add(name);
      return name;
    }
    if ('const' in schema) return `Literal[${pyLiteral(schema.const)}]`;
    if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => (v === null ? 'None' : `Literal[${pyLiteral(v)}]`)));
    const variants = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(variants)) {
      return union(
        variants.map((v, i) =>
          variants.length > 1 ? typeOf(v, `${ctx}Variant${i + 1}`, deps, `${where} (variant ${i + 1} of ${variants.length})`) : typeOf(v, ctx, deps, where),
        ),
      );
    }
    if (Array.isArray(schema.allOf)) throw new Error(`${ctx}: allOf is not supported by the generator`);
    const type = schema.type;
    if (Array.isArray(type)) return union(type.map((t) => typeOf({ ...schema, type: t }, ctx, deps, where)));
    switch (type) {
      case 'string':
        return 'str';
      case 'integer':
        return 'int';
      case 'number':
        return 'float';
      case 'boolean':
        return 'bool';
      case 'null':
        return 'None';
      case 'array':
        return `List[${typeOf(schema.items, `${ctx}Item`, deps, `${where}[]`)}]`;
      case 'object': {
        const props = schema.properties ?? {};
        if (Object.keys(props).length === 0) {
          const extra = schema.additionalProperties;
          const value =
            extra === undefined || extra === true || extra === false || (isObject(extra) && Object.keys(extra).length === 0)
              ? 'Any'
              : typeOf(extra, `${ctx}Value`, deps, `${where}{}`);
          return `Dict[str, ${value}]`;
        }
        defineTypedDict(ctx, schema, null, where);
        deps.add(ctx);
        return ctx;
      }
      case undefined:
        // No type: an open value ({} or a description only).
        return 'Any';
      default:
        throw new Error(`${ctx}: unsupported type ${JSON.stringify(type)}`);
    }
  };

  /** Literal[a] | Literal[b] → Literal[a, b]; None → Optional[...]; duplicates dropped. */
  const union = (types) => {
    const literals = [];
    const others = [];
    let nullable = false;
    for (const t of types) {
      if (t === 'None') nullable = true;
      else if (t.startsWith('Literal[') && t.endsWith(']')) {
        for (const v of splitTop(t.slice('Literal['.length, -1))) if (!literals.includes(v)) literals.push(v);
      } else if (!others.includes(t)) others.push(t);
    }
    if (others.includes('Any')) return 'Any';
    const parts = [...(literals.length ? [`Literal[${literals.join(', ')}]`] : []), ...others];
    const inner = parts.length === 0 ? 'None' : parts.length === 1 ? parts[0] : `Union[${parts.join(', ')}]`;
    return nullable && parts.length > 0 ? `Optional[${inner}]` : inner;
  };

  /** Splits "a, b, Dict[str, Any]" at top-level commas (string literals never hold brackets unescaped here, but are skipped anyway). */
  function splitTop(text) {
    const out = [];
    let depth = 0;
    let current = '';
    let quoted = false;
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (quoted) {
        current += c;
        if (c === '\\') current += text[++i];
        else if (c === '"') quoted = false;
        continue;
      }
      if (c === '"') quoted = true;
      if (c === '[') depth++;
      if (c === ']') depth--;
      if (c === ',' && depth === 0) {
        out.push(current.trim());
        current = '';
      } else current += c;
    }
    if (current.trim()) out.push(current.trim());
    return out;
  }

  const defineTypedDict = (name, schema, description, where = null) => {
    const required = new Set(schema.required ?? []);
    const deps = new Set();
    const members = Object.entries(schema.properties ?? {}).map(([key, sub]) => ({
      key,
      required: required.has(key),
      type: typeOf(sub, `${name}${pascal(key)}`, deps, `${where ?? name}.${key}`),
      description: isObject(sub) && typeof sub.description === 'string' ? sub.description : null,
    }));
    for (const key of required) if (!(key in (schema.properties ?? {}))) throw new Error(`${name}: required member ${key} has no schema`);
    const open = schema.additionalProperties !== false;
    define(name, { kind: 'typeddict', deps, render: () => renderTypedDict(name, members, description, open, where) });
  };

  const renderTypedDict = (name, members, description, open, where) => {
    const req = members.filter((m) => m.required);
    const opt = members.filter((m) => !m.required);
    const functional = members.some((m) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(m.key) || PY_KEYWORDS.has(m.key));
    const doc = [
      where === null ? `The \`${name}\` schema of openapi.json.` : `The object at \`${where}\` in openapi.json.`,
      ...(description ? [description] : []),
      ...(open ? ['Members beyond those listed may be present.'] : []),
    ].join('\n');
    const body = (list) => list.map((m) => `${m.description ? `    #: ${m.description.replace(/\s+/g, ' ')}\n` : ''}    ${m.key}: ${m.type}`).join('\n');
    const fields = (list) => `{${list.map((m) => `${JSON.stringify(m.key)}: ${m.type}`).join(', ')}}`;
    const lines = [];
    if (functional) {
      // Member names that are not Python identifiers (@context) or are keywords (from): the
      // functional syntax for the members, a class statement (with the docstring) over them.
      const bases = [];
      if (req.length) {
        lines.push(`_${name}Required = TypedDict(${JSON.stringify(`_${name}Required`)}, ${fields(req)})`);
        bases.push(`_${name}Required`);
      }
      if (opt.length) {
        lines.push(`_${name}Optional = TypedDict(${JSON.stringify(`_${name}Optional`)}, ${fields(opt)}, total=False)`);
        bases.push(`_${name}Optional`);
      }
      lines.push('');
      lines.push('');
      lines.push(`class ${name}(${bases.join(', ')}):`);
      lines.push(docstring(wrap(doc), '    '));
      return lines.join('\n');
    }
    if (req.length && opt.length) {
      lines.push(`class _${name}Required(TypedDict):`);
      lines.push(docstring(`The required members of ${name}.`, '    '));
      lines.push('');
      lines.push(body(req));
      lines.push('');
      lines.push('');
      lines.push(`class ${name}(_${name}Required, total=False):`);
      lines.push(docstring(wrap(doc), '    '));
      lines.push('');
      lines.push(body(opt));
    } else {
      lines.push(`class ${name}(TypedDict${req.length ? '' : ', total=False'}):`);
      lines.push(docstring(wrap(doc), '    '));
      lines.push('');
      lines.push(body(members));
    }
    return lines.join('\n');
  };

  // Components, in the document's order.
  for (const [name, schema] of Object.entries(schemas)) {
    const description = isObject(schema) && typeof schema.description === 'string' ? schema.description : null;
    if (isObject(schema) && schema.type === 'object' && Object.keys(schema.properties ?? {}).length > 0 && !schema.anyOf) {
      defineTypedDict(name, schema, description);
    } else {
      const deps = new Set();
      const expr = typeOf(schema, name, deps);
      define(name, { kind: 'alias', deps, render: () => `${description ? `#: ${description.replace(/\s+/g, ' ')}\n` : ''}${name} = ${expr}` });
    }
  }

  // The operations: method, path, budget, parameters, the statuses whose bodies are results.
  const operations = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, op] of Object.entries(item)) {
      if (!isObject(op) || typeof op.operationId !== 'string') continue;
      const params = Array.isArray(op.parameters) ? op.parameters : [];
      const body = op.requestBody?.content?.['application/json']?.schema;
      let bodyType = null;
      if (body !== undefined) {
        const deps = new Set();
        bodyType = typeOf(body, `${pascal(op.operationId)}Body`, deps, `the request body of ${op.operationId}`);
      }
      const results = [];
      let response = null;
      for (const [status, res] of Object.entries(op.responses ?? {})) {
        const media = Object.entries(res.content ?? {});
        // A problem page (text/html beside problem+json on the web dossier's routes) is a problem too.
        const problemOnly =
          media.length > 0 &&
          media.every(
            ([type, m]) => m.schema?.$ref === `${REF_PREFIX}Problem` || m.schema?.$ref === `${REF_PREFIX}W3cErrorResolutionResult` || type === 'text/html',
          );
        if (Number(status) < 400 || !problemOnly) results.push(Number(status));
        if (status === '200' && media.length === 1 && media[0][0] === 'application/json') {
          const schema = media[0][1].schema;
          response = typeof schema?.$ref === 'string' ? schema.$ref.slice(REF_PREFIX.length) : null;
        }
      }
      operations.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        budget: op['x-svc-budget'] ?? null,
        pathParams: params.filter((p) => p.in === 'path').map((p) => p.name),
        query: params.filter((p) => p.in === 'query').map((p) => p.name),
        body: bodyType,
        results,
        response,
      });
    }
  }

  // Dependency order (document order otherwise); a cycle would need quoted forward references.
  const ordered = [];
  const state = new Map();
  const visit = (name, chain) => {
    if (state.get(name) === 'done') return;
    if (state.get(name) === 'visiting') throw new Error(`cyclic schemas: ${[...chain, name].join(' → ')} (teach the generator forward references)`);
    state.set(name, 'visiting');
    for (const dep of defs.get(name).deps) visit(dep, [...chain, name]);
    state.set(name, 'done');
    ordered.push(name);
  };
  for (const name of defs.keys()) visit(name, []);

  const tuple = (items) => (items.length === 0 ? '()' : `(${items.join(', ')}${items.length === 1 ? ',' : ''})`);
  const py = (value) => (value === null ? 'None' : JSON.stringify(value));
  const operationLines = operations.flatMap((o) => [
    `    ${JSON.stringify(o.id)}: {`,
    `        "method": ${py(o.method)},`,
    `        "path": ${py(o.path)},`,
    `        "budget": ${py(o.budget)},`,
    `        "path_params": ${tuple(o.pathParams.map((p) => JSON.stringify(p)))},`,
    `        "query": ${tuple(o.query.map((p) => JSON.stringify(p)))},`,
    `        "body": ${py(o.body)},`,
    `        "results": ${tuple(o.results.map(String))},`,
    `        "response": ${py(o.response)},`,
    '    },',
  ]);

  const exported = [...ordered.filter((n) => !n.startsWith('_')), 'OperationSpec', 'OPERATIONS'];
  const out = [
    `# GENERATED by \`${COMMAND}\` from openapi.json (${doc.info?.title ?? ''} ${doc.info?.version ?? ''}, OpenAPI ${doc.openapi}).`,
    "# Do not edit: change the daemon's schemas, run `npm run build && npm run openapi`, then the command above.",
    '# The drift test (test/integration/client-python.e2e.test.ts) fails when this file differs from its output.',
    '"""Types of the svc HTTP API, generated from openapi.json.',
    '',
    'One TypedDict per component schema (required members in a base class, optional ones in a',
    '``total=False`` subclass), ``Literal`` for enumerations, ``Optional`` for nullable members, and',
    'OPERATIONS: operationId → method, path template, budget, parameters, the statuses answered',
    'with a result (not a problem) and the schema of the 200 JSON body.',
    '"""',
    'from __future__ import annotations',
    '',
    'from typing import Any, Dict, List, Literal, Optional, Tuple, TypedDict, Union',
    '',
    `__all__ = [\n${exported.map((n) => `    ${JSON.stringify(n)},`).join('\n')}\n]`,
    '',
    ...ordered.flatMap((name) => ['', defs.get(name).render(), '']),
    '',
    'class OperationSpec(TypedDict):',
    '    """One operation of openapi.json: how the client calls it."""',
    '',
    '    method: str',
    '    path: str',
    '    #: x-svc-budget: "standard", "intensive" or "none" (never rate limited).',
    '    budget: Optional[str]',
    '    path_params: Tuple[str, ...]',
    '    query: Tuple[str, ...]',
    '    #: The request body type (a name of this module or a type expression), or None.',
    '    body: Optional[str]',
    '    #: Statuses whose body is a result, not a problem (200; 410 for a deactivated DID).',
    '    results: Tuple[int, ...]',
    '    #: The schema name of the 200 application/json body, when there is exactly one.',
    '    response: Optional[str]',
    '',
    '',
    "#: operationId → how to call it (the client's methods are the snake_case of the keys).",
    'OPERATIONS: Dict[str, OperationSpec] = {',
    ...operationLines,
    '}',
    '',
  ];
  return out.join('\n').replace(/\n{4,}/g, '\n\n\n');
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain) {
  const doc = JSON.parse(readFileSync(new URL('../openapi.json', import.meta.url), 'utf8'));
  const text = generate(doc);
  const target = new URL(`../${OUTPUT}`, import.meta.url);
  if (process.argv.includes('--stdout')) {
    process.stdout.write(text);
  } else if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(target, 'utf8');
    } catch {
      // missing: differs
    }
    if (current !== text) {
      process.stderr.write(`${OUTPUT} differs from the generator's output: run \`${COMMAND}\`\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(target, text);
    process.stdout.write(`${OUTPUT}: ${Buffer.byteLength(text)} bytes\n`);
  }
}
