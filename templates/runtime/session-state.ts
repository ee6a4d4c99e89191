/**
 * A session's state, kept by the protocol's own rules from its `session/update`s: which
 * update kind creates an entity, which patches it (and what `null` means there), which
 * appends to it, which replaces a value whole. The generator reads those rules from each
 * surface's schema (model/session-rules.ts) and writes them as a {@link SessionSpec}; this
 * module applies them, the same way for every surface.
 */

/**
 * What the generator derives for one surface: where updates travel, what each kind does to
 * the state, the session's calls, and how a turn ends. `connection.js` holds it as data.
 */
export interface SessionSpec {
  /** The notification that carries updates (`session/update`), and where its params hold what. */
  readonly update: {
    readonly method: string;
    /** Its handler member (`sessionUpdate`). */
    readonly handler: string;
    /** The params' property naming the session (`sessionId`). */
    readonly sessionId: string;
    /** The params' property holding the update (`update`). */
    readonly field: string;
    /** The update union's tag property (`sessionUpdate`). */
    readonly tag: string;
  };
  /** Every state slot: an entity `map` (by key), an entity `list` (arrival order), or one `value`. */
  readonly slots: Readonly<Record<string, "map" | "list" | "value">>;
  /** By update kind (the tag's value). A kind without a rule changes no state. */
  readonly rules: Readonly<Record<string, UpdateRule>>;
  /** Wire names of the session's calls; absent where the surface lacks one. */
  readonly calls: SessionCalls;
  /** The prompt request's property holding the content, and the plain-text content block. */
  readonly prompt: { readonly field: string; readonly text?: TextBlock };
  /** What a call's answer (or, once answered, its params) sets in the state: by wire name. */
  readonly effects: Readonly<Record<string, readonly CallEffect[]>>;
  readonly turn: TurnSpec;
  /** The entity kind of the agent's own messages (`agent_message`), for `Turn.text()`. */
  readonly agentText?: { readonly slot: string; readonly kind: string };
}

export interface SessionCalls {
  /** Opens a session; its result names it (`session/new`, `sessionId`). */
  readonly new?: { readonly method: string; readonly sessionId: string };
  /** Opens an existing session named in its params, replaying its history first. */
  readonly load?: string;
  readonly resume?: string;
  readonly prompt: string;
  /** The notification that stops the running turn (`session/cancel`). */
  readonly cancel: string;
  readonly close?: string;
  readonly setMode?: string;
  readonly setConfigOption?: string;
}

/** A content block that is plain text: `{ [tag]: value, [field]: text }`. */
export interface TextBlock {
  readonly tag: string;
  readonly value: string;
  readonly field: string;
}

/** A value a call's answer or params put into a `value` slot. */
export interface CallEffect {
  readonly slot: string;
  readonly from: "result" | "params";
  /** Property names down to the value (`["modes", "currentModeId"]`). */
  readonly path: readonly string[];
}

/**
 * How a turn ends: at the prompt's answer, which carries the stop reason (v1), or, where the
 * answer only acknowledges the prompt (v2), at the state update that reports the session
 * idle again, carrying the stop reason.
 */
export type TurnSpec =
  | { readonly end: "response"; readonly stopReason?: string }
  | {
      readonly end: "state";
      /** The update kind (`state_update`), its property naming the state, the idle value. */
      readonly kind: string;
      readonly field: string;
      readonly idle: string;
      readonly stopReason?: string;
    };

/** What one update kind does to the state. */
export type UpdateRule =
  /** Creates the entity named by `key`, replacing any before it whole (v1 `tool_call`). */
  | (EntityRule & { readonly op: "create" })
  /** Changes the entity in place by the fields the update carries (`tool_call_update`). */
  | (EntityRule & { readonly op: "patch"; readonly patch: PatchSpec })
  /** Appends the update's one item (`from`) to the entity's list `to` (`*_chunk`). */
  | (EntityRule & { readonly op: "push"; readonly from: string; readonly to: string })
  /** Puts the update's property `value` as the entity, replacing it whole (v2 `plan_update`). */
  | (EntityRule & { readonly op: "put"; readonly value: string })
  /** Removes the entity (`plan_removed`). */
  | (EntityRule & { readonly op: "remove" })
  /** Replaces the slot's value whole: the update (without its tag), or its property `from`. */
  | { readonly op: "set"; readonly slot: string; readonly from?: string }
  /** Changes the slot's value by the fields the update carries (`session_info_update`). */
  | { readonly op: "merge"; readonly slot: string; readonly patch: PatchSpec };

