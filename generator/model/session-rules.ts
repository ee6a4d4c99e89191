import type {
  CallEffect,
  PatchSpec,
  SessionCalls,
  SessionSpec,
  TextBlock,
  TurnSpec,
  UpdateRule,
} from "../../templates/runtime/session-state.js";
import { isObject, type Json, type JsonObject } from "../schema/json.js";
import {
  literalOf,
  refOrNull,
  requiredOf,
  soleRef,
  typesOf,
  unionKeyword,
} from "../schema/node.js";
import { refTarget } from "../schema/refs.js";
import { type TaggedUnion, taggedUnion } from "../schema/unions.js";
import { forEachSchema } from "../schema/walk.js";
import {
  AGENT_MESSAGE,
  ENTITY_KEY,
  IDLE_STATE,
  KEYLESS_CHUNKS,
  PATCH_PROSE,
  SESSION_CALLS,
  TEXT_BLOCK,
  UPDATE_TAGS,
} from "./conventions.js";
import { methodsOf } from "./methods.js";
import type { Method, SessionModel, SlotTyping, SurfaceModel } from "./protocol.js";

/**
 * The session's state rules, read from the schema: the update notification (a notification
 * the client serves whose params name a session and hold a tagged union), and for each of
 * the union's variants what it does to the state, from its shape. An update about an entity
 * carries the entity's key (conventions.ts `ENTITY_KEY`); among the variants about one kind
 * of entity, one requiring more than another creates it (v1 `tool_call` beside
 * `tool_call_update`) and the others patch it, a lone one upserts (v2 `tool_call_update`),
 * a `…_chunk` carrying one item appends it to the entity's list of that item's type, one
 * carrying nothing but the key removes the entity, and one holding the entity in a
 * property puts it whole (v2 `plan_update`). An update about no entity sets a value of the
 * session (`plan`: replaced whole), or merges into it when all its fields are optional.
 * What `null` means in a patch comes from the definitions' prose (`PATCH_PROSE`). How a
 * turn ends: at the prompt's answer where it carries the reason a cancel gives (the call
 * rules' `cancelBy`), else at the idle state update (`IDLE_STATE`).
 */

type Surface = Pick<SurfaceModel, "definitions" | "methods" | "defsKeyword" | "calls">;

/** One union variant's object: its own properties and those of the definitions it `allOf`s. */
interface Shape {
  tag: string;
  /** The definition the variant is (through `allOf` or a bare `$ref`), when it names one. */
  definition?: string;
  properties: Map<string, Json>;
  required: Set<string>;
  description: string;
}

interface Classified {
  shape: Shape;
  slot: string;
  /** Keyed: the key's path and type; the put rule's value property. */
  key?: { path: string[]; type: string; required: boolean; value?: string };
}

