import type { Diagnostics } from "../diagnostics.js";
import { InputError } from "../errors.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import { refOrNull, typesOf } from "../schema/node.js";
import { pointer } from "../schema/pointer.js";
import { refTarget } from "../schema/refs.js";
import { forEachSchema } from "../schema/walk.js";
import { CAPABILITY_RULES, type CapabilityRule, NEGOTIATION } from "./capability-rules.js";
import { REQUIRED_HANDLERS } from "./conventions.js";
import { methodsOf } from "./methods.js";
import type {
  CapabilityGate,
  ContentGate,
  GateSource,
  Method,
  Negotiation,
  ServingSide,
  SurfaceModel,
} from "./protocol.js";

/**
 * Which capability gates what, read from the schema: after `initialize`, neither side calls
 * a method, or sends a variant, that the other did not declare. The schema says it in four
 * ways, each read here for any schema shaped the same way:
 *
 * - a capability field named after a method it gates: `loadSession` (`session/load`),
 *   `fs.readTextFile` (`fs/read_text_file`), `sessionCapabilities.list` (`session/list`): the
 *   field's own words are words of the wire name, and the wire name's are all in its path;
 * - a capability field whose description names a whole namespace: `terminal` ("all
 *   `terminal/*` methods");
 * - a method's description: "Only available if the client supports the `fs.writeTextFile`
 *   capability", on the definition or on a reference to it;
 * - a union variant's description: "Requires the `image` prompt capability", "Only available
 *   when the Agent capabilities indicate `mcp_capabilities.http` is `true`"; the gate then
 *   holds for that variant wherever it travels in the params of the methods the declaring
 *   side serves.
 *
 * capability-rules.ts adds what only prose says. A description naming a capability that
 * does not exist is an input error (file and pointer), unless a field named after the method
 * gates it anyway (STALE_PROSE). A named rule whose subject is in the schema but whose path
 * is not is an input error too: the schema moved it.
 */

type Surface = Pick<SurfaceModel, "definitions" | "methods" | "defsKeyword" | "schemaFile"> &
  Partial<Pick<SurfaceModel, "extensions">>;

/** One capability of a side's capabilities object (or of an object inside it). */
interface CapabilityField {
  path: string[];
  /** JSON pointer of the property in the schema file. */
  at: string;
  kind: "boolean" | "object";
  /** An object that holds capabilities of its own: it groups, and gates nothing by name. */
  container: boolean;
  /** The property's description, then that of the definition it refers to. */
  descriptions: Described[];
}

interface Described {
  text: string;
  /** Pointer of the `description` keyword. */
  at: string;
}

/** How deep the capability objects are read: ACP nests four levels (`nes.events.document.didOpen`). */
const MAX_DEPTH = 8;

/** The surface's handshake and its gates; undefined when the surface has no handshake. */
export function negotiationOf(
  surface: Surface,
  diagnostics?: Diagnostics,
): Negotiation | undefined {
  const method = surface.methods.find(
    (m) =>
      m.method === NEGOTIATION.method &&
      m.kind === "request" &&
      m.result !== undefined &&
      m.handledBy.includes("agent"),
  );
  if (!method?.result) return undefined;
  const defs = new Map<string, JsonObject>();
  for (const d of surface.definitions) if (isObject(d.schema)) defs.set(d.key, d.schema);
  const propertyOf = (key: string, name: string) => {
    const props = defs.get(key)?.properties;
    return isObject(props) && Object.hasOwn(props, name) ? props[name] : undefined;
  };
  /** The one property of definition `key` that refers to definition `target`. */
  const carrier = (key: string, target: string) => {
    const props = defs.get(key)?.properties;
    if (!isObject(props) || !defs.has(target)) return undefined;
    const found = Object.entries(props).filter(([, schema]) => {
      const ref = refOrNull(schema);
      return ref !== undefined && refTarget(ref, surface.defsKeyword) === target;
    });
    return found.length === 1 ? found[0]?.[0] : undefined;
  };
  const { agent, client } = NEGOTIATION.capabilities;
  const clientProperty = carrier(method.params, client);
  const agentProperty = carrier(method.result, agent);
  if (!clientProperty || !agentProperty) return undefined;

  const reader = new GateReader(surface, defs, { agent, client }, diagnostics);
  reader.namedFields();
  reader.describedFields();
  reader.ruleGates();
  reader.describedVariants();
  reader.describedMethods();
  const hasVersion =
    propertyOf(method.params, NEGOTIATION.version) !== undefined &&
    propertyOf(method.result, NEGOTIATION.version) !== undefined;
  return {
    method,
    capabilities: {
      agent: { property: agentProperty, definition: agent },
      client: { property: clientProperty, definition: client },
    },
    ...(hasVersion ? { version: NEGOTIATION.version } : {}),
    gates: reader.sorted(),
  };
}

