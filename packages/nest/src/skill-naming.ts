function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

/**
 * A `-` before each word of a camelCase name: before an upper-case letter that follows a
 * lower-case letter or a digit (`createOrder`), and before the last letter of an upper-case run
 * that a lower-case letter follows (`HTTPStatus`). One pass: the expression it replaces,
 * `/([A-Z]+)([A-Z][a-z])/g`, retried a long upper-case run from each of its letters, in time
 * quadratic in its length.
 */
function splitCamelCase(name: string): string {
  let out = '';
  let from = 0;
  for (let i = 1; i < name.length; i++) {
    if (!isUpper(name.charCodeAt(i))) continue;
    const before = name.charCodeAt(i - 1);
    const digit = before >= 48 && before <= 57;
    if (isLower(before) || digit || (isUpper(before) && isLower(name.charCodeAt(i + 1)))) {
      out += `${name.slice(from, i)}-`;
      from = i;
    }
  }
  return from === 0 ? name : out + name.slice(from);
}

/**
 * The default skill id of a method: its name in kebab-case (`createOrder` → `create-order`,
 * `getHTTPStatus` → `get-http-status`). Linear in the length of the name.
 */
export function toSkillId(methodName: string): string {
  return splitCamelCase(methodName)
    .replace(/[\s_.]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase();
}

const PLAIN_ID = /^[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*$/;

/**
 * The default skill name of an id: separators become spaces and the first letter is upper case
 * (`create-order` → `Create order`).
 */
export function toSkillName(id: string): string {
  // Most ids are already kebab-case: one replacement, no regular expression rewrite.
  if (PLAIN_ID.test(id)) return id.charAt(0).toUpperCase() + id.slice(1).replaceAll('-', ' ');
  const words = id.replace(/[-_.\s]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
