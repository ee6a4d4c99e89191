/**
 * A copy of a JSON-like value in plain objects, every own key kept as data (`__proto__`
 * included): generated and parsed values may have objects without a prototype, which is no
 * difference in what a message says. `dropUndefined` leaves out `undefined`-valued keys, as
 * `JSON.stringify` would send the value.
 */
export function plainCopy(value: unknown, { dropUndefined = false } = {}): unknown {
  if (Array.isArray(value)) return value.map((item) => plainCopy(item, { dropUndefined }));
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (dropUndefined && v === undefined) continue;
    Object.defineProperty(out, k, {
      value: plainCopy(v, { dropUndefined }),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** A copy without any own `__proto__` key, at every depth: what parse promises of content kept whole. */
export function withoutProto(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutProto);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (k !== "__proto__") out[k] = withoutProto(v);
  return out;
}