class GateReader {
  private readonly file: string;
  private readonly trees: Record<ServingSide, CapabilityField[]>;
  private readonly gates = new Map<string, CapabilityGate>();
  private readonly reach = new Map<string, Map<string, string[][]>>();

  constructor(
    private readonly surface: Surface,
    private readonly defs: ReadonlyMap<string, JsonObject>,
    private readonly roots: Readonly<Record<ServingSide, string>>,
    private readonly diagnostics: Diagnostics | undefined,
  ) {
    this.file = surface.schemaFile.display;
    this.trees = {
      agent: this.fieldsOf(roots.agent, [], new Set([roots.agent])),
      client: this.fieldsOf(roots.client, [], new Set([roots.client])),
    };
    const containers = [...this.trees.agent, ...this.trees.client].filter((f) => f.container);
    this.groups = new Set(containers.flatMap((f) => words(f.path.at(-1) ?? "")));
  }

  /** Words naming a group of capabilities (`prompt` of `promptCapabilities`), for `capabilitySentences`. */
  private readonly groups: ReadonlySet<string>;

  /** A marker capability whose path, read as words, is the wire name of a method its side serves. */
  namedFields(): void {
    for (const side of SERVING_SIDES) {
      for (const field of this.trees[side]) {
        if (field.container) continue;
        const leaf = words(field.path.at(-1) ?? "");
        const all = new Set(field.path.flatMap(words));
        if (leaf.length === 0) continue;
        for (const m of methodsOf(this.surface, side)) {
          const wire = words(m.method);
          if (!leaf.every((w) => wire.includes(w)) || !wire.every((w) => all.has(w))) continue;
          if (REQUIRED_HANDLERS[side].includes(m.method)) {
            this.unheld(
              field.at,
              `capability ${field.path.join(".")} is named after ${m.method}, which every ${side} must serve (model/conventions.ts REQUIRED_HANDLERS)`,
            );
            continue;
          }
          this.add(side, field, m, undefined, { kind: "named", at: field.at });
        }
      }
    }
  }

  /**
   * A capability whose description names the methods it stands for: a list (v2's `session`:
   * "Supplying `{}` means the agent supports the baseline session methods: `session/new`, …")
   * or a whole namespace (`terminal`: "all `terminal/*` methods"), both of which declaring it
   * promises to serve; or a namespace it opens without promising all of it (v2's `session`:
   * "Omitted or `null` both mean the agent does not support the `session/*` method surface").
   */
  describedFields(): void {
    for (const side of SERVING_SIDES) {
      const served = methodsOf(this.surface, side);
      for (const field of this.trees[side]) {
        for (const d of field.descriptions) {
          const source = { kind: "described", at: d.at } as const;
          for (const sentence of sentencesOf(d.text)) {
            const named = backticked(sentence);
            if (SUPPORTS_LISTED.test(sentence)) {
              for (const m of served.filter((m) => named.includes(m.method)))
                this.add(side, field, m, undefined, source);
              continue;
            }
            const namespaces = named.filter((t) => t.endsWith("/*")).map((t) => t.slice(0, -1));
            const promised = ALL_OF_NAMESPACE.test(sentence);
            for (const m of served.filter((m) => namespaces.some((n) => m.method.startsWith(n))))
              this.add(side, field, m, undefined, source, promised);
          }
        }
      }
    }
  }

