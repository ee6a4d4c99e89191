import { _ } from "ajv";
import type * as Runtime from "../../templates/runtime/parse.js";
import { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import type { CheckSpec } from "../model/checks.js";
import type { SurfaceModel } from "../model/protocol.js";
import { buildRepairPlan, type RepairPlan, type UnionHelper } from "../model/repair-plan.js";
import {
  contextOf,
  type PrepareInput,
  prepareDefinitions,
  prepareSchema,
} from "../prepare/backends.js";
import { SURFACE_ID } from "../prepare/rules.js";
import type { Json, JsonObject } from "../schema/json.js";
import { containsRef } from "../schema/node.js";
import { hasCatchAll, knownTags } from "../schema/unions.js";
import type { DefinitionSymbols, SurfaceSymbols } from "../symbols/table.js";
import { createAjv, loadFormats, standaloneModule, unknownFormats } from "./ajv.js";
import type { EmitContext } from "./context.js";
import { jsLiteral, type LiteralStyle, literal, propertyKey } from "./js.js";
import { banner, type OutputFile } from "./output.js";

const LOCAL_ID = "acp-codegen:parse";

/** What parsers.js calls in the runtime's parse module, checked against its types. */
const CREATE_PLAN = "createParsePlan" satisfies keyof typeof Runtime;
const PLAN = {
  parser: "parser",
  variantGuard: "variantGuard",
  customGuard: "customGuard",
} as const satisfies Record<string, keyof Runtime.ParsePlan>;

/**
 * `parsers.js` / `parsers.d.ts`: `parse<Name>` for every definition, and for every tagged
 * union definition `is<Name>Of(value, tag)` (plus `isCustom<Name>` for open unions).
 * The repair plan goes in as a table interpreted by runtime/parse.js; `parsers-validators.js`
 * holds the few ref-free subschema checks the definitions' validators cannot answer.
 */
export async function emitParsers({
  surface,
  names,
  runtime: runtimePath,
}: EmitContext): Promise<OutputFile[]> {
  const plan = buildRepairPlan(surface);
  const locals = localChecks(plan.checks.specs);
  return [
    {
      path: `${surface.id}/parsers.js`,
      content: parsersJs(surface, names, plan, locals, runtimePath),
    },
    { path: `${surface.id}/parsers.d.ts`, content: parsersDts(surface, names, plan) },
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
    const expression = checkExpression(spec, i, locals, names);
    return `const c${i} = ${expression};`;
  });

  // The runtime under one namespace: no definition's validator name (`v<Name>`) can clash.
  const lines = [
    banner(surface.schemaFile.name),
    `import * as P from "${runtimePath}/parse.js";`,
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
    "// The repair plan: one node per subschema that leads to an x-deserialize-* annotation or a default.",
    "const nodes = [",
    ...plan.nodes.map(
      (node, i) =>
        `  /* ${i} ${commentSafe(plan.where[i] ?? "")} */ ${jsLiteral(node, PLAN_STYLE)},`,
    ),
    "];",
    `const plan = /* @__PURE__ */ P.${CREATE_PLAN}(nodes, checks);`,
    "",
  );
  for (const def of names.definitions) {
    const root = plan.roots.get(def.key);
    const args = [def.validator, literal(def.type), ...(root === undefined ? [] : [String(root)])];
    lines.push(
      `export const ${def.parse} = /* @__PURE__ */ plan.${PLAN.parser}(${args.join(", ")});`,
    );
  }
  for (const helper of plan.unions) {
    const { variantGuard, customGuard } = names.definition(helper.def.key);
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
  }
  return `${lines.join("\n")}\n`;
}

function checkExpression(
  spec: CheckSpec,
  index: number,
  locals: Map<number, string>,
  names: SurfaceSymbols,
): string {
  // Pure calls: a bundler may drop the whole table when no parser is imported.
  const use = (name: string): string => `/* @__PURE__ */ P.${name}`;
  switch (spec.kind) {
    case "ref":
      return names.definition(spec.def).validator;
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

/** Definition keys and property names end up in a block comment: keep it closed. */
function commentSafe(text: string): string {
  return text.replace(/\*\//g, "*\\/");
}

function parsersDts(surface: SurfaceModel, names: SurfaceSymbols, plan: RepairPlan): string {
  const lines = [banner(surface.schemaFile.name), 'import type * as T from "./types.js";', ""];
  for (const def of surface.definitions) {
    const { parse, type } = names.definition(def.key);
    const experimental = def.experimental === "new" ? " @experimental" : "";
    const what = plan.roots.has(def.key)
      ? "applying the schema's `x-deserialize-*` annotations and defaults as the reference implementation does"
      : "(no `x-deserialize-*` annotation applies, so this is strict validation)";
    lines.push(
      `/** Reads a \`${def.key}\` leniently, ${what}. Returns the result (the input is never changed) or throws a \`ValidationError\`.${experimental} */`,
      `export declare function ${parse}(value: unknown): T.${type};`,
    );
  }
  for (const helper of plan.unions)
    lines.push(...unionDeclarations(helper, names.definition(helper.def.key)));
  return `${lines.join("\n")}\n`;
}

function unionDeclarations(helper: UnionHelper, names: DefinitionSymbols): string[] {
  const { type: name, variantGuard, customGuard } = names;
  const tag = propertyKey(helper.union.tag);
  const known = knownTags(helper.union).map(literal).join(" | ");
  const experimental = helper.def.experimental === "new" ? " @experimental" : "";
  const variant = `Extract<T.${name}, { ${tag}: K }>`;
  const custom = `Exclude<Extract<T.${name}, { ${tag}: string }>, { ${tag}: ${known} }>`;
  if (!hasCatchAll(helper.union))
    return [
      `/** True when \`value\` is a valid \`${helper.def.key}\` of the variant whose \`${helper.union.tag}\` is \`tag\`: the payload is checked, not only the tag.${experimental} */`,
      `export declare function ${variantGuard}<K extends ${known}>(value: unknown, tag: K): value is ${variant};`,
    ];
  return [
    `/** True when \`value\` is a valid \`${helper.def.key}\` of the variant whose \`${helper.union.tag}\` is \`tag\`: the payload is checked, not only the tag. An unknown tag narrows to the custom variant.${experimental} */`,
    `export declare function ${variantGuard}<K extends string>(value: unknown, tag: K): value is K extends ${known} ? ${variant} : ${custom};`,
    `/** True when \`value\` is a valid custom \`${helper.def.key}\`: a \`${helper.union.tag}\` no known variant uses, with a payload the catch-all accepts.${experimental} */`,
    `export declare function ${customGuard}(value: unknown): value is ${custom};`,
  ];
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

  // strictTypes off: a branch compiled on its own no longer sees the `type` its parent
  // declared, which strict mode would flag although the meaning is unchanged.
  const ajv = createAjv(formats, unknown, {
    strictTypes: false,
    code: { source: true, esm: true, lines: true, formats: _`__formats` },
  });
  const exports: Record<string, string> = {};
  let code: string;
  try {
    // Only a local check that could not be split refers to definitions (none upstream so far);
    // then they are compiled here as well, in one container schema (prepare/backends.ts).
    if ([...schemas.values()].some(containsRef)) {
      const defs = prepareDefinitions("parse-definitions", input) as JsonObject;
      ajv.addSchema({ $id: SURFACE_ID, [surface.defsKeyword]: defs }, SURFACE_ID);
    }
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
