/**
 * Rewrites of ajv's standalone code that drop what nothing in the package reads. ajv writes
 * its output for a validator compiled in memory and inspected by tools: a `sourceURL` comment
 * per function, a schema path in every error object, and the schema itself as a constant so
 * that errors can point into it. The package reads an error's `instancePath`, `keyword` and
 * `params` only (the runtime builds the message from them, templates/runtime/validation.ts),
 * and a bundler keeps all of that text in every application. Each step is measured in
 * bench/experiments/validators-size.mjs.
 *
 * The rewrites rely on ajv's `lines: true` layout (one statement per line) and throw when the
 * code does not look as expected, rather than emit a validator they did not understand.
 */

export interface Compaction {
  readonly name: string;
  readonly apply: (code: string) => string;
}

/** `/*# sourceURL=… *\/`: names `new Function` code for a debugger; a module has its own URL. */
const sourceUrls: Compaction = {
  name: "no sourceURL comments",
  apply: (code) => code.replace(/^\/\*# sourceURL=.*\*\/;?\n/gm, ""),
};

/** `schemaPath:"#/properties/x/type",` in every error object: not part of a validation issue. */
const schemaPaths: Compaction = {
  name: "no schemaPath in error objects",
  apply: (code) => code.replace(/schemaPath:"(?:[^"\\\n]|\\.)*",(?=keyword:)/g, ""),
};

const SCHEMA_CONSTANT = /^const (schema\d+) = (.*);$/;
/** A reference into a schema constant: `schema12.properties._meta.type`, `schema3.anyOf[1]`. */
const SCHEMA_REFERENCE =
  /\b(schema\d+)((?:\.[A-Za-z_$][\w$]*|\[(?:\d+|"(?:[^"\\\n]|\\.)*")\])*)(?![\w$])/g;
const STEP = /\.([A-Za-z_$][\w$]*)|\[(\d+)\]|\[("(?:[^"\\\n]|\\.)*")\]/g;

/**
 * Error parameters that quote the schema (`params:{type: schema12.properties._meta.type}` for
 * a type list, `allowedValues: schema7.enum`) keep the whole schema object, as a constant per
 * definition, alive. Each fragment read becomes a small constant of its own (one per distinct
 * value), and the schema constants go.
 */
const schemaConstants: Compaction = {
  name: "schema constants reduced to the fragments error params read",
  apply(code) {
    const lines = code.split("\n");
    const schemas = new Map<string, unknown>();
    let first = -1;
    for (const [index, line] of lines.entries()) {
      const constant = SCHEMA_CONSTANT.exec(line);
      if (!constant) continue;
      schemas.set(constant[1] ?? "", JSON.parse(constant[2] ?? ""));
      if (first < 0) first = index;
    }
    if (first < 0) return code;
    const fragments = new Map<string, string>();
    const resolve = (match: string, name: string, path: string) => {
      if (!schemas.has(name)) return match;
      let value = schemas.get(name);
      for (const [, property, index, quoted] of path.matchAll(STEP)) {
        const key = property ?? index ?? (JSON.parse(quoted ?? '""') as string);
        if (value === null || typeof value !== "object" || !Object.hasOwn(value, key))
          throw new Error(`ajv's code reads ${match}, which its schema constant lacks`);
        value = (value as Record<string, unknown>)[key];
      }
      const json = JSON.stringify(value);
      let constant = fragments.get(json);
      if (constant === undefined) {
        constant = `__schemaValue${fragments.size}`;
        fragments.set(json, constant);
      }
      return constant;
    };
    const kept: string[] = [];
    for (const line of lines)
      if (!SCHEMA_CONSTANT.test(line)) kept.push(line.replace(SCHEMA_REFERENCE, resolve));
    // Where the first schema constant stood: before every function that reads a fragment.
    const declarations = [...fragments].map(([json, constant]) => `const ${constant} = ${json};`);
    const at = lines.slice(0, first).filter((line) => !SCHEMA_CONSTANT.test(line)).length;
    kept.splice(at, 0, ...declarations);
    return kept.join("\n");
  },
};

/**
 * The end of the balanced `{…}` starting at `open` in `code`, string literals skipped; -1 if
 * it does not close (on the same line, unless `lines`).
 */
function closingBrace(code: string, open: number, lines = false): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const c = code[i];
    if (c === "\n" && !lines) return -1;
    if (c === '"' || c === "'") {
      for (i++; i < code.length && code[i] !== c; i++) if (code[i] === "\\") i++;
    } else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return i;
  }
  return -1;
}

