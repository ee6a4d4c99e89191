import type * as Runtime from "../../templates/runtime/parse.js";
import type { ShapeNode } from "../../templates/runtime/parse.js";
import type * as SchemaCheck from "../../templates/runtime/schema-check.js";
import { unknownFormats } from "../analysis/ajv-facts.js";
import type { PreparedChecks } from "../analysis/facts.js";
import { InputError } from "../errors.js";
import type { CheckSpec } from "../model/checks.js";
import type { Envelope, EnvelopeContent } from "../model/envelopes.js";
import type { PlanLayout, PlanTables } from "../model/plan-link.js";
import type { SurfaceModel } from "../model/protocol.js";
import type { UnionHelper } from "../model/repair-plan.js";
import { SURFACE_ID } from "../prepare/rules.js";
import type { Json, JsonObject } from "../schema/json.js";
import { containsRef } from "../schema/node.js";
import { hasCatchAll, knownTags } from "../schema/unions.js";
import { runtimeSpecifier } from "../symbols/exports.js";
import type { DefinitionSymbols, SurfaceSymbols } from "../symbols/table.js";
import { createStandaloneAjv, loadFormats, standaloneModule } from "./ajv.js";
import type { EmitContext } from "./context.js";
import { EXPERIMENTAL, type FunctionDeclarations } from "./guards.js";
import { commentSafe, jsLiteral, type LiteralStyle, literal } from "./js.js";
import { type Binding, namedImport, namespaceImport, sharedReexports, Uses } from "./module.js";
import { banner, type OutputFile } from "./output.js";
import { interpretable } from "./schema-checks.js";
import { checkName, shapeWalks, WALK_NAMES, type WalkRefs, walkName } from "./shape-walks.js";
import {
  SHARED_PARSE_CHECKS,
  SHARED_PARSERS,
  SHARED_VALIDATORS,
  sharedModuleFrom,
} from "./shared-code.js";

const LOCAL_ID = "acp-codegen:parse";

/** What parsers.js calls in the runtime's parse module, checked against its types. */
const CREATE_PLAN = "createParsePlan" satisfies keyof typeof Runtime;
/** What an envelope's parse is built with (templates/runtime/parse-envelope.ts). */
const ENVELOPE = "envelope" satisfies keyof typeof Runtime;
/** What a subschema check written as data is read by (templates/runtime/schema-check.ts). */
const SCHEMA_CHECK = "schemaCheck" satisfies keyof typeof SchemaCheck;
const PLAN = {
  read: "read",
  deep: "deep",
  variantGuard: "variantGuard",
  customGuard: "customGuard",
  untaggedGuard: "untaggedGuard",
  reshape: "reshape",
  free: "free",
  repairedAs: "repairedAs",
} as const satisfies Record<string, keyof Runtime.ParsePlan>;

/**
 * `parsers.js`: `parse<Name>` for every definition, and for every tagged union definition
 * `is<Name>Of(value, tag)` (plus `isCustom<Name>` for open unions). They are declared in
 * `types.d.ts` (`parserDeclarations`); as for guards.js, there is no `parsers.d.ts`.
 * The repair plan goes in as a table interpreted by runtime/parse.js. Its checks are the
 * definitions' own validators (the one compiled checker each definition has, which `is`,
 * `validate` and `assert` use too), composed where a subschema mixes them; what is left of a
 * subschema has no reference and is written as data, read by runtime/schema-check.js. Only a
 * check the runtime cannot read (`unevaluated*` beside a reference: no release has one) is
 * compiled, into `parsers-validators.js`, written only then.
 *
 * Beside an unstable surface, the stable surface also writes the records of the plan both
 * share, and the functions of the definitions both share, into `shared-parsers.js` (its
 * compiled checks, if any, into `shared-parsers-validators.js`): each surface's parsers.js imports the
 * records and numbers its own after them (model/plan-link.ts), and re-exports the
 * functions, so an unstable entry point holds only what its schema changed.
 */