export interface EntityRule {
  readonly slot: string;
  /**
   * Property names down to the entity's key (`["toolCallId"]`, `["plan", "planId"]`); empty
   * for a chunk that names no entity, which continues the one the update before it made.
   */
  readonly key: readonly string[];
  /**
   * The entity's kind, recorded under the tag's name, where one slot holds several
   * (`messages`: `user_message`, `agent_message`, `agent_thought`).
   */
  readonly kind?: string;
}

/** What an update's fields do to what is stored, where they differ from "replace". */
export interface PatchSpec {
  /** Fields whose `null` removes the stored value; elsewhere `null` leaves it unchanged. */
  readonly nullClears: readonly string[];
  /** Object fields that patch the stored object by top-level key (v2 `_meta`), `null` keys removed. */
  readonly byKey: readonly string[];
}

type Json = Record<string, unknown>;
type Entity = Record<string, unknown>;

/** The value under `path`, or undefined where the path does not lead to one. */
export function at(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const name of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = Object.hasOwn(current, name) ? (current as Json)[name] : undefined;
  }
  return current;
}

/**
 * What applying an update did: the entity it made or changed; `"unknown-entity"` for a patch
 * of an entity never created (nothing changed, for the session to log); undefined otherwise.
 */
export type Applied = Record<string, unknown> | "unknown-entity" | undefined;

/** An entity rule with what applying it needs, worked out once. */
interface Compiled {
  readonly rule: Exclude<UpdateRule, { op: "set" | "merge" }>;
  readonly shape: "map" | "list" | "value" | undefined;
  /** The key's property in the entity (the path's last name); undefined for a keyless chunk. */
  readonly keyName: string | undefined;
  /** A patch of an entity never created changes nothing: the slot has a create. */
  readonly needsCreate: boolean;
  /** The lists of this slot that appends grow: stored as copies. */
  readonly grown: readonly string[];
}

/**
 * The state of one session: a plain object with one property per slot (a `Map` by key, an
 * array in arrival order, or the value), updated in place as updates arrive. Entities are
 * the agent's objects as read, copied once when created so an update handed to anyone else
 * is never changed by a later one.
 */
export class SessionState {
  /** The slots, as the session exposes them. */
  readonly view: Record<string, unknown>;
  /** `list` slots: their entities by key, for the updates that name one. */
  private readonly listIndex = new Map<string, Map<unknown, Entity>>();
  /** The entity the last update made, and its kind: a keyless chunk may continue it. */
  private lastEntity: Entity | undefined;
  private lastKind: string | undefined;
  private readonly rules = new Map<string, UpdateRule>();
  private readonly compiled = new Map<UpdateRule, Compiled>();

  constructor(private readonly spec: SessionSpec) {
    const view: Record<string, unknown> = {};
    for (const [slot, shape] of Object.entries(spec.slots)) {
      if (shape === "map") view[slot] = new Map();
      else if (shape === "list") {
        view[slot] = [];
        this.listIndex.set(slot, new Map());
      }
    }
    this.view = view;
    const all = Object.entries(spec.rules);
    for (const [kind, rule] of all) {
      this.rules.set(kind, rule);
      if (rule.op === "set" || rule.op === "merge") continue;
      const siblings = all.map(([, r]) => r).filter((r) => "key" in r && r.slot === rule.slot);
      this.compiled.set(rule, {
        rule,
        shape: spec.slots[rule.slot],
        keyName: rule.key.length === 0 ? undefined : rule.key[rule.key.length - 1],
        needsCreate: siblings.some((r) => r.op === "create"),
        grown: [...new Set(siblings.flatMap((r) => (r.op === "push" ? [r.to] : [])))],
      });
    }
  }