export function sessionModel(surface: Surface): SessionModel | undefined {
  const defs = new Map(surface.definitions.map((d) => [d.key, d]));
  const schemaOf = (key: string | undefined): JsonObject | undefined => {
    const s = key === undefined ? undefined : defs.get(key)?.schema;
    return isObject(s) ? s : undefined;
  };
  const refKey = (schema: Json | undefined): string | undefined => {
    if (schema === undefined) return undefined;
    const ref = refOrNull(schema);
    return ref === undefined ? undefined : refTarget(ref, surface.defsKeyword);
  };
  /** A property's type for comparing: the definition it refers to, `Name[]` for a list of them. */
  const typeName = (schema: Json | undefined): string | undefined => {
    const direct = refKey(schema);
    if (direct !== undefined) return direct;
    if (!isObject(schema) || !typesOf(schema)?.includes("array")) return undefined;
    const item = isObject(schema.items) ? refKey(schema.items) : undefined;
    return item === undefined ? undefined : `${item}[]`;
  };
  const shapeOf = (node: Json, tag: string): Shape => {
    const shape: Shape = { tag, properties: new Map(), required: new Set(), description: "" };
    const take = (object: JsonObject) => {
      if (isObject(object.properties))
        for (const [name, sub] of Object.entries(object.properties))
          if (name !== tag) shape.properties.set(name, sub as Json);
      for (const name of requiredOf(object)) if (name !== tag) shape.required.add(name);
    };
    const takeDefinition = (key: string | undefined) => {
      const def = schemaOf(key);
      if (!def || key === undefined) return;
      shape.definition = key;
      if (typeof def.description === "string") shape.description = def.description;
      take(def);
      // A union definition (v2 `StateUpdate`): what every branch requires.
      const keyword = unionKeyword(def);
      if (keyword) {
        const branches = (def[keyword] as Json[]).map((b) => shapeOf(b, tag));
        const common = branches[0]?.required ?? new Set<string>();
        for (const name of common)
          if (branches.every((b) => b.required.has(name))) shape.required.add(name);
      }
    };
    if (!isObject(node)) return shape;
    take(node);
    if (typeof node.$ref === "string") takeDefinition(refTarget(node.$ref, surface.defsKeyword));
    if (Array.isArray(node.allOf))
      for (const part of node.allOf) {
        const ref = soleRef(part as Json);
        if (ref !== undefined) takeDefinition(refTarget(ref, surface.defsKeyword));
        else if (isObject(part)) take(part);
      }
    return shape;
  };

  /** The one required property besides `key` of a chunk, when it holds one item (a reference). */
  const singleItem = (shape: Shape, key?: string): string | undefined => {
    const others = [...shape.required].filter((n) => n !== key);
    const [item] = others;
    return others.length === 1 && item !== undefined && refKey(shape.properties.get(item))
      ? item
      : undefined;
  };

  // --- the update notification --------------------------------------------------------------
  const found = updateNotification(surface, refKey, schemaOf);
  if (!found) return undefined;
  const { method: updateMethod, sessionIdProperty, sessionIdType, field, union, unionKey } = found;

  // --- the calls ----------------------------------------------------------------------------
  const agentMethods = methodsOf(surface, "agent");
  const requestNamed = (wire: string) =>
    agentMethods.find((m) => m.kind === "request" && m.method === wire);
  const scoped = (m: Method | undefined): Method | undefined => {
    if (!m) return undefined;
    const params = schemaOf(m.params);
    if (!params || !requiredOf(params).includes(sessionIdProperty)) return undefined;
    const prop = isObject(params.properties) ? params.properties[sessionIdProperty] : undefined;
    return refKey(prop) === sessionIdType ? m : undefined;
  };
  const prompt = scoped(requestNamed(SESSION_CALLS.prompt));
  const newMethod = requestNamed(SESSION_CALLS.new);
  const newResult = schemaOf(newMethod?.result ?? undefined);
  const newId =
    newResult &&
    requiredOf(newResult).find(
      (name) =>
        isObject(newResult.properties) && refKey(newResult.properties[name]) === sessionIdType,
    );
  const cancel = cancelNotification(
    surface,
    prompt,
    sessionIdProperty,
    sessionIdType,
    refKey,
    schemaOf,
  );
  if (!prompt || !cancel || !newMethod || newId === undefined) return undefined;
  const optional = {
    load: scoped(requestNamed(SESSION_CALLS.load)),
    resume: scoped(requestNamed(SESSION_CALLS.resume)),
    close: scoped(requestNamed(SESSION_CALLS.close)),
    setMode: scoped(requestNamed(SESSION_CALLS.setMode)),
    setConfigOption: scoped(requestNamed(SESSION_CALLS.setConfigOption)),
  };
  const calls: SessionCalls = {
    new: { method: newMethod.method, sessionId: newId },
    ...(optional.load ? { load: optional.load.method } : {}),
    ...(optional.resume ? { resume: optional.resume.method } : {}),
    prompt: prompt.method,
    cancel: cancel.method,
    ...(optional.close ? { close: optional.close.method } : {}),
    ...(optional.setMode ? { setMode: optional.setMode.method } : {}),
    ...(optional.setConfigOption ? { setConfigOption: optional.setConfigOption.method } : {}),
  };

  // --- each variant: what it is about -------------------------------------------------------
  const keyOf = (shape: Shape): Classified["key"] => {
    for (const [name, sub] of shape.properties) {
      const type = refKey(sub);
      if (type !== undefined && ENTITY_KEY.is(name, type))
        return { path: [name], type, required: shape.required.has(name) };
    }
    // Held in a property (v2 `plan_update`'s `plan`): a definition, or every branch of a
    // union, carrying the key.
    for (const name of shape.required) {
      const type = refKey(shape.properties.get(name));
      const def = schemaOf(type);
      if (!def) continue;
      const keyword = unionKeyword(def);
      const branches = keyword ? (def[keyword] as Json[]) : [def];
      const keys = branches.map((b) => keyOf(shapeOf(b, "")));
      const first = keys[0];
      if (!first || keys.some((k) => k?.path.join() !== first.path.join() || !k?.required))
        continue;
      return { path: [name, ...first.path], type: first.type, required: true, value: name };
    }
    return undefined;
  };
  const classified: Classified[] = [];
  for (const variant of union.variants) {
    if (variant.kind !== "tagged") continue;
    const shape = shapeOf(variant.schema, union.tag);
    shape.tag = variant.value;
    const key = keyOf(shape);
    if (key) {
      const slot =
        key.type === sessionIdType
          ? // About another session (an announced subagent): named after the update.
            ENTITY_KEY.slot((shape.definition ?? variant.value).replace(/Update$/, ""))
          : ENTITY_KEY.slot(key.type);
      classified.push({ shape, slot, key });
    } else if (variant.value.endsWith(UPDATE_TAGS.chunk) && singleItem(shape) !== undefined) {
      // A chunk naming no entity (releases before `messageId`): it continues the one the
      // chunk just before it made.
      classified.push({
        shape,
        slot: KEYLESS_CHUNKS.slot,
        key: { path: [], type: "", required: false },
      });
    } else {
      classified.push({ shape, slot: camel(stripSuffix(variant.value, UPDATE_TAGS.update)) });
    }
  }

  // --- rules ---------------------------------------------------------------------------------
  const rules: Record<string, UpdateRule> = {};
  const slots: Record<string, "map" | "list" | "value"> = {};
  const typing = new Map<string, SlotTyping>();
  const valueTypes = new Map<string, string>();
  const patchOf = (shape: Shape): PatchSpec => {
    const clearsAll = PATCH_PROSE.nullClears.test(shape.description);
    const nullClears: string[] = [];
    const byKey: string[] = [];
    for (const [name, sub] of shape.properties) {
      const description =
        isObject(sub) && typeof sub.description === "string" ? sub.description : "";
      if (nullable(sub) && (clearsAll || PATCH_PROSE.nullClears.test(description)))
        nullClears.push(name);
      if (PATCH_PROSE.byKey.test(description)) byKey.push(name);
    }
    return { nullClears, byKey };
  };
  const typed = (slot: string, shape: SlotTyping["shape"], key?: SlotTyping["key"]): SlotTyping => {
    const existing = typing.get(slot);
    if (existing) return existing;
    const made: SlotTyping = { name: slot, shape, ...(key ? { key } : {}), holds: [], kinds: [] };
    typing.set(slot, made);
    return made;
  };

  const bySlot = new Map<string, Classified[]>();
  for (const c of classified) bySlot.set(c.slot, [...(bySlot.get(c.slot) ?? []), c]);
  for (const [slot, members] of bySlot) {
    const keyed = members.filter((c) => c.key);
    if (keyed.length !== members.length && keyed.length > 0) continue; // one name, two meanings
    if (keyed.length === 0) {
      for (const c of members) unkeyed(c);
      continue;
    }
    const keyType = keyed[0]?.key?.type as string;
    if (keyed.some((c) => c.key?.type !== keyType)) continue;
    const definitions = keyed.map((c) => c.shape.definition);
    const shared = definitions.some((d, i) => d !== undefined && definitions.indexOf(d) !== i);
    const kindOf = (c: Classified) =>
      shared ? stripSuffix(c.shape.tag, UPDATE_TAGS.chunk) : undefined;
    // A chunk whose one item has no list to go to (v2 `terminal_output_chunk`'s bytes)
    // changes no state: it is never taken for an update of the entity.
    const isChunk = (c: Classified) => c.shape.tag.endsWith(UPDATE_TAGS.chunk);
    const chunkItem = (c: Classified) => singleItem(c.shape, c.key?.path[0]);
    const holders = keyed.filter((c) => !isChunk(c));
    const removes = (c: Classified) =>
      [...c.shape.properties.keys()].every((n) => n === c.key?.path[0] || n === "_meta");
    const upserts = holders.filter((c) => !removes(c) && c.key?.value === undefined);
    const shape = keyed.every((c) => c.key?.required) ? "map" : "list";
    const keyProperty = keyed[0]?.key?.path.at(-1);
    const slotTyping = typed(
      slot,
      shape,
      keyProperty === undefined ? undefined : { property: keyProperty, definition: keyType },
    );
    let ruled = false;
    for (const c of keyed) {
      const key = c.key as NonNullable<Classified["key"]>;
      const kind = kindOf(c);
      const base = { slot, key: key.path, ...(kind !== undefined ? { kind } : {}) };
      let rule: UpdateRule | undefined;
      if (isChunk(c)) {
        const from = chunkItem(c);
        if (from === undefined) continue;
        const itemType = refKey(c.shape.properties.get(from)) as string;
        const target =
          holders.length === 0
            ? from
            : holders
                .flatMap((h) => [...h.shape.properties])
                .find(([, sub]) => typeName(sub) === `${itemType}[]`)?.[0];
        if (target === undefined) continue;
        rule = { ...base, op: "push", from, to: target };
        if (!holders.some((h) => kindOf(h) === kind))
          slotTyping.holds.push({
            ...(kind !== undefined ? { kind } : {}),
            how: "chunks",
            field: target,
            item: itemType,
          });
      } else if (key.value !== undefined) {
        rule = { ...base, op: "put", value: key.value };
        const def = refKey(c.shape.properties.get(key.value));
        if (def) slotTyping.holds.push({ how: "whole", definition: def });
      } else if (removes(c)) {
        rule = { ...base, op: "remove" };
      } else {
        const creates = upserts.some(
          (other) =>
            other !== c &&
            other.shape.required.size < c.shape.required.size &&
            [...other.shape.required].every((n) => c.shape.required.has(n)),
        );
        rule = creates
          ? { ...base, op: "create" }
          : { ...base, op: "patch", patch: patchOf(c.shape) };
        if (c.shape.definition) {
          const creating = upserts.some(
            (other) =>
              other !== c &&
              other.shape.required.size > c.shape.required.size &&
              [...c.shape.required].every((n) => other.shape.required.has(n)),
          );
          // A patch beside a create changes an entity the create typed: no type of its own.
          if (!creating)
            slotTyping.holds.push({
              ...(kind !== undefined ? { kind } : {}),
              how: creates ? "whole" : "settled",
              definition: c.shape.definition,
            });
        }
      }
      rules[c.shape.tag] = rule;
      slotTyping.kinds.push(c.shape.tag);
      ruled = true;
    }
    if (ruled) slots[slot] = shape;
    else typing.delete(slot);
  }

  function unkeyed(c: Classified): void {
    const required = [...c.shape.required];
    const [only] = required;
    if (required.length === 1 && only !== undefined && only.startsWith(c.slot)) {
      if (slots[only] !== undefined) return;
      rules[c.shape.tag] = { op: "set", slot: only, from: only };
      slots[only] = "value";
      const type = typeName(c.shape.properties.get(only));
      if (type !== undefined) valueTypes.set(only, type);
      const t = typed(only, "value");
      if (c.shape.definition)
        t.holds.push({ how: "property", definition: c.shape.definition, property: only });
      t.kinds.push(c.shape.tag);
      return;
    }
    // The value as the update carries it: named after its definition (`plan`: `Plan`,
    // `usageUpdate`: `UsageUpdate`), the type the slot holds.
    const slot = c.shape.definition ? ENTITY_KEY.property(c.shape.definition) : c.slot;
    if (slots[slot] !== undefined) return;
    const merges = required.length === 0 && c.shape.properties.size > 0;
    rules[c.shape.tag] = merges
      ? { op: "merge", slot, patch: patchOf(c.shape) }
      : { op: "set", slot };
    slots[slot] = "value";
    const t = typed(slot, "value");
    if (c.shape.definition)
      t.holds.push({ how: merges ? "settled" : "whole", definition: c.shape.definition });
    t.kinds.push(c.shape.tag);
  }

  // --- what calls' answers set ----------------------------------------------------------------
  const effects: Record<string, CallEffect[]> = {};
  const effectCalls = [
    newMethod,
    optional.load,
    optional.resume,
    optional.setMode,
    optional.setConfigOption,
  ];
  for (const m of effectCalls) {
    if (!m) continue;
    const result = schemaOf(m.result ?? undefined);
    const params = schemaOf(m.params);
    const list: CallEffect[] = [];
    for (const [slot, type] of valueTypes) {
      const effect = callEffect(
        slot,
        type,
        result,
        params,
        sessionIdProperty,
        typeName,
        schemaOf,
        refKey,
      );
      if (effect) list.push(effect);
    }
    if (list.length > 0) effects[m.method] = list;
  }

  // --- how a turn ends, and text ---------------------------------------------------------------
  const cancelRule = surface.calls.agent.cancelBy.get(prompt);
  let turn: TurnSpec = { end: "response" };
  let stopReason: SessionModel["stopReason"];
  const promptResult = schemaOf(prompt.result ?? undefined);
  if (cancelRule && promptResult && prompt.result) {
    const property = requiredOf(promptResult).find((name) =>
      mentions(
        schemaOf(
          refKey(isObject(promptResult.properties) ? promptResult.properties[name] : undefined),
        ),
        cancel.method,
      ),
    );
    turn = property === undefined ? { end: "response" } : { end: "response", stopReason: property };
    if (property !== undefined) stopReason = { definition: prompt.result, property };
  } else {
    for (const c of classified) {
      const rule = rules[c.shape.tag];
      const def = schemaOf(c.shape.definition);
      if (!rule || c.key || !def) continue;
      const states = taggedUnion(def, (ref) => schemaOf(refTarget(ref, surface.defsKeyword)));
      const idle = states?.variants.find((v) => v.kind === "tagged" && v.value === IDLE_STATE);
      if (!states || !idle) continue;
      const idleShape = shapeOf(idle.schema, states.tag);
      const idleDef = schemaOf(idleShape.definition);
      const reasons = idleDef
        ? taggedUnion(idleDef, (ref) => schemaOf(refTarget(ref, surface.defsKeyword)))
        : undefined;
      turn = {
        end: "state",
        kind: c.shape.tag,
        field: states.tag,
        idle: IDLE_STATE,
        ...(reasons ? { stopReason: reasons.tag } : {}),
      };
      if (reasons && idleShape.definition)
        stopReason = { definition: idleShape.definition, property: reasons.tag };
      break;
    }
  }

  const promptParams = schemaOf(prompt.params);
  const promptField = promptParams
    ? requiredOf(promptParams).find((name) => {
        const sub = isObject(promptParams.properties) ? promptParams.properties[name] : undefined;
        return name !== sessionIdProperty && typeName(sub)?.endsWith("[]");
      })
    : undefined;
  if (promptField === undefined) return undefined;
  const contentType = typeName(
    isObject(promptParams?.properties) ? promptParams.properties[promptField] : undefined,
  )?.slice(0, -2);
  const text = textBlock(schemaOf(contentType), shapeOf, (ref) =>
    schemaOf(refTarget(ref, surface.defsKeyword)),
  );
  const agentSlot = Object.values(rules).find(
    (r) => r.op !== "set" && r.op !== "merge" && r.kind === AGENT_MESSAGE,
  );

  const spec: SessionSpec = {
    update: {
      method: updateMethod.method,
      handler: updateMethod.handler,
      sessionId: sessionIdProperty,
      field,
      tag: union.tag,
    },
    slots,
    rules,
    calls,
    prompt: { field: promptField, ...(text ? { text } : {}) },
    effects,
    turn,
    ...(agentSlot ? { agentText: { slot: agentSlot.slot, kind: AGENT_MESSAGE } } : {}),
  };
  return {
    spec,
    methods: {
      update: updateMethod,
      prompt,
      cancel,
      new: newMethod,
      ...Object.fromEntries(Object.entries(optional).filter(([, m]) => m !== undefined)),
    },
    slots: [...typing.values()].filter((t) => slots[t.name] !== undefined),
    ...(stopReason ? { stopReason } : {}),
    content: contentType ?? "",
    sessionIdType,
    updateUnion: unionKey,
  };
}