export async function emitParsers(context: EmitContext): Promise<OutputFile[]> {
  const { surface, runtime: runtimePath, unstable } = context;
  const { layout } = context.facts;
  const prepared = context.facts.parseChecks;
  const locals = localChecks(prepared.checks, layout.base.checks.length, layout.own.checks.length);
  const files: OutputFile[] = [
    {
      path: `${surface.id}/parsers.js`,
      content: parsersJs(context, layout, locals),
    },
  ];
  // Only for checks the runtime cannot read as data (no release has one so far).
  if (compiledIn(locals).length > 0)
    files.push({
      path: `${surface.id}/parsers-validators.js`,
      content: await localValidatorsJs(surface, locals, prepared, runtimePath),
    });
  if (unstable && context.facts.sharing.planBase) {
    const baseLocals = localChecks(prepared.checks, 0, layout.base.checks.length);
    files.push({
      path: `${surface.id}/${SHARED_PARSERS}`,
      content: sharedParsersJs(context, layout, baseLocals),
    });
    if (compiledIn(baseLocals).length > 0)
      files.push({
        path: `${surface.id}/${SHARED_PARSE_CHECKS}`,
        content: await localValidatorsJs(surface, baseLocals, prepared, runtimePath),
      });
  }
  return files;
}

/** The shared module's one export: its tables (checks, nodes, shapes, walks) for the surfaces' plans. */
const BASE_TABLES = "base";

/**
 * The prepared local checks (analysis/facts.ts `parseChecks`) numbered `first` to
 * `first + count - 1`: check index → the schema, and for one the runtime cannot read as data
 * (schema-checks.ts), its export name in the parsers-validators module that compiles it.
 */
function localChecks(
  prepared: ReadonlyMap<number, Json>,
  first: number,
  count: number,
): Map<number, LocalCheck> {
  const locals = new Map<number, LocalCheck>();
  let compiled = 0;
  for (let index = first; index < first + count; index++) {
    const schema = prepared.get(index);
    if (schema === undefined) continue;
    locals.set(index, interpretable(schema) ? { schema } : { schema, name: `k${compiled++}` });
  }
  return locals;
}

interface LocalCheck {
  /** As prepared for the parse checks. */
  schema: Json;
  /** Its export from the parsers-validators module; absent: written as data, read by the runtime. */
  name?: string;
}

/** The local checks compiled into a parsers-validators module, with their names. */
function compiledIn(locals: Map<number, LocalCheck>): Array<{ name: string; schema: Json }> {
  return [...locals.values()].flatMap(({ name, schema }) =>
    name === undefined ? [] : [{ name, schema }],
  );
}

/** A module's records as lines of JavaScript, table by table. */
interface PlanCode {
  checks: string[];
  nodes: string[];
  shapes: string[];
  walks: string[];
}

/** `tables`, the layout's base or its own records: own records are numbered after the base's. */
function planCode(
  tables: PlanTables,
  layout: PlanLayout,
  locals: Map<number, LocalCheck>,
  names: SurfaceSymbols,
  refs: ModuleRefs,
): PlanCode {
  const first = tables === layout.base ? 0 : undefined;
  const check = first ?? layout.base.checks.length;
  const node = first ?? layout.base.nodes.length;
  const shape = first ?? layout.base.shapes.length;
  const nodeAt = (i: number): ShapeNode =>
    (i < layout.base.shapes.length
      ? layout.base.shapes[i]
      : layout.own.shapes[i - layout.base.shapes.length]) as ShapeNode;
  return {
    checks: tables.checks.map(
      (spec, i) =>
        `const ${checkName(check + i)} = ${checkExpression(spec, check + i, locals, names, layout.openBodies, refs)};`,
    ),
    nodes: tables.nodes.map(
      (record, i) =>
        `  /* ${node + i} ${commentSafe(tables.where[i] ?? "")} */ ${jsLiteral(record, PLAN_STYLE)},`,
    ),
    shapes: tables.shapes.map(
      (record, i) =>
        `  /* ${shape + i} ${commentSafe(tables.shapeWhere[i] ?? "")} */ ${jsLiteral(record, SHAPE_STYLE)},`,
    ),
    walks: shapeWalks(tables.shapes, shape, nodeAt, refs),
  };
}

/** `c<i>` and `s<i>` for `count` indices from `first`. */
const indexed = (prefix: string, first: number, count: number): string[] =>
  Array.from({ length: count }, (_, i) => `${prefix}${first + i}`);

/**
 * How a parse module's code writes the names it calls (module.ts): the definitions' validators
 * and the compiled local checks, imported; the shared module's checks and walks (those numbered
 * below `outside`), bound from its tables; the runtime's combinators, under its namespace. Each
 * is recorded as it is written, and the module's head is rendered from what was.
 */