  /** A turn boundary: a keyless chunk after it starts a new entity. */
  boundary(): void {
    this.lastEntity = undefined;
  }

  /** Applies one update (the value of the notification's update field). */
  apply(update: Json): Applied {
    const kind = update[this.spec.update.tag];
    const rule = typeof kind === "string" ? this.rules.get(kind) : undefined;
    if (!rule) {
      this.lastEntity = undefined;
      return undefined;
    }
    switch (rule.op) {
      case "set":
        this.lastEntity = undefined;
        this.view[rule.slot] =
          rule.from === undefined ? this.withoutTag(update) : update[rule.from];
        return undefined;
      case "merge": {
        this.lastEntity = undefined;
        const current = this.view[rule.slot] as Entity | undefined;
        this.view[rule.slot] = patched(current ?? {}, this.withoutTag(update), rule.patch, []);
        return undefined;
      }
      default:
        return this.applyEntity(this.compiled.get(rule) as Compiled, update);
    }
  }

  /** Applies what a call's answer says about the state (`effects` of its wire name). */
  applyCall(method: string, params: unknown, result: unknown): void {
    for (const effect of this.spec.effects[method] ?? []) {
      const value = at(effect.from === "result" ? result : params, effect.path);
      if (value !== undefined && value !== null) this.view[effect.slot] = value;
    }
  }

  private applyEntity(compiled: Compiled, update: Json): Applied {
    const { rule, shape, keyName } = compiled;
    const key =
      keyName === undefined
        ? undefined
        : rule.key.length === 1
          ? update[keyName]
          : at(update, rule.key);
    const hasKey = key !== undefined && key !== null;
    const found = hasKey ? this.find(rule.slot, shape, key) : this.continued(rule, keyName);
    let entity: Entity | undefined;
    switch (rule.op) {
      case "create":
        entity = this.stored(compiled, this.withoutTag(update));
        break;
      case "put": {
        const value = update[rule.value];
        entity = typeof value === "object" && value !== null ? { ...(value as Json) } : undefined;
        break;
      }
      case "remove":
        if (hasKey) this.remove(rule.slot, shape, key);
        this.lastEntity = undefined;
        return undefined;
      case "patch":
        if (!found && shape === "map" && compiled.needsCreate) {
          // A patch for an entity never created: nothing to patch (the create carries what
          // every entity must have).
          this.lastEntity = undefined;
          return "unknown-entity";
        }
        entity = found
          ? patched(found, this.withoutTag(update), rule.patch, compiled.grown)
          : this.stored(compiled, patched({}, this.withoutTag(update), rule.patch, []));
        break;
      case "push": {
        const item = update[rule.from];
        if (found) {
          const list = found[rule.to];
          if (!Array.isArray(list)) found[rule.to] = [item];
          else if (!this.joined(list, item)) list.push(item);
          entity = found;
        } else {
          entity = rule.kind === undefined ? {} : { [this.spec.update.tag]: rule.kind };
          if (hasKey && keyName !== undefined) entity[keyName] = key;
          entity[rule.to] = [item];
        }
        break;
      }
    }
    if (!entity) return undefined;
    if (rule.kind !== undefined && entity !== found) entity[this.spec.update.tag] = rule.kind;
    if (entity !== found) this.store(rule.slot, shape, hasKey ? key : undefined, found, entity);
    this.lastEntity = entity;
    this.lastKind = rule.kind;
    return entity;
  }