/** The notification the client serves with a session id and a tagged union in its params. */
function updateNotification(
  surface: Surface,
  refKey: (schema: Json | undefined) => string | undefined,
  schemaOf: (key: string | undefined) => JsonObject | undefined,
):
  | {
      method: Method;
      sessionIdProperty: string;
      sessionIdType: string;
      field: string;
      union: TaggedUnion;
      unionKey: string;
    }
  | undefined {
  const sessionNew = methodsOf(surface, "agent").find(
    (m) => m.kind === "request" && m.method === SESSION_CALLS.new,
  );
  const newResult = schemaOf(sessionNew?.result ?? undefined);
  for (const m of methodsOf(surface, "client")) {
    if (m.kind !== "notification") continue;
    const params = schemaOf(m.params);
    if (!params || !isObject(params.properties)) continue;
    const required = requiredOf(params);
    let field: string | undefined;
    let union: TaggedUnion | undefined;
    let unionKey: string | undefined;
    let sessionIdProperty: string | undefined;
    let sessionIdType: string | undefined;
    for (const name of required) {
      const type = refKey(params.properties[name]);
      const def = surface.definitions.find((d) => d.key === type);
      if (def?.union) {
        field = name;
        union = def.union;
        unionKey = def.key;
      } else if (
        type !== undefined &&
        newResult &&
        isObject(newResult.properties) &&
        Object.values(newResult.properties).some((p) => refKey(p as Json) === type)
      ) {
        // The session's id: the type `session/new` answers with.
        sessionIdProperty = name;
        sessionIdType = type;
      }
    }
    if (field && union && unionKey && sessionIdProperty && sessionIdType)
      return { method: m, sessionIdProperty, sessionIdType, field, union, unionKey };
  }
  return undefined;
}

