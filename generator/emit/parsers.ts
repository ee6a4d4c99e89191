import type * as Runtime from "../../templates/runtime/parse.js";
import { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import type { CheckSpec } from "../model/checks.js";
import type { SurfaceModel } from "../model/protocol.js";
import { buildRepairPlan, type RepairPlan } from "../model/repair-plan.js";
import {
  contextOf,
  type PrepareInput,
  prepareDefinitions,
  prepareSchema,
} from "../prepare/backends.js";
import { SURFACE_ID } from "../prepare/rules.js";
import type { Json, JsonObject } from "../schema/json.js";
import { containsRef } from "../schema/node.js";
import { selfNesting } from "../schema/refs.js";
import { hasCatchAll, knownTags, reachingClosedUnions } from "../schema/unions.js";
import { runtimeSpecifier } from "../symbols/exports.js";
import type { SurfaceSymbols } from "../symbols/table.js";
import { createStandaloneAjv, loadFormats, standaloneModule, unknownFormats } from "./ajv.js";
import type { EmitContext } from "./context.js";
import { EXPERIMENTAL, type FunctionDeclarations, reexportFromTypes } from "./guards.js";
import { commentSafe, jsLiteral, type LiteralStyle, literal } from "./js.js";
import { banner, type OutputFile } from "./output.js";
import { shapeWalks, WALK_NAMES, walkName } from "./shape-walks.js";

const LOCAL_ID = "acp-codegen:parse";

/** What parsers.js calls in the runtime's parse module, checked against its types. */
const CREATE_PLAN = "createParsePlan" satisfies keyof typeof Runtime;
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
 * `parsers.js` / `parsers.d.ts`: `parse<Name>` for every definition, and for every tagged
 * union definition `is<Name>Of(value, tag)` (plus `isCustom<Name>` for open unions).
 * They are declared in `types.d.ts` (`parserDeclarations`); `parsers.d.ts` re-exports them.
 * The repair plan goes in as a table interpreted by runtime/parse.js; `parsers-validators.js`
 * holds the few ref-free subschema checks the definitions' validators cannot answer.
 */
export async function emitParsers(context: EmitContext): Promise<OutputFile[]> {
  const { surface, names, runtime: runtimePath } = context;
  const plan = buildRepairPlan(surface);
  const locals = localChecks(plan.checks.specs);
  return [
    {
      path: `${surface.id}/parsers.js`,
      content: parsersJs(surface, names, plan, locals, runtimePath),
    },
    {
      path: `${surface.id}/parsers.d.ts`,
      content: reexportFromTypes(
        banner(surface.schemaFile.name),
        parserDeclarations(context).exported,
      ),
    },
    {
      path: `${surface.id}/parsers-validators.js`,
      content: await localValidatorsJs(surface, plan.checks.specs, locals, runtimePath),
    },
  ];
}

/** Export name in parsers-validators.js of each local check, by check index. */
function localChecks(specs: CheckSpec[]): Map<number, string> {
  const names = new Map<number, string>();
  specs.forEach((spec, i) => {
    if (spec.kind === "local") names.set(i, `k${names.size}`);
  });
  return names;
}

function parsersJs(
  surface: SurfaceModel,
  names: SurfaceSymbols,
  plan: RepairPlan,
  locals: Map<number, string>,
  runtimePath: string,
): string {
  const validators = names.definitions.map((d) => d.validator);
  const checkLines = plan.checks.specs.map((spec, i) => {
    const expression = checkExpression(spec, i, locals, names, plan.checks.openBodies);
    return `const c${i} = ${expression};`;
  });

  // The runtime under one namespace: no definition's validator name (`v<Name>`) can clash.
  const lines = [
    banner(surface.schemaFile.name),
    `import * as P from "${runtimeSpecifier(runtimePath, "parse.js", false)}";`,
    `import { ${validators.join(", ")} } from "./validators.js";`,
  ];
  if (locals.size > 0)
    lines.push(`import { ${[...locals.values()].join(", ")} } from "./parsers-validators.js";`);
  lines.push(
    "",
    "// Checks of subschemas: definitions' validators, composed where a subschema mixes them.",
    ...checkLines,
    `const checks = [${plan.checks.specs.map((_, i) => `c${i}`).join(", ")}];`,
    "",
    "// The repair plan: one node per subschema that leads to an x-deserialize-* annotation.",
    "const nodes = [",
    ...plan.nodes.map(
      (node, i) =>
        `  /* ${i} ${commentSafe(plan.where[i] ?? "")} */ ${jsLiteral(node, PLAN_STYLE)},`,
    ),
    "];",
    "// The shape plan: what serde keeps of a valid value, one node per subschema that can hold an object.",
    "const shapes = [",
    ...plan.shapes.nodes.map(
      (node, i) =>
        `  /* ${i} ${commentSafe(plan.shapes.where[i] ?? "")} */ ${jsLiteral(node, SHAPE_STYLE)},`,
    ),
    "];",
    "// Fast walks of the shape plan: a valid value serde keeps whole is returned as is; the plan's",
    "// interpreter (S) takes over where anything must change.",
    ...shapeWalks(plan.shapes),
    `const plan = /* @__PURE__ */ P.${CREATE_PLAN}(nodes, shapes, checks, [${plan.shapes.nodes.map((_, i) => walkName(i)).join(", ")}]);`,
    `const { ${PLAN.reshape}: ${WALK_NAMES.reshape}, ${PLAN.free}: ${WALK_NAMES.free}, ${PLAN.repairedAs}: ${WALK_NAMES.repairedAs}, ${PLAN.read}: R, ${PLAN.deep}: D } = plan;`,
    `const ${WALK_NAMES.hasOwn} = Object.hasOwn;`,
    "",
    "// parse<Name>: a valid value takes its shape walk; anything else is the plan's (R).",
  );
  const nesting = selfNesting(
    Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema])),
    surface.defsKeyword,
  );
  for (const def of names.definitions) {
    const shape = plan.shapes.roots.get(def.key);
    // type name, then shape root, repair root and open check where there are.
    const optional = [shape, plan.roots.get(def.key), plan.open.get(def.key)].map((n) =>
      n === undefined ? "undefined" : String(n),
    );
    while (optional.at(-1) === "undefined") optional.pop();
    const slow = `R(v, o, ${[def.validator, literal(def.type), ...optional].join(", ")})`;
    const fast = shape === undefined ? "v" : `${walkName(shape)}(v, false)`;
    const body = `return ${def.validator}(v) ? ${fast} : ${slow};`;
    // Only a definition that can nest itself can be nested deeper than the call stack.
    lines.push(
      nesting.has(def.key)
        ? `export function ${def.parse}(v, o) { try { ${body} } catch (e) { throw D(e, ${literal(def.type)}); } }`
        : `export function ${def.parse}(v, o) { ${body} }`,
    );
  }
  for (const helper of plan.unions) {
    const { variantGuard, customGuard, untaggedGuard, validator } = names.definition(
      helper.def.key,
    );
    const tag = literal(helper.union.tag);
    const variants = jsLiteral(helper.variants.map((v) => [v.tag, v.check]));
    const other = helper.other === undefined ? "" : `, ${helper.other}`;
    lines.push(
      `export const ${variantGuard} = /* @__PURE__ */ plan.${PLAN.variantGuard}(${tag}, ${variants}${other});`,
    );
    if (helper.other !== undefined) {
      const known = jsLiteral(knownTags(helper.union));
      lines.push(
        `export const ${customGuard} = /* @__PURE__ */ plan.${PLAN.customGuard}(${tag}, ${known}, ${helper.other});`,
      );
    }
    if (untaggedGuard !== undefined)
      lines.push(
        `export const ${untaggedGuard} = /* @__PURE__ */ plan.${PLAN.untaggedGuard}(${tag}, ${validator});`,
      );
  }
  return `${lines.join("\n")}\n`;
}