interface ModuleRefs extends WalkRefs {
  readonly uses: Uses;
  validator(name: string): string;
  local(name: string): string;
  /** `P.<member>`: a member of the runtime's parse module. */
  runtime(member: string): string;
  /** The bindings in the order the module's head writes them. */
  readonly head: readonly Binding[];
  /** The shared module's entries this module's code calls: its checks, then its walks. */
  readonly base: readonly Binding[];
}

/** The namespace parsers.js imports the runtime under: no definition's name `v<Name>` can clash. */
const RUNTIME_NAMESPACE = "P";

function moduleRefs(
  { names, runtime: runtimePath }: EmitContext,
  locals: Map<number, LocalCheck>,
  from: { validators: string; locals: string },
  outside: { checks: number; shapes: number },
): ModuleRefs {
  const uses = new Uses();
  const runtime = namespaceImport(
    RUNTIME_NAMESPACE,
    runtimeSpecifier(runtimePath, "parse.js", false),
  );
  const validators = namedImport(
    from.validators,
    names.definitions.map((d) => d.validator),
  );
  const compiled = namedImport(
    from.locals,
    compiledIn(locals).map((l) => l.name),
  );
  const checks = baseBinding("checks", checkName);
  const walks = baseBinding("walks", walkName);
  return {
    uses,
    head: [runtime, validators, compiled],
    base: [checks, walks],
    validator: (name) => uses.ref(validators, name),
    local: (name) => uses.ref(compiled, name),
    runtime: (member) => `${uses.ref(runtime, RUNTIME_NAMESPACE)}.${member}`,
    check: (i) => (i < outside.checks ? uses.ref(checks, checkName(i)) : checkName(i)),
    walk: (i) => (i < outside.shapes ? uses.ref(walks, walkName(i)) : walkName(i)),
  };
}

/** `const { 12: c12, … } = base.checks;` (likewise for walks): the shared table's entries by index. */
function baseBinding(table: "checks" | "walks", nameOf: (index: number) => string): Binding {
  const index = (name: string) => Number(name.slice(1));
  return {
    rank: index,
    line: (used) =>
      `const { ${used.map((n) => `${index(n)}: ${nameOf(index(n))}`).join(", ")} } = ${BASE_TABLES}.${table};`,
  };
}

/** `parse<Name>` of `defs` and the union helpers of `unions`, on the module's plan. */
function functionLines(
  { names, facts }: EmitContext,
  defs: readonly DefinitionSymbols[],
  unions: readonly UnionHelper[],
  refs: ModuleRefs,
): string[] {
  const { layout, nestsItself: nesting } = facts;
  const functions: string[] = [];
  for (const def of defs) {
    const shape = layout.shapeRoots.get(def.key);
    // type name, then shape root, repair root and open check where there are.
    const optional = [shape, layout.roots.get(def.key), layout.open.get(def.key)].map((n) =>
      n === undefined ? "undefined" : String(n),
    );
    while (optional.at(-1) === "undefined") optional.pop();
    const validator = refs.validator(def.validator);
    const slow = `R(v, o, ${[validator, literal(def.type), ...optional].join(", ")})`;
    const fast = shape === undefined ? "v" : `${refs.walk(shape)}(v, false)`;
    const call = `return ${validator}(v) ? ${fast} : ${slow};`;
    // Only a definition that can nest itself can be nested deeper than the call stack.
    const body = nesting.has(def.key)
      ? `{ try { ${call} } catch (e) { throw D(e, ${literal(def.type)}); } }`
      : `{ ${call} }`;
    const envelope = facts.envelopes.get(def.key);
    functions.push(
      envelope === undefined
        ? `export function ${def.parse}(v, o) ${body}`
        : envelopeLine(def, envelope, `(v, o) => ${body}`, layout.open.get(def.key), names, refs),
    );
  }
  for (const helper of unions) {
    const { variantGuard, customGuard, untaggedGuard, validator } = names.definition(
      helper.def.key,
    );
    const tag = literal(helper.union.tag);
    const variants = jsLiteral(helper.variants.map((v) => [v.tag, v.check]));
    const other = helper.other === undefined ? "" : `, ${helper.other}`;
    functions.push(
      `export const ${variantGuard} = /* @__PURE__ */ plan.${PLAN.variantGuard}(${tag}, ${variants}${other});`,
    );
    if (helper.other !== undefined) {
      const known = jsLiteral(knownTags(helper.union));
      functions.push(
        `export const ${customGuard} = /* @__PURE__ */ plan.${PLAN.customGuard}(${tag}, ${known}, ${helper.other});`,
      );
    }
    if (untaggedGuard !== undefined)
      functions.push(
        `export const ${untaggedGuard} = /* @__PURE__ */ plan.${PLAN.untaggedGuard}(${tag}, ${refs.validator(validator)});`,
      );
  }
  return functions;
}