  /**
   * Appends a plain text block (its tag and its text, nothing else) to a list ending in one
   * by joining the two, in a new block: a message streamed in a thousand chunks is kept as
   * the text it reads as, not a thousand blocks (each block a client would keep), and the
   * blocks the updates carry stay as they came. Anything else is appended as it is.
   */
  private joined(list: unknown[], item: unknown): boolean {
    const text = this.spec.prompt.text;
    if (!text || list.length === 0) return false;
    const last = list[list.length - 1];
    if (!plainText(item, text) || !plainText(last, text)) return false;
    list[list.length - 1] = {
      [text.tag]: text.value,
      [text.field]: `${(last as Json)[text.field]}${(item as Json)[text.field]}`,
    };
    return true;
  }

  /** The entity a keyless update continues: the one the update just before it made, if of the same kind and keyless too. */
  private continued(rule: EntityRule, keyName: string | undefined): Entity | undefined {
    const last = this.lastEntity;
    if (!last || this.lastKind !== rule.kind) return undefined;
    if (keyName === undefined) return last;
    const key = last[keyName];
    return key === undefined || key === null ? last : undefined;
  }

  private find(slot: string, shape: Compiled["shape"], key: unknown): Entity | undefined {
    if (shape === "map") return (this.view[slot] as Map<unknown, Entity>).get(key);
    return this.listIndex.get(slot)?.get(key);
  }

  private store(
    slot: string,
    shape: Compiled["shape"],
    key: unknown,
    replaced: Entity | undefined,
    entity: Entity,
  ): void {
    if (shape === "map") {
      (this.view[slot] as Map<unknown, Entity>).set(key, entity);
      return;
    }
    const list = this.view[slot] as Entity[];
    const index = replaced ? list.lastIndexOf(replaced) : -1;
    if (index === -1) list.push(entity);
    else list[index] = entity;
    if (key !== undefined) this.listIndex.get(slot)?.set(key, entity);
  }

  private remove(slot: string, shape: Compiled["shape"], key: unknown): void {
    if (shape === "map") {
      (this.view[slot] as Map<unknown, Entity>).delete(key);
      return;
    }
    const index = this.listIndex.get(slot);
    const entity = index?.get(key);
    if (!entity) return;
    index?.delete(key);
    const list = this.view[slot] as Entity[];
    list.splice(list.indexOf(entity), 1);
  }

  /** A new entity from an update's fields: the lists appends grow are copied, so they are ours. */
  private stored(compiled: Compiled, fields: Entity): Entity {
    for (const name of compiled.grown) {
      const list = fields[name];
      if (Array.isArray(list)) fields[name] = [...list];
    }
    return fields;
  }

  private withoutTag(update: Json): Entity {
    const { [this.spec.update.tag]: _tag, ...fields } = update;
    return fields;
  }
}

/** A block that is text and nothing more: only the text block's tag and text. */
function plainText(value: unknown, text: TextBlock): boolean {
  if (typeof value !== "object" || value === null) return false;
  const block = value as Json;
  if (block[text.tag] !== text.value || typeof block[text.field] !== "string") return false;
  let keys = 0;
  for (const key in block) if (Object.hasOwn(block, key)) keys++;
  return keys === 2;
}

/**
 * `fields` applied to `entity` in place: each present field replaces the stored one, except
 * that `null` removes it where the patch says so (and is ignored elsewhere), and `byKey`
 * fields patch the stored object by top-level key. `copied` lists are stored as copies.
 */
function patched(
  entity: Entity,
  fields: Entity,
  patch: PatchSpec,
  copied: readonly string[],
): Entity {
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || name === "__proto__") continue;
    if (value === null) {
      if (patch.nullClears.includes(name)) delete entity[name];
      continue;
    }
    if (patch.byKey.includes(name) && typeof value === "object" && !Array.isArray(value)) {
      const stored = entity[name];
      const merged: Json =
        typeof stored === "object" && stored !== null && !Array.isArray(stored)
          ? { ...(stored as Json) }
          : {};
      for (const [key, v] of Object.entries(value as Json)) {
        if (key === "__proto__") continue;
        if (v === null) delete merged[key];
        else merged[key] = v;
      }
      entity[name] = merged;
      continue;
    }
    entity[name] = Array.isArray(value) && copied.includes(name) ? [...value] : value;
  }
  return entity;
}