  /** The named rules, where the surface has their subject. */
  ruleGates(): void {
    for (const rule of CAPABILITY_RULES) {
      const method = this.surface.methods.find(
        (m) => m.method === rule.method && m.handledBy.includes(rule.side),
      );
      if (!method) continue;
      let content: ContentGate | undefined;
      if (rule.variant !== undefined) {
        content = this.rootVariant(method, rule.variant);
        if (!content) continue;
      }
      const field = rule.paths
        .map((path) => this.trees[rule.side].find((f) => sameTokens(f.path, path)))
        .find((f) => f !== undefined);
      if (!field) {
        this.moved(rule);
        continue;
      }
      this.add(rule.side, field, method, content, { kind: "rule", rule: rule.name });
    }
  }

  /**
   * Variants whose description asks for a capability: gated in the params of every method
   * served by the side that has it, wherever the union sits in them.
   */
  describedVariants(): void {
    for (const def of this.surface.definitions) {
      if (!def.union) continue;
      for (const variant of def.union.variants) {
        if (variant.kind !== "tagged" || !isObject(variant.schema)) continue;
        const at = pointer(this.surface.defsKeyword, def.key, def.union.keyword, variant.index);
        for (const d of descriptionsOf(variant.schema, at)) {
          const cue = /only available|requires/i;
          for (const { tokens, sided } of capabilitySentences(d.text, cue, this.groups)) {
            const found = SERVING_SIDES.flatMap((side) =>
              tokens.flatMap((t) => {
                const field = this.resolve(side, t);
                return field ? [{ side, field }] : [];
              }),
            );
            if (found.length === 0 && sided)
              this.unknownPath(d, tokens, SERVING_SIDES, this.extensionOf(def.key));
            for (const { side, field } of found) {
              const scope = this.scopeOf(side, field);
              for (const m of methodsOf(this.surface, side)) {
                if (scope.length > 0 && !scope.includes(m)) continue;
                const positions = this.positions(m.params, def.key);
                if (positions.length === 0) continue;
                const content = {
                  definition: def.key,
                  tag: def.union.tag,
                  value: variant.value,
                  at: positions,
                };
                this.add(side, field, m, content, { kind: "described", at: d.at });
              }
            }
          }
        }
      }
    }
  }

  /** "Only available if … `path` capability" on a method's definition or a reference to it. */
  describedMethods(): void {
    const references = referenceDescriptions(this.surface);
    for (const m of this.surface.methods) {
      for (const side of SERVING_SIDES) {
        if (!m.handledBy.includes(side)) continue;
        const own = this.defs.get(m.params);
        const texts = [
          ...(own ? descriptionsOf(own, pointer(this.surface.defsKeyword, m.params)) : []),
          ...(references.get(m.params) ?? []),
        ];
        for (const d of texts) {
          for (const { tokens, sided } of capabilitySentences(
            d.text,
            /only available/i,
            this.groups,
          )) {
            const fields = tokens.flatMap((t) => this.resolve(side, t) ?? []);
            for (const field of fields)
              this.add(side, field, m, undefined, { kind: "described", at: d.at });
            if (fields.length > 0 || !sided) continue;
            // STALE_PROSE: another era's path, for a method a field named after it gates.
            if (this.methodGated(side, m)) continue;
            this.unknownPath(d, tokens, [side], m.extension);
          }
        }
      }
    }
  }

