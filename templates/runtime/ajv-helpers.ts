/**
 * The helpers ajv's generated code calls out to. ajv's standalone output would `require()`
 * the first two from the ajv package; the generator rewires those calls to this module so
 * the generated package is pure ESM with no runtime dependency. `issue` builds the error
 * objects ajv writes out literally at each check, and the `…Issues` helpers keep the list of
 * them where ajv spells out the same statements at every site (generator/emit/ajv-output.ts).
 */

/** An error a validator reports: what validation.ts's `issuesOf` reads. */
export function issue(
  instancePath: string,
  keyword: string,
  params: Record<string, unknown>,
): { instancePath: string; keyword: string; params: Record<string, unknown> } {
  return { instancePath, keyword, params };
}

/** What a validator reports when its first failed check ends it: `false`, and that one error. */
export function fail(
  validator: { errors?: unknown },
  instancePath: string,
  keyword: string,
  params: Record<string, unknown>,
): false {
  validator.errors = [issue(instancePath, keyword, params)];
  return false;
}

/**
 * `fail` for a failed `type` check, the most common failure by far: the same error, without
 * the keyword and the params' property name written out at every site.
 */
export function failType(
  validator: { errors?: unknown },
  instancePath: string,
  type: unknown,
): false {
  validator.errors = [issue(instancePath, "type", { type })];
  return false;
}

/** ajv's test that a value is a JSON object (`data && typeof data == "object" && !Array.isArray(data)`). */
export function isObject(data: unknown): boolean {
  return typeof data === "object" && data !== null && !Array.isArray(data);
}

/** An issue is what a validator's `errors` list holds. */
type Issue = ReturnType<typeof issue>;

/**
 * `list` with `error` appended: a new list when there was none. ajv's code keeps `null` for
 * "no errors yet" and appends in place (ajv-output.ts writes these calls in its place).
 */
export function pushIssue(list: Issue[] | null, error: Issue): Issue[] {
  if (list === null) return [error];
  list.push(error);
  return list;
}

/** `list` followed by a called validator's `errors`: that very list when there was none. */
export function concatIssues(list: Issue[] | null, errors: Issue[]): Issue[] {
  return list === null ? errors : list.concat(errors);
}

/** `list` cut back to its first `count` errors, in place; `null` for none. */
export function truncateIssues(list: Issue[] | null, count: number): Issue[] | null {
  if (list === null || !count) return null;
  list.length = count;
  return list;
}

/** String length in Unicode code points (JSON Schema's `minLength`/`maxLength` unit). */
export function ucs2length(text: string): number {
  let length = 0;
  let index = 0;
  while (index < text.length) {
    const code = text.charCodeAt(index++);
    if (code >= 0xd800 && code <= 0xdbff && index < text.length) {
      const next = text.charCodeAt(index);
      if ((next & 0xfc00) === 0xdc00) index++;
    }
    length++;
  }
  return length;
}

/** Deep equality of JSON values (`const`, `enum` and `uniqueItems` on non-primitive values). */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  for (const key of keys) {
    if (!Object.hasOwn(b, key)) return false;
    if (!equal((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]))
      return false;
  }
  return true;
}
