/**
 * The default skill id of a method: its name in kebab-case (`createOrder` → `create-order`,
 * `getHTTPStatus` → `get-http-status`).
 */
export function toSkillId(methodName: string): string {
  return methodName
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
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