  /** The gates found, in the order the model promises. */
  sorted(): CapabilityGate[] {
    const order = new Map(this.surface.methods.map((m, i) => [m, i]));
    return [...this.gates.values()].sort(
      (a, b) =>
        (order.get(a.method) ?? 0) - (order.get(b.method) ?? 0) ||
        Number(a.content !== undefined) - Number(b.content !== undefined) ||
        compare(a.content?.definition ?? "", b.content?.definition ?? "") ||
        compare(a.content?.value ?? "", b.content?.value ?? "") ||
        compare(a.path.join("."), b.path.join(".")),
    );
  }

  private add(
    side: ServingSide,
    field: CapabilityField,
    method: Method,
    content: ContentGate | undefined,
    source: GateSource,
    promised = content === undefined,
  ): void {
    const id = JSON.stringify([
      side,
      field.path,
      method.method,
      method.kind,
      content?.definition,
      content?.value,
    ]);
    const known = this.gates.get(id);
    if (known) {
      if (!known.sources.some((s) => JSON.stringify(s) === JSON.stringify(source)))
        known.sources.push(source);
      // One source that promises the method is enough.
      if (promised) known.handlerRequired = true;
      return;
    }
    this.gates.set(id, {
      side,
      path: field.path,
      declare: field.kind === "boolean" ? "true" : "object",
      container: field.container,
      method,
      handlerRequired: promised,
      ...(content ? { content } : {}),
      sources: [source],
    });
  }

  /**
   * The requests a content capability is about, when its description or that of the object
   * holding it names them (`promptCapabilities`: "supported by the agent in `session/prompt`
   * requests"): image content is gated in prompts, not in every request that can carry a
   * content block. None named: every method of the side.
   */
  private scopeOf(side: ServingSide, field: CapabilityField): Method[] {
    const parent = this.trees[side].find((f) => sameTokens(f.path, field.path.slice(0, -1)));
    const named = [field, ...(parent ? [parent] : [])].flatMap((f) =>
      f.descriptions.flatMap((d) => backticked(d.text)),
    );
    return methodsOf(this.surface, side).filter((m) => named.includes(m.method));
  }

  private methodGated(side: ServingSide, m: Method): boolean {
    for (const g of this.gates.values())
      if (g.side === side && g.method === m && g.content === undefined) return true;
    return false;
  }

  /**
   * A capability a description names: a dotted path (Rust's snake_case segments read as the
   * wire's camelCase), or a lone name that only one capability of the side has (`image`).
   */
  private resolve(side: ServingSide, token: string): CapabilityField | undefined {
    const path = token.split(".").map(camelCase);
    const tree = this.trees[side];
    const exact = tree.find((f) => sameTokens(f.path, path));
    if (exact || path.length !== 1) return exact;
    const named = tree.filter((f) => f.path.at(-1) === path[0]);
    return named.length === 1 ? named[0] : undefined;
  }

  /** The variant of the tagged union at the root of a method's params, by tag value. */
  private rootVariant(method: Method, value: string): ContentGate | undefined {
    const union = this.surface.definitions.find((d) => d.key === method.params)?.union;
    const found = union?.variants.some((v) => v.kind === "tagged" && v.value === value);
    return union && found
      ? { definition: method.params, tag: union.tag, value, at: [[]] }
      : undefined;
  }

  /** The capabilities of one object, depth first; each refers to a boolean or an object. */
  private fieldsOf(key: string, prefix: string[], stack: ReadonlySet<string>): CapabilityField[] {
    const def = this.defs.get(key);
    const out: CapabilityField[] = [];
    if (!def || !isObject(def.properties) || prefix.length >= MAX_DEPTH) return out;
    for (const [name, schema] of Object.entries(def.properties)) {
      if (!isObject(schema)) continue;
      const at = pointer(this.surface.defsKeyword, key, "properties", name);
      const path = [...prefix, name];
      const ref = refOrNull(schema);
      const target = ref === undefined ? undefined : refTarget(ref, this.surface.defsKeyword);
      const targetDef = target === undefined ? undefined : this.defs.get(target);
      const descriptions = descriptionsOf(schema, at);
      if (target !== undefined && targetDef && isObjectSchema(targetDef)) {
        if (stack.has(target)) continue;
        descriptions.push(...descriptionsOf(targetDef, pointer(this.surface.defsKeyword, target)));
        const inner = this.fieldsOf(target, path, new Set([...stack, target]));
        out.push({ path, at, kind: "object", container: inner.length > 0, descriptions }, ...inner);
      } else if (isBoolean(schema)) {
        out.push({ path, at, kind: "boolean", container: false, descriptions });
      }
    }
    return out;
  }