/**
 * `parse<Name>` of an envelope (model/envelopes.ts): the definition's own reading, `base`,
 * wrapped by the runtime's `envelope`, which reads the content by method with the table's
 * `parse<Name>` functions.
 */
function envelopeLine(
  def: DefinitionSymbols,
  envelope: Envelope,
  base: string,
  open: number | undefined,
  names: SurfaceSymbols,
  refs: ModuleRefs,
): string {
  const contents = envelope.contents.map((content) => {
    const by = content.methods
      .map((m) => `[${literal(m.method)}, ${names.definition(m.definition).parse}]`)
      .join(", ");
    const method =
      content.methodProperty === undefined ? [] : [`method: ${literal(content.methodProperty)}`];
    const id = content.id === undefined ? [] : [`id: ${content.id}`];
    return `{ ${[`property: ${literal(content.property)}`, ...method, ...id, `by: new Map([${by}])`].join(", ")} }`;
  });
  const spec = [
    `type: ${literal(def.type)}`,
    `validator: ${refs.validator(def.validator)}`,
    ...(open === undefined ? [] : [`open: ${refs.check(open)}`]),
    `contents: [${contents.join(", ")}]`,
  ];
  return `export const ${def.parse} = /* @__PURE__ */ ${refs.runtime(ENVELOPE)}(${base}, { ${spec.join(", ")} });`;
}

/**
 * The `parse<Name>` functions the envelopes among `defs` call that this module only
 * re-exports from the shared one: imported under this surface's names, as `[theirs, own]`.
 */
function envelopeImports(
  { names, facts, stableNames }: EmitContext,
  defs: readonly DefinitionSymbols[],
): Array<[string, string]> {
  const theirs = stableNames ?? names;
  const out = new Map<string, string>();
  for (const def of defs)
    for (const m of facts.envelopes.get(def.key)?.contents.flatMap((c) => c.methods) ?? [])
      if (facts.sharing.parsers.has(m.definition))
        out.set(names.definition(m.definition).parse, theirs.definition(m.definition).parse);
  return [...out].map(([own, shared]) => [shared, own]);
}

/**
 * The opening lines of a record table, closed by `]);`: a function that builds the records on
 * its first call and keeps them (what `createParsePlan` takes; runtime/parse.ts says why).
 */
function lazyTable(name: "nodes" | "shapes"): string[] {
  const records = `${name}Records`;
  return [`let ${records};`, `const ${name} = () => (${records} ??= [`];
}