/** The notification that stops a turn: the call rules' for the prompt, else the one naming only the session. */
function cancelNotification(
  surface: Surface,
  prompt: Method | undefined,
  sessionIdProperty: string,
  sessionIdType: string,
  refKey: (schema: Json | undefined) => string | undefined,
  schemaOf: (key: string | undefined) => JsonObject | undefined,
): Method | undefined {
  const served = methodsOf(surface, "agent");
  const ruled = prompt ? surface.calls.agent.cancelBy.get(prompt) : undefined;
  if (ruled) return served.find((m) => m.kind === "notification" && m.method === ruled.method);
  return served.find((m) => {
    if (m.kind !== "notification") return false;
    const params = schemaOf(m.params);
    if (!params || !isObject(params.properties)) return false;
    const required = requiredOf(params);
    return (
      required.length === 1 &&
      required[0] === sessionIdProperty &&
      refKey(params.properties[sessionIdProperty]) === sessionIdType &&
      // A notification that ends a session's work is named like it (`session/cancel`),
      // not a sibling in another namespace.
      m.method.startsWith(`${SESSION_CALLS.prompt.split("/")[0]}/`)
    );
  });
}

/** What a call's result or params say about the value slot `slot` of type `type`. */
function callEffect(
  slot: string,
  type: string,
  result: JsonObject | undefined,
  params: JsonObject | undefined,
  sessionIdProperty: string,
  typeName: (schema: Json | undefined) => string | undefined,
  schemaOf: (key: string | undefined) => JsonObject | undefined,
  refKey: (schema: Json | undefined) => string | undefined,
): CallEffect | undefined {
  const props = (o: JsonObject | undefined) =>
    o && isObject(o.properties) ? Object.entries(o.properties) : [];
  for (const [name, sub] of props(result))
    if (name === slot && typeName(sub as Json) === type)
      return { slot, from: "result", path: [name] };
  for (const [name, sub] of props(result)) {
    const inner = schemaOf(refKey(sub as Json));
    for (const [innerName, innerSub] of props(inner))
      if (innerName === slot && typeName(innerSub as Json) === type)
        return { slot, from: "result", path: [name, innerName] };
  }
  const setters = props(params).filter(
    ([name, sub]) =>
      name !== sessionIdProperty &&
      params !== undefined &&
      requiredOf(params).includes(name) &&
      typeName(sub as Json) === type,
  );
  const [only] = setters;
  return setters.length === 1 && only ? { slot, from: "params", path: [only[0]] } : undefined;
}