  /**
   * Where values of definition `target` sit in definition `from`: property names, `*` for
   * array items and map values. A recursive position is followed once.
   */
  private positions(from: string, target: string): string[][] {
    if (from === target) return [[]];
    let memo = this.reach.get(target);
    if (!memo) {
      memo = new Map();
      this.reach.set(target, memo);
    }
    const within = (key: string, stack: readonly string[]): string[][] => {
      const known = memo.get(key);
      if (known) return known;
      const found: string[][] = [];
      const walk = (node: Json, path: string[]) => {
        if (!isObject(node) || path.length > MAX_DEPTH * 2) return;
        if (typeof node.$ref === "string") {
          const ref = refTarget(node.$ref, this.surface.defsKeyword);
          if (ref === target) found.push(path);
          else if (ref !== undefined && this.defs.has(ref) && !stack.includes(ref))
            for (const rest of within(ref, [...stack, ref])) found.push([...path, ...rest]);
        }
        for (const keyword of ["allOf", "anyOf", "oneOf"] as const) {
          const branches = node[keyword];
          if (Array.isArray(branches)) for (const branch of branches) walk(branch, path);
        }
        if (isObject(node.properties))
          for (const [name, sub] of Object.entries(node.properties))
            if (name !== "*") walk(sub, [...path, name]);
        if (isObject(node.items)) walk(node.items, [...path, "*"]);
        if (isObject(node.additionalProperties)) walk(node.additionalProperties, [...path, "*"]);
      };
      walk(this.defs.get(key) ?? {}, []);
      // Remembered even when a cycle was cut short: a recursive position is followed once.
      const unique = [...new Map(found.map((p) => [JSON.stringify(p), p])).values()];
      memo.set(key, unique);
      return unique;
    };
    return within(from, [from]);
  }

  /**
   * Prose that names a capability the schema does not have. In a user's extension file it is
   * an input error the user can fix, named by that file; in a released protocol schema, input
   * nobody here controls, it is a warning, and the method or variant is read as if the
   * sentence were not there.
   */
  private unknownPath(
    d: Described,
    tokens: string[],
    sides: readonly ServingSide[],
    extension: string | undefined,
  ): void {
    const names = tokens.map((t) => `\`${t}\``).join(" or ");
    const [one, other] = sides.map((side) => this.roots[side]);
    const where = other ? `neither ${one} nor ${other} has` : `${one} does not have`;
    const message = `names the capability ${names}, which ${where}`;
    const file = this.surface.extensions?.find((e) => e.file.name === extension)?.file;
    if (file) throw new InputError(file.display, d.at, message);
    this.unheld(d.at, message);
  }

  /** A named rule whose method is here but whose capability is not: the rule is not applied. */
  private moved(rule: CapabilityRule): void {
    this.unheld(
      pointer(this.surface.defsKeyword, this.roots[rule.side]),
      `capability rule "${rule.name}" (model/capability-rules.ts): ${rule.method} is here, but ${this.roots[rule.side]} has no ${rule.paths.map((p) => p.join(".")).join(" or ")}; if the capability moved, add its new path to the rule`,
    );
  }

  /** A reading of the schema's prose that does not hold on this schema: warned, and not applied. */
  private unheld(at: string, message: string): void {
    this.diagnostics?.warn(this.file, at, `${message}; read as if it were not said`);
  }

  /** The extension file that declares definition `key`, if one does. */
  private extensionOf(key: string): string | undefined {
    return this.surface.extensions?.find((e) => e.definitions.includes(key))?.file.name;
  }
}

