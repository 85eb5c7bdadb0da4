/**
 * The `Forwarded` header (RFC 7239 §4) as a list of elements, each a record of lower-case
 * parameter names to values (quoted strings unquoted and unescaped), or `undefined` when the
 * value does not parse. A port of forwarded-parse 2.2.0 (MIT, Luigi Pinca) that returns instead
 * of throwing and needs nothing from Node (the package requires `util`, which Workers and
 * Next.js's edge runtime do not have); a property test holds it to the package's answers.
 */
export function parseForwardedHeader(header: string): Record<string, string>[] | undefined {
  let mustUnescape = false;
  let isEscaping = false;
  let inQuotes = false;
  let element: Record<string, string> = {};
  const output: Record<string, string>[] = [];
  let start = -1;
  let end = -1;
  let parameter: string | undefined;
  let code = -1;
  const value = (at: number): string => {
    const text = header.slice(start, end === -1 ? at : end);
    return mustUnescape ? text.replace(/\\(.)/g, '$1') : text;
  };
  for (let i = 0; i < header.length; i++) {
    code = header.charCodeAt(i);
    if (parameter === undefined) {
      if (i !== 0 && start === -1 && (code === 0x20 || code === 0x09)) continue;
      if (isTokenChar(code)) {
        if (start === -1) start = i;
      } else if (code === 0x3d /* = */ && start !== -1) {
        parameter = header.slice(start, i).toLowerCase();
        start = -1;
      } else {
        return undefined;
      }
    } else if (isEscaping && (code === 0x09 || isPrint(code) || isExtended(code))) {
      isEscaping = false;
    } else if (isTokenChar(code)) {
      if (end !== -1) return undefined;
      if (start === -1) start = i;
    } else if (isDelimiter(code) || isExtended(code)) {
      if (inQuotes) {
        if (code === 0x22 /* " */) {
          inQuotes = false;
          end = i;
        } else if (code === 0x5c /* \ */) {
          if (start === -1) start = i;
          isEscaping = mustUnescape = true;
        } else if (start === -1) {
          start = i;
        }
      } else if (code === 0x22 && header.charCodeAt(i - 1) === 0x3d) {
        inQuotes = true;
      } else if ((code === 0x2c /* , */ || code === 0x3b) /* ; */ && (start !== -1 || end !== -1)) {
        element[parameter] = start === -1 ? '' : value(i);
        if (code === 0x2c) {
          output.push(element);
          element = {};
        }
        parameter = undefined;
        start = end = -1;
      } else {
        return undefined;
      }
    } else if (code === 0x20 || code === 0x09) {
      if (end !== -1) continue;
      if (inQuotes) {
        if (start === -1) start = i;
      } else if (start !== -1) {
        end = i;
      } else {
        return undefined;
      }
    } else {
      return undefined;
    }
  }
  if (parameter === undefined || inQuotes || (start === -1 && end === -1) || code === 0x20 || code === 0x09) {
    return undefined;
  }
  element[parameter] = start === -1 ? '' : value(header.length);
  output.push(element);
  return output;
}

/** A delimiter of RFC 7230 §3.2.6: `"(),/:;<=>?@[\]{}`. */
function isDelimiter(code: number): boolean {
  return (
    code === 0x22 ||
    code === 0x28 ||
    code === 0x29 ||
    code === 0x2c ||
    code === 0x2f ||
    (code >= 0x3a && code <= 0x40) ||
    (code >= 0x5b && code <= 0x5d) ||
    code === 0x7b ||
    code === 0x7d
  );
}

/** A `tchar` of RFC 7230 §3.2.6. */
function isTokenChar(code: number): boolean {
  return (
    code === 0x21 ||
    (code >= 0x23 && code <= 0x27) ||
    code === 0x2a ||
    code === 0x2b ||
    code === 0x2d ||
    code === 0x2e ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x5e && code <= 0x7a) ||
    code === 0x7c ||
    code === 0x7e
  );
}

function isPrint(code: number): boolean {
  return code >= 0x20 && code <= 0x7e;
}

function isExtended(code: number): boolean {
  return code >= 0x80 && code <= 0xff;
}
