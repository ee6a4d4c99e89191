import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../generator/paths.js";

export const EXTENSION_FIXTURES = join(ROOT, "test", "extensions", "fixtures");
/** An extension for every surface: a request, a notification, an `x-side: both` request, a `_meta` key. */
export const PROBE = join(EXTENSION_FIXTURES, "probe.json");
/** The README's worked example (v1 only). */
export const ACME = join(ROOT, "docs", "examples", "acme-extension.json");

export interface ExtensionFile {
  $defs: Record<string, Record<string, unknown>>;
  "x-meta"?: Record<string, Record<string, unknown>>;
  "x-surfaces"?: string[];
}

export function readExtension(path: string): ExtensionFile {
  return JSON.parse(readFileSync(path, "utf8")) as ExtensionFile;
}

/** A method as the extension file declares it, read the way PRODUCT.md and the README describe. */
export interface DeclaredMethod {
  method: string;
  side: string;
  /** The sides serving it: `both` is agent and client. */
  servedBy: Array<"agent" | "client">;
  kind: "request" | "notification";
  params: string;
  result?: string;
  /** Snake case of the wire name, `/` → `_`, the leading `_` dropped (`_probe/sync_state` → `probe_sync_state`). */
  key: string;
  /** camelCase of the key. */
  handler: string;
}

export function declaredMethods(file: ExtensionFile): DeclaredMethod[] {
  const byWire = new Map<string, Record<string, string>>();
  for (const [key, def] of Object.entries(file.$defs)) {
    const wire = def["x-method"];
    if (typeof wire !== "string") continue;
    const role = key.endsWith("Request")
      ? "request"
      : key.endsWith("Response")
        ? "response"
        : "notification";
    byWire.set(wire, {
      ...byWire.get(wire),
      [role]: key,
      side: String(def["x-side"]),
    });
  }
  return [...byWire].map(([method, group]) => {
    const key = method.replace(/^_/, "").replaceAll("/", "_");
    const side = group.side as string;
    const params = (group.request ?? group.notification) as string;
    return {
      method,
      side,
      servedBy: side === "both" ? ["agent", "client"] : [side as "agent" | "client"],
      kind: group.request ? "request" : "notification",
      params,
      ...(group.response ? { result: group.response } : {}),
      key,
      handler: key.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
    };
  });
}