const SERVING_SIDES: readonly ServingSide[] = ["agent", "client"];

/** "Supplying `{}` means the agent supports the … methods: `a`, `b`": what the capability stands for. */
const SUPPORTS_LISTED = /supplying `\{\}` means the (agent|client) supports [^`]*:/i;

/** "… all `terminal/*` methods": declaring the capability says every one of them is served. */
const ALL_OF_NAMESPACE = /\ball `[^`\s]+\/\*`/i;

/** The sentences of a description: paragraphs, split after each full stop. */
function sentencesOf(text: string): string[] {
  return text
    .split(/\n\s*\n|(?<=\.)\s+/)
    .map((s) => s.replace(/\s*\n\s*/g, " ").trim())
    .filter((s) => s !== "");
}

/** What a text puts in backticks. */
function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
}

/**
 * The backticked capability names of each sentence that says it needs one: the sentence
 * mentions a capability and matches `cue`. Values (`true`) and wire names are not names.
 * `sided`: the sentence says whose capability it is, as ACP's prose on negotiated
 * capabilities does: a side ("the Agent supports", "the `terminal` Client capability") or a
 * group of capabilities ("the `image` prompt capability"); a name it gives that no
 * capability object has is then an error. A sentence naming neither speaks of something
 * else (2.4.0's v2: "only available while the terminal advertises `capabilities.cancel`", a
 * terminal's own state) and counts only where its names resolve.
 */
function capabilitySentences(
  text: string,
  cue: RegExp,
  groups: ReadonlySet<string>,
): Array<{ tokens: string[]; sided: boolean }> {
  const found: Array<{ tokens: string[]; sided: boolean }> = [];
  for (const sentence of sentencesOf(text)) {
    if (!cue.test(sentence) || !/capabilit/i.test(sentence)) continue;
    const tokens = backticked(sentence)
      .filter((t) => /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(t))
      .filter((t) => !["true", "false", "null"].includes(t));
    if (tokens.length === 0) continue;
    const grouped = [...sentence.matchAll(/\b([a-z0-9]+) capabilit/gi)].some((m) =>
      groups.has((m[1] as string).toLowerCase()),
    );
    found.push({ tokens, sided: grouped || /\b(agent|client)s?\b/i.test(sentence) });
  }
  return found;
}

/** Descriptions the schema writes on references to each definition (the root unions' branches). */
function referenceDescriptions(surface: Surface): Map<string, Described[]> {
  const out = new Map<string, Described[]>();
  for (const def of surface.definitions) {
    forEachSchema(def.schema, (node, path) => {
      if (typeof node.description !== "string") return;
      const ref = refOrNull(node);
      const key = ref === undefined ? undefined : refTarget(ref, surface.defsKeyword);
      if (key === undefined || (path.length === 0 && key === def.key)) return;
      const at = pointer(surface.defsKeyword, def.key, ...path, "description");
      out.set(key, [...(out.get(key) ?? []), { text: node.description, at }]);
    });
  }
  return out;
}

function descriptionsOf(node: JsonObject, at: string): Described[] {
  return typeof node.description === "string"
    ? [{ text: node.description, at: `${at}/description` }]
    : [];
}

function isObjectSchema(node: JsonObject): boolean {
  return typesOf(node)?.includes("object") === true || isObject(node.properties);
}

function isBoolean(node: JsonObject): boolean {
  const types = typesOf(node);
  return types?.includes("boolean") === true && types.every((t) => t === "boolean" || t === "null");
}

/** `readTextFile` → read, text, file; `fs/read_text_file` → fs, read, text, file. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "" && w !== "capabilities" && w !== "capability");
}

/** Rust's `mcp_capabilities` as the wire writes it: `mcpCapabilities`. */
function camelCase(segment: string): string {
  return segment.replace(/_+([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

function sameTokens(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((t, i) => t === b[i]);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