function checkExpression(
  spec: CheckSpec,
  index: number,
  locals: Map<number, string>,
  names: SurfaceSymbols,
  openBodies: ReadonlyMap<string, number>,
): string {
  // Pure calls: a bundler may drop the whole table when no parser is imported.
  const use = (name: string): string => `/* @__PURE__ */ P.${name}`;
  switch (spec.kind) {
    case "ref":
      return names.definition(spec.def).validator;
    case "open":
      // Called through the index: the body may come later in the table (cycles).
      return `(v) => c${openBodies.get(spec.def)}(v)`;
    case "local":
      return locals.get(index) as string;
    case "all":
    case "any":
    case "one":
      return `${use(spec.kind)}(${spec.of.map((c) => `c${c}`).join(", ")})`;
    case "not":
      return `${use("not")}(c${spec.of})`;
    case "items":
      return `${use("items")}(c${spec.of})`;
    case "props":
      return `${use("props")}([${spec.of.map(([n, c]) => `[${literal(n)}, c${c}]`).join(", ")}])`;
    case "values":
      return `${use("values")}(c${spec.of}, ${jsLiteral(spec.declared)})`;
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
export function parserDeclarations({ surface, names }: EmitContext): FunctionDeclarations {
  const {
    parse: Parse,
    openParse,
    variantGuard,
    openVariantGuard,
    customGuard,
    untaggedGuard,
  } = names.signatures;
  const R = names.locals.received;
  // A definition that reaches a closed tagged union can also be read the open way
  // (`{ unknownVariants: "keep" }`), which returns its received type.
  const open = reachingClosedUnions(
    Object.fromEntries(surface.definitions.map((d) => [d.key, d.schema])),
    surface.defsKeyword,
  );
  const used = new Set<string>();
  const lines: string[] = [];
  const exported: string[] = [];
  const declare = (name: string, signature: string, args: string, experimental: boolean) => {
    if (experimental) lines.push(EXPERIMENTAL);
    lines.push(`export declare const ${name}: ${signature}<${args}>;`);
    used.add(signature);
    exported.push(name);
  };
  for (const def of surface.definitions) {
    const { parse, type } = names.definition(def.key);
    const experimental = def.experimental === "new";
    if (open.has(def.key)) declare(parse, openParse, `${type}, ${R}.${type}`, experimental);
    else declare(parse, Parse, type, experimental);
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
  return { signatures: [...used].sort(), exported, readsReceived: used.has(openParse), lines };
}

/** ajv standalone code for the local checks, wired to the package runtime like validators.js. */
async function localValidatorsJs(
  surface: SurfaceModel,
  specs: CheckSpec[],
  locals: Map<number, string>,
  runtimePath: string,
): Promise<string> {
  const head = banner(surface.schemaFile.name);
  if (locals.size === 0) return `${head}export {};\n`;
  const formats = await loadFormats();
  // The validators warned about what these schemas hold already.
  const input: PrepareInput = {
    defsKeyword: surface.defsKeyword,
    definitions: surface.definitions,
    file: surface.schemaFile.display,
    diagnostics: new Diagnostics(),
  };
  const schemas = new Map<string, Json>();
  for (const [index, name] of locals) {
    const spec = specs[index] as Extract<CheckSpec, { kind: "local" }>;
    schemas.set(name, prepareSchema("parse-checks", spec.schema, contextOf(input, "")));
  }
  const unknown = new Set(
    [...schemas.values()].flatMap((schema) => unknownFormats(schema, formats)),
  );

  // Only a local check that could not be split refers to definitions (none upstream so far);
  // then they are compiled here as well, in one container schema (prepare/backends.ts).
  const definitions = [...schemas.values()].some(containsRef)
    ? (prepareDefinitions("parse-definitions", input) as JsonObject)
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