function parsersJs(
  context: EmitContext,
  layout: PlanLayout,
  locals: Map<number, LocalCheck>,
): string {
  const { surface, names, stable } = context;
  const shared = context.facts.sharing.planBase;
  const { base } = layout;
  // What this module's own code calls of the shared module is bound from its tables.
  const refs = moduleRefs(
    context,
    locals,
    { validators: "./validators.js", locals: "./parsers-validators.js" },
    { checks: base.checks.length, shapes: base.shapes.length },
  );
  const code = planCode(layout.own, layout, locals, names, refs);
  const spread = (table: string) => (shared ? [`...${BASE_TABLES}.${table}`] : []);
  const counts = {
    checks: base.checks.length,
    shapes: base.shapes.length,
  };

  const body: string[] = [
    "",
    "// Checks of subschemas: definitions' validators, composed where a subschema mixes them.",
    ...code.checks,
    `const checks = [${[...spread("checks"), ...indexed("c", counts.checks, layout.own.checks.length)].join(", ")}];`,
    "",
    "// The repair plan: one node per subschema that leads to an x-deserialize-* annotation.",
    ...lazyTable("nodes"),
    ...spread("nodes()").map((s) => `  ${s},`),
    ...code.nodes,
    "]);",
    "// The shape plan: what serde keeps of a valid value, one node per subschema that can hold an object.",
    ...lazyTable("shapes"),
    ...spread("shapes()").map((s) => `  ${s},`),
    ...code.shapes,
    "]);",
    "// Fast walks of the shape plan: a valid value serde keeps whole is returned as is; the plan's",
    "// interpreter (S) takes over where anything must change.",
    ...code.walks,
    `const plan = /* @__PURE__ */ ${refs.runtime(CREATE_PLAN)}(nodes, shapes, checks, [${[...spread("walks"), ...indexed("s", counts.shapes, layout.own.shapes.length)].join(", ")}]);`,
    `const { ${PLAN.reshape}: ${WALK_NAMES.reshape}, ${PLAN.free}: ${WALK_NAMES.free}, ${PLAN.repairedAs}: ${WALK_NAMES.repairedAs}, ${PLAN.read}: R, ${PLAN.deep}: D } = plan;`,
    `const ${WALK_NAMES.hasOwn} = Object.hasOwn;`,
    "",
    "// parse<Name>: a valid value takes its shape walk; anything else is the plan's (R).",
  ];
  const inBase = context.facts.sharing;
  const own = names.definitions.filter((d) => !inBase.parsers.has(d.key));
  const functions = functionLines(
    context,
    own,
    layout.unions.filter((u) => !inBase.unions.has(u.def.key)),
    refs,
  );
  const imported = envelopeImports(context, own);
  // The shared module's functions, under this surface's names (the stable one's there).
  functions.unshift(...sharedReexports(context, "parsers"));

  const lines = [banner(surface.schemaFile.name), ...refs.uses.lines(refs.head)];
  if (imported.length > 0)
    lines.push(
      "// The shared parse<Name> functions this module's envelopes read their methods' content with.",
      `import { ${imported.map(([from, to]) => (from === to ? to : `${from} as ${to}`)).join(", ")} } from "${sharedModuleFrom(surface, stable, SHARED_PARSERS)}";`,
    );
  if (shared) {
    lines.push(
      `import { ${BASE_TABLES} } from "${sharedModuleFrom(surface, stable, SHARED_PARSERS)}";`,
      "// The shared checks and walks this module's own code calls, under their names in the plan.",
      ...refs.uses.lines(refs.base),
    );
  }
  return `${[...lines, ...body, ...functions].join("\n")}\n`;
}

/**
 * The stable folder's `shared-parsers.js`: the base records of both surfaces' plans as one
 * object, `base` (its checks and walks too, which the surfaces' own code calls: one export,
 * not one per function, keeps linking the module cheap), and the `parse<Name>` functions and
 * union helpers of the definitions both share (analysis/sharing.ts `sharedParsers`). Its walks and functions run
 * on a plan of the base records alone, which is complete (model/plan-link.ts): in it the
 * records mean what they mean in either surface's plan. References to definitions are to the
 * shared validators, under the stable surface's names.
 */
function sharedParsersJs(
  context: EmitContext,
  layout: PlanLayout,
  locals: Map<number, LocalCheck>,
): string {
  const { names } = context;
  const { base } = layout;
  // Every record here is the module's own: nothing is bound from another parse module.
  const refs = moduleRefs(
    context,
    locals,
    { validators: `./${SHARED_VALIDATORS}`, locals: `./${SHARED_PARSE_CHECKS}` },
    { checks: 0, shapes: 0 },
  );
  const code = planCode(base, layout, locals, names, refs);
  const inBase = context.facts.sharing;
  const functions = functionLines(
    context,
    names.definitions.filter((d) => inBase.parsers.has(d.key)),
    layout.unions.filter((u) => inBase.unions.has(u.def.key)),
    refs,
  );
  const plan = `const plan = /* @__PURE__ */ ${refs.runtime(CREATE_PLAN)}(nodes, shapes, checks, walks);`;
  const lines = [banner(context.surface.schemaFile.name), ...refs.uses.lines(refs.head)];
  lines.push(
    "",
    "// Checks of subschemas both surfaces' plans share.",
    ...code.checks,
    `const checks = [${indexed("c", 0, base.checks.length).join(", ")}];`,
    "",
    "// Repair nodes both plans share.",
    ...lazyTable("nodes"),
    ...code.nodes,
    "]);",
    "// Shape nodes both plans share, and their fast walks.",
    ...lazyTable("shapes"),
    ...code.shapes,
    "]);",
    ...code.walks,
    `const walks = [${indexed("s", 0, base.shapes.length).join(", ")}];`,
    `export const ${BASE_TABLES} = { checks, nodes, shapes, walks };`,
    plan,
    `const { ${PLAN.reshape}: ${WALK_NAMES.reshape}, ${PLAN.free}: ${WALK_NAMES.free}, ${PLAN.repairedAs}: ${WALK_NAMES.repairedAs}, ${PLAN.read}: R, ${PLAN.deep}: D } = plan;`,
    `const ${WALK_NAMES.hasOwn} = Object.hasOwn;`,
    "",
    "// parse<Name> and the union helpers of the definitions both surfaces share.",
    ...functions,
  );
  return `${lines.join("\n")}\n`;
}