/** The plain-text variant of the content union (`TEXT_BLOCK`), if it has one. */
function textBlock(
  content: JsonObject | undefined,
  shapeOf: (node: Json, tag: string) => Shape,
  resolve: (ref: string) => Json | undefined,
): TextBlock | undefined {
  if (!content) return undefined;
  const union = taggedUnion(content, resolve);
  const variant = union?.variants.find((v) => v.kind === "tagged" && v.value === TEXT_BLOCK);
  if (!union || !variant) return undefined;
  const shape = shapeOf(variant.schema, union.tag);
  const text = shape.properties.get(TEXT_BLOCK);
  if (!shape.required.has(TEXT_BLOCK) || !isObject(text) || !typesOf(text)?.includes("string"))
    return undefined;
  return { tag: union.tag, value: TEXT_BLOCK, field: TEXT_BLOCK };
}

/** Whether a constant in `schema` says, in backticks, that `method` gives it. */
function mentions(schema: JsonObject | undefined, method: string): boolean {
  if (!schema) return false;
  let found = false;
  forEachSchema(schema, (node) => {
    if (
      literalOf(node) !== undefined &&
      typeof node.description === "string" &&
      node.description.includes(`\`${method}\``)
    )
      found = true;
  });
  return found;
}

/** A schema that admits `null`: `type` listing it, or a branch of its union. */
function nullable(schema: Json): boolean {
  if (!isObject(schema)) return false;
  if (typesOf(schema)?.includes("null")) return true;
  const keyword = unionKeyword(schema);
  return (
    keyword !== undefined &&
    (schema[keyword] as Json[]).some((b) => isObject(b) && b.type === "null")
  );
}

function stripSuffix(tag: string, suffix: string): string {
  return tag.endsWith(suffix) ? tag.slice(0, -suffix.length) : tag;
}

/** `available_commands` → `availableCommands`. */
function camel(snake: string): string {
  return snake.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