const ERROR_OBJECT = /^\{instancePath(?::(.*?))?,keyword:("[^"\\]*"),params:(.*)\}$/s;

/**
 * `{instancePath:instancePath+"/x",keyword:"type",params:{type: "string"}}`, 1,500 times a
 * surface, becomes `__issue(instancePath+"/x","type",{type: "string"})`: the same object,
 * built by one helper (ajv-helpers.ts), without its three property names at every site.
 * An object with any other property (`propertyName`) is left as ajv wrote it.
 */
const errorObjects: Compaction = {
  name: "error objects built by one helper",
  apply(code) {
    let out = "";
    let from = 0;
    for (let at = code.indexOf("{instancePath", from); at >= 0; ) {
      const end = closingBrace(code, at);
      const parts = end < 0 ? null : ERROR_OBJECT.exec(code.slice(at, end + 1));
      // params must be one balanced object: `{…},propertyName:…` would match `.*` too.
      const params = parts?.[3];
      if (parts && params?.startsWith("{") && closingBrace(params, 0) === params.length - 1) {
        out += `${code.slice(from, at)}__issue(${parts[1] ?? "instancePath"},${parts[2]},${params})`;
        from = end + 1;
      }
      at = code.indexOf("{instancePath", at + 1);
    }
    return out + code.slice(from);
  },
};

const HEADER =
  /^(function validate\d+\(data, )\{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)\{$/gm;
/** The other three, as ajv passes them on: `parentData:data,parentDataProperty:"x",rootData` or shorthand. */
const PASSED_ON =
  ',parentData(?::[\\w$]+)?,parentDataProperty(?::(?:[\\w$]+|"(?:[^"\\\\]|\\\\.)*"))?,rootData\\}';
const CALL_OPTIONS = new RegExp(`^\\{instancePath(?::(.*))?${PASSED_ON}$`, "s");

/**
 * Each validator takes `(data, {instancePath, parentData, parentDataProperty, rootData})` and
 * each call into another one allocates that object, though only `$data` references and
 * ajv's data-modifying options read anything but the path, and the package uses neither.
 * The path becomes the second argument: `validate3(data, instancePath="")`. Left as ajv
 * wrote it when anything else still reads one of the other three.
 */
const pathArgument: Compaction = {
  name: "instance path as an argument, not an options object",
  apply(code) {
    let out = code.replace(HEADER, '$1instancePath=""){');
    let rewritten = "";
    let from = 0;
    for (let at = out.indexOf(", {instancePath", from); at >= 0; ) {
      const end = closingBrace(out, at + 2);
      const parts = end < 0 ? null : CALL_OPTIONS.exec(out.slice(at + 2, end + 1));
      if (parts) {
        rewritten += `${out.slice(from, at)}, ${parts[1] ?? "instancePath"}`;
        from = end + 1;
      }
      at = out.indexOf(", {instancePath", at + 1);
    }
    out = rewritten + out.slice(from);
    return /\b(?:parentData|parentDataProperty|rootData)\b/.test(out) ? code : out;
  },
};

/**
 * The code a rewrite of ajv's error-list bookkeeping produces, or `code` unchanged when a
 * statement it replaces is still there in a form it does not know (`leftover`): all or nothing.
 */
function errorList(code: string, pattern: RegExp, replace: string, leftover: RegExp): string {
  const out = code.replace(pattern, replace);
  return leftover.test(out) ? code : out;
}

/**
 * Where a check fails without returning (inside `anyOf`, `oneOf` and the like), ajv appends
 * its error in six lines, 480 times a surface:
 * `const err0 = …; if(vErrors === null){ vErrors = [err0]; } else { vErrors.push(err0); }`.
 * One helper does the same (ajv-helpers.ts `pushIssue`): `vErrors = __pushIssue(vErrors, …);`.
 */
const pushedErrors: Compaction = {
  name: "failed checks appended by one helper",
  apply: (code) =>
    errorList(
      code,
      /^const (err\d+) = (.*);\nif\(vErrors === null\)\{\nvErrors = \[\1\];\n\}\nelse \{\nvErrors\.push\(\1\);\n\}$/gm,
      "vErrors = __pushIssue(vErrors, $2);",
      /\berr\d+\b/,
    ),
};

/**
 * A called validator's errors added to the caller's list, in two lines per call:
 * `vErrors = vErrors === null ? validate3.errors : vErrors.concat(validate3.errors);` and
 * `errors = vErrors.length;`, becomes `errors = (vErrors = __concatIssues(vErrors, validate3.errors)).length;`.
 */
const concatenatedErrors: Compaction = {
  name: "called validators' errors added by one helper",
  apply: (code) =>
    errorList(
      code,
      /^vErrors = vErrors === null \? (validate\d+\.errors) : vErrors\.concat\(\1\);\nerrors = vErrors\.length;$/gm,
      "errors = (vErrors = __concatIssues(vErrors, $1)).length;",
      /\bvErrors\.concat\(/,
    ),
};

/**
 * A branch that passed (of `anyOf`, `oneOf`, `not`) discards the errors of the branches tried
 * before it, in eight lines: `if(vErrors !== null){ if(_errs1){ vErrors.length = _errs1; }
 * else { vErrors = null; } }` becomes `vErrors = __truncateIssues(vErrors, _errs1);`.
 */
const truncatedErrors: Compaction = {
  name: "discarded errors truncated by one helper",
  apply: (code) =>
    errorList(
      code,
      /^if\(vErrors !== null\)\{\nif\((_errs\d+)\)\{\nvErrors\.length = \1;\n\}\nelse \{\nvErrors = null;\n\}\n\}$/gm,
      "vErrors = __truncateIssues(vErrors, $1);",
      /\bvErrors\.length = /,
    ),
};

/**
 * A check that fails and returns at once, 850 times a surface: `validate3.errors =
 * [__issue(instancePath,"type",{type: "string"})];` then `return false;` becomes
 * `return __fail(validate3, instancePath,"type",{type: "string"});` (ajv-helpers.ts).
 */
const failures: Compaction = {
  name: "failures returned by one helper",
  apply: (code) =>
    code.replace(
      /^(validate\d+)\.errors = \[__issue\((.*)\)\];\nreturn false;$/gm,
      "return __fail($1, $2);",
    ),
};

const VALIDATOR_START = /^function validate\d+\(.*\)\{$/gm;

/**
 * The code of each top-level validator function in `code` passed through `rewrite` (which
 * gets the whole function, header to closing brace), everything between them unchanged.
 */
function eachValidator(code: string, rewrite: (fn: string) => string): string {
  let out = "";
  let at = 0;
  for (const match of code.matchAll(VALIDATOR_START)) {
    if (match.index < at) continue;
    const end = closingBrace(code, match.index + match[0].length - 1, true);
    if (end < 0) throw new Error(`cannot find the end of ${match[0]}`);
    out += code.slice(at, match.index) + rewrite(code.slice(match.index, end + 1));
    at = end + 1;
  }
  return out + code.slice(at);
}

/** A write to a function's `errors` counter (not a validator's `.errors` property). */
const ERRORS_WRITE = /(?<![\w$.])errors\s*(?:\+\+|--|[-+]?=(?!=))/;
/** A read of the counter left once the rewrite is done: it was not one of the known forms. */
const ERRORS_LEFT = /(?<![\w$.])errors(?![\w$])/;

/**
 * Since `failures` returns at a failed check, more than half the validators of a surface
 * never change their error counter: everything but `anyOf`/`oneOf`-like branches returns at
 * once. In such a function `errors` is 0 throughout, so ajv's snapshots of it
 * (`const _errs3 = errors;`), the comparisons with them (`var valid0 = _errs3 === errors;`,
 * `if(errors === _errs3){`), its `if(errors === 0){` openers and `return errors === 0;`
 * are constants: `true`. The same holds for `vErrors`, never anything but `null` there.
 * Any other use of either leaves the function as ajv wrote it. Measured in
 * bench/experiments/validators-size.mjs (each compaction is a step there).
 */
const constantErrorCount: Compaction = {
  name: "error counter folded where it never changes",
  apply: (code) =>
    eachValidator(code, (fn) => {
      const body = fn.replace(/^let errors = 0;\n/m, "").replace(/^let vErrors = null;\n/m, "");
      if (body === fn || ERRORS_WRITE.test(body) || /\bvErrors = /.test(body)) return fn;
      const snapshots = new Set<string>();
      let out = body
        .replace(/^const (_errs\d+) = errors;\n/gm, (_, name: string) => {
          snapshots.add(name);
          return "";
        })
        .replace(/\b(_errs\d+) === errors\b|\berrors === (_errs\d+)\b/g, "true")
        .replace(/^if\(errors === 0\)\{$/gm, "{")
        .replace(/^if\(true\)\{$/gm, "{")
        .replace(/^return errors === 0;$/gm, "return true;")
        .replace(/^(validate\d+)\.errors = vErrors;$/gm, "$1.errors = null;");
      // What is left of `else { var valid0 = true; }` once the flag is gone.
      out = validFlagsAlwaysTrue(out).replace(/^\}\nelse \{\n\}$/gm, "}");
      const leftover = [...snapshots].some((s) => new RegExp(`\\b${s}\\b`).test(out));
      return leftover || ERRORS_LEFT.test(out) || /\bvErrors\b/.test(out) ? fn : out;
    }),
};

/**
 * After `constantErrorCount`, ajv's `validN` flags (`var valid0 = true;` in both branches of a
 * property's check, then `if(valid0){` around the next one) may be `true` at every assignment.
 * Such a flag is dropped and its `if` becomes a plain block. A flag with any other
 * assignment or use is kept.
 */
function validFlagsAlwaysTrue(fn: string): string {
  let out = fn;
  for (const name of new Set(Array.from(fn.matchAll(/\b(valid\d+)\b/g), (m) => m[1] ?? ""))) {
    const uses = out.match(new RegExp(`\\b${name}\\b`, "g"))?.length ?? 0;
    const assignments = out.match(new RegExp(`^var ${name} = true;$`, "gm"))?.length ?? 0;
    const tests = out.match(new RegExp(`^if\\(${name}\\)\\{$`, "gm"))?.length ?? 0;
    if (assignments === 0 || assignments + tests !== uses) continue;
    out = out
      .replace(new RegExp(`^var ${name} = true;\\n`, "gm"), "")
      .replace(new RegExp(`^if\\(${name}\\)\\{$`, "gm"), "{");
  }
  return out;
}

/**
 * `return __fail(validate3, instancePath,"type",{type: "string"});`, the failure of a `type`
 * check, 550 times a surface, becomes `return __failType(validate3, instancePath, "string");`
 * (ajv-helpers.ts): the same error.
 */
const typeFailures: Compaction = {
  name: "type failures returned by one helper",
  apply: (code) =>
    code.replace(
      /^return __fail\((validate\d+), (.*),"type",\{type: ([^{}\n]*)\}\);$/gm,
      "return __failType($1, $2, $3);",
    ),
};

/**
 * `data3 && typeof data3 == "object" && !Array.isArray(data3)`, ajv's test for an object, 530
 * times a surface, becomes `__isObject(data3)` (ajv-helpers.ts) where only its truth is read:
 * as an `if`'s whole condition or negated.
 */
const objectTests: Compaction = {
  name: "object tests by one helper",
  apply: (code) =>
    code.replace(
      /(?<=\bif\(|!\()(data\d*) && typeof \1 == "object" && !Array\.isArray\(\1\)(?=\))/g,
      "__isObject($1)",
    ),
};

/** A string literal, or a validator's name where it is code (not a property: `data.validate1`). */
const VALIDATOR_NAME = /"(?:[^"\\\n]|\\.)*"|(?<![\w$.])validate\d+(?![\w$])/g;

/** `code` with each validator's name where it is code replaced by `rename`'s answer. */
function renameValidators(code: string, rename: (name: string) => string): string {
  return code.replace(VALIDATOR_NAME, (token) => (token.startsWith('"') ? token : rename(token)));
}

/**
 * ajv compiles each schema on its own, so definitions that validate alike (capabilities that
 * hold only `_meta`, requests of the same fields) get a function each, 46 of v1's 155 shared
 * validators the same text as another but for their own name. Such a function is the same
 * validator: it reads the same constants and calls the same functions, and the `errors` it
 * sets are on itself. Each one goes, and every reference to it names the first of its kind;
 * repeated until no two are alike (a caller of two merged functions may become like another).
 */
const identicalValidators: Compaction = {
  name: "identical validators merged",
  apply(code) {
    let out = code;
    for (;;) {
      const first = new Map<string, string>();
      const merged = new Map<string, string>();
      let kept = "";
      let at = 0;
      let scanned = 0;
      for (const match of out.matchAll(VALIDATOR_START)) {
        // A function inside one already compared is part of its text.
        if (match.index < scanned) continue;
        const name = /validate\d+/.exec(match[0])?.[0] ?? "";
        const end = closingBrace(out, match.index + match[0].length - 1, true);
        if (end < 0) throw new Error(`cannot find the end of ${match[0]}`);
        scanned = end + 1;
        // Its own name as a character no code holds, so that only the rest is compared.
        const text = renameValidators(out.slice(match.index, end + 1), (n) =>
          n === name ? "\0" : n,
        );
        const same = first.get(text);
        if (same === undefined) {
          first.set(text, name);
          continue;
        }
        merged.set(name, same);
        kept += out.slice(at, match.index);
        at = end + 1 + (out[end + 1] === "\n" ? 1 : 0);
      }
      if (merged.size === 0) return out;
      out = renameValidators(kept + out.slice(at), (name) => merged.get(name) ?? name);
    }
  },
};

/** The rewrites the generator applies, in order. */
export const COMPACTIONS: readonly Compaction[] = [
  sourceUrls,
  schemaPaths,
  schemaConstants,
  errorObjects,
  pathArgument,
  pushedErrors,
  concatenatedErrors,
  truncatedErrors,
  failures,
  constantErrorCount,
  typeFailures,
  objectTests,
  identicalValidators,
];

const FUNCTION_START =
  /^function (validate\d+)\(.*\)\{\n\/\*# sourceURL=("(?:[^"\\\n]|\\.)*") \*\/;$/gm;

/**
 * ajv's code with the functions it compiled for the schemas in `imported` (schema id → name
 * the module `from` exports its validator as) replaced by imports of that module's. Each
 * function is found by the `sourceURL` comment ajv opens it with, so this runs before the
 * compactions drop those comments.
 */
export function importValidators(
  code: string,
  imported: ReadonlyMap<string, string>,
  from: string,
): string {
  const bindings: string[] = [];
  let out = "";
  let at = 0;
  for (const match of code.matchAll(FUNCTION_START)) {
    const [, local, id] = match;
    const name = imported.get(JSON.parse(id ?? '""') as string);
    if (name === undefined || local === undefined) continue;
    const start = match.index;
    const end = closingBrace(code, code.indexOf("{", start + match[0].indexOf(")")), true);
    if (end < 0) throw new Error(`cannot find the end of ajv's ${local}`);
    out += code.slice(at, start);
    at = end + 1 + (code[end + 1] === "\n" ? 1 : 0);
    bindings.push(`  ${name} as ${local},\n`);
  }
  out += code.slice(at);
  return bindings.length ? `import {\n${bindings.join("")}} from "${from}";\n${out}` : out;
}