function checkExpression(
  spec: CheckSpec,
  index: number,
  locals: Map<number, LocalCheck>,
  names: SurfaceSymbols,
  openBodies: ReadonlyMap<string, number>,
  refs: ModuleRefs,
): string {
  // Pure calls: a bundler may drop the whole table when no parser is imported.
  const use = (name: string): string => `/* @__PURE__ */ ${refs.runtime(name)}`;
  const c = (i: number) => refs.check(i);
  switch (spec.kind) {
    case "ref":
      return refs.validator(names.definition(spec.def).validator);
    case "open":
      // Called through the index: the body may come later in the table (cycles).
      return `(v) => ${c(openBodies.get(spec.def) as number)}(v)`;
    case "local": {
      const local = locals.get(index) as LocalCheck;
      return local.name === undefined
        ? `${use(SCHEMA_CHECK)}(${jsLiteral(local.schema)})`
        : refs.local(local.name);
    }
    case "all":
    case "any":
    case "one":
      return `${use(spec.kind)}(${spec.of.map(c).join(", ")})`;
    case "not":
      return `${use("not")}(${c(spec.of)})`;
    case "items":
      return `${use("items")}(${c(spec.of)})`;
    case "props":
      return `${use("props")}([${spec.of.map(([n, i]) => `[${literal(n)}, ${c(i)}]`).join(", ")}])`;
    case "values":
      return `${use("values")}(${c(spec.of)}, ${jsLiteral(spec.declared)})`;
    case "tag":
      return `${use("tag")}(${literal(spec.property)}, ${literal(spec.value)})`;
    case "otherTag":
      return `${use("otherTag")}(${literal(spec.property)}, ${jsLiteral(spec.known)})`;
  }
}

/**
 * Plan records as parsers.js has always spelled them: `{  }` when empty, while the schema's
 * values inside them (fallbacks, defaults) are plain JSON literals (`{}`).
 */
const PLAN_STYLE: LiteralStyle = {
  emptyObject: "{  }",
  dataKeys: new Set(["fallback", "onNull", "default"]),
};
const SHAPE_STYLE: LiteralStyle = { dataKeys: new Set(["onNull", "default"]) };

/**
 * `parse<Name>` of every definition and the union helpers, as constants of the shared
 * signatures (declared in `types.d.ts`, see `FunctionDeclarations`).
 */
export function parserDeclarations({
  surface,
  names,
  facts,
}: Pick<EmitContext, "surface" | "names" | "facts">): FunctionDeclarations {
  const {
    parse: Parse,
    openParse,
    responseParse,
    openResponseParse,
    variantGuard,
    openVariantGuard,
    customGuard,
    untaggedGuard,
  } = names.signatures;
  const R = names.locals.received;
  // A definition that reaches a closed tagged union can also be read the open way
  // (`{ unknownVariants: "keep" }`), which returns its received type.
  const open = facts.reachesClosed;
  const used = new Set<string>();
  const lines: string[] = [];
  const exported: string[] = [];
  const declare = (
    name: string,
    signature: string,
    args: string,
    experimental: boolean,
    doc?: string[],
  ) => {
    if (doc)
      lines.push(
        "/**",
        ...doc.map((l) => ` * ${l}`),
        ...(experimental ? [` * ${EXPERIMENTAL.slice(4, -3)}`] : []),
        " */",
      );
    else if (experimental) lines.push(EXPERIMENTAL);
    lines.push(`export declare const ${name}: ${signature}<${args}>;`);
    used.add(signature);
    exported.push(name);
  };
  for (const def of surface.definitions) {
    const { parse, type } = names.definition(def.key);
    const experimental = def.experimental === "new";
    const envelope = facts.envelopes.get(def.key);
    const doc = envelope && envelopeDoc(envelope, names);
    // A response names no method: its parse takes the caller's (`ResponseParse`).
    const byCaller = envelope?.contents.some((c) => c.methodProperty === undefined) ?? false;
    if (open.has(def.key))
      declare(
        parse,
        byCaller ? openResponseParse : openParse,
        `${type}, ${R}.${type}`,
        experimental,
        doc,
      );
    else declare(parse, byCaller ? responseParse : Parse, type, experimental, doc);
  }
  for (const def of surface.definitions) {
    const own = names.definition(def.key);
    if (!def.union || own.variantGuard === undefined) continue;
    const experimental = def.experimental === "new";
    // The union, its tag property and the known tags: what the shared signature derives from.
    const tag = literal(def.union.tag);
    const args = `${own.type}, ${tag}, ${knownTags(def.union).map(literal).join(" | ")}`;
    if (hasCatchAll(def.union)) {
      declare(own.variantGuard, openVariantGuard, args, experimental);
      if (own.customGuard !== undefined) declare(own.customGuard, customGuard, args, experimental);
    } else declare(own.variantGuard, variantGuard, args, experimental);
    if (own.untaggedGuard !== undefined)
      declare(own.untaggedGuard, untaggedGuard, `${own.type}, ${tag}`, experimental);
  }
  return {
    signatures: [...used].sort(),
    exported,
    readsReceived: used.has(openParse) || used.has(openResponseParse),
    lines,
  };
}

