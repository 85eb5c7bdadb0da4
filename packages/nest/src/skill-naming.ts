const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;

/** JavaScript's `\s` (white space and line terminators), as the engine defines it. */
const SPACE = /\s/;

/** `-`, `_`, `.` and `\s`. */
function isSeparator(c: number): boolean {
  if (c === 45 || c === 95 || c === 46 || c === 32 || (c >= 9 && c <= 13)) return true;
  return c >= 0xa0 && SPACE.test(String.fromCharCode(c));
}

/**
 * The default skill id of a method: its name in kebab-case (`getHTTPStatus` → `get-http-status`,
 * `list_invoices` → `list-invoices`), in one pass, linear in the length of the name.
 */
export function toSkillId(methodName: string): string {
  // At most twice as long as the name; one buffer, not a list of many short strings.
  const out = new Uint16Array(methodName.length * 2);
  let length = 0;
  let dash = false;
  for (let i = 0; i < methodName.length; i++) {
    const c = methodName.charCodeAt(i);
    if (isSeparator(c)) {
      dash = true;
      continue;
    }
    if (i > 0 && isUpper(c)) {
      const before = methodName.charCodeAt(i - 1);
      const digit = before >= 48 && before <= 57;
      if (isLower(before) || digit || (isUpper(before) && isLower(methodName.charCodeAt(i + 1)))) dash = true;
    }
    if (dash && length > 0) out[length++] = 45;
    dash = false;
    out[length++] = c;
  }
  let id = '';
  for (let from = 0; from < length; from += 8192) {
    id += String.fromCharCode(...out.subarray(from, Math.min(length, from + 8192)));
  }
  return id.toLowerCase();
}

const PLAIN_ID = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/** The default skill name of an id: `create-order` → `Create order`. */
export function toSkillName(id: string): string {
  // Most ids are already kebab-case: one replacement, no regular expression rewrite.
  if (PLAIN_ID.test(id)) return id.charAt(0).toUpperCase() + id.slice(1).replaceAll('-', ' ');
  const words = id.replace(/[-_.\s]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