/** The doc comment of an envelope's `parse<Name>`: which method reads its content, and how. */
function envelopeDoc(envelope: Envelope, names: SurfaceSymbols): string[] {
  const first = envelope.contents.filter(
    (c, i, all) => all.findIndex((o) => o.property === c.property) === i,
  );
  return first.flatMap((content) => {
    const property = `\`${content.property}\``;
    const example = content.methods[0] as EnvelopeContent["methods"][number];
    const parse = `\`${names.definition(example.definition).parse}\``;
    if (content.methodProperty !== undefined)
      return [
        `Reads ${property} by the message's \`${content.methodProperty}\`, as the connection does:`,
        `with that method's parse (\`${example.method}\`: ${parse}). An extension's method, or`,
        `one this surface does not know, keeps its ${property} whole; a known method's parse`,
        `refusing its ${property} makes the message invalid.`,
      ];
    return [
      `A response's ${property} answers a request it does not name: with \`{ method }\`, the`,
      `request's method, it is read as that method's result (\`{ method: ${literal(example.method)} }\`:`,
      `${parse}); without it, or for a method this surface does not know, it is kept whole.`,
    ];
  });
}

/** ajv standalone code for the local checks, wired to the package runtime like validators.js. */
async function localValidatorsJs(
  surface: SurfaceModel,
  locals: Map<number, LocalCheck>,
  prepared: PreparedChecks,
  runtimePath: string,
): Promise<string> {
  const head = banner(surface.schemaFile.name);
  const formats = await loadFormats();
  const schemas = new Map<string, Json>();
  for (const { name, schema } of compiledIn(locals)) schemas.set(name, schema);
  const unknown = new Set(
    [...schemas.values()].flatMap((schema) => unknownFormats(schema, formats)),
  );

  // Only a local check that could not be split refers to definitions (none upstream so far);
  // then they are compiled here as well, in one container schema (prepare/backends.ts).
  const definitions = [...schemas.values()].some(containsRef)
    ? (prepared.definitions as JsonObject)
    : undefined;
  // strictTypes off: a branch compiled on its own no longer sees the `type` its parent
  // declared, which strict mode would flag although the meaning is unchanged.
  const ajv = createStandaloneAjv(formats, unknown, [...schemas.values(), definitions ?? {}], {
    strictTypes: false,
  });
  const exports: Record<string, string> = {};
  let code: string;
  try {
    if (definitions)
      ajv.addSchema({ $id: SURFACE_ID, [surface.defsKeyword]: definitions }, SURFACE_ID);
    for (const [name, schema] of schemas) {
      ajv.addSchema(schema as JsonObject, `${LOCAL_ID}/${name}`);
      exports[name] = `${LOCAL_ID}/${name}`;
    }
    code = standaloneModule(ajv, exports, runtimePath, "parsers-validators.js");
  } catch (error) {
    throw new InputError(
      surface.schemaFile.display,
      "",
      `cannot compile parse checks: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return `${head}${code}`;
}
